package dev.fleche.jersey;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Runs a resource method on the transport's reactor thread instead of handing it to a worker: no thread
 * hand-off, the lowest latency Fleche offers. Put it on a resource method, or on a resource class for all of its
 * methods.
 *
 * <p><b>The method must never block</b>: no I/O, no locks that may be held, no waiting. One blocked reactor stalls
 * every connection it owns. Asynchronous work is fine ({@code @Suspended AsyncResponse} resumed from elsewhere).
 *
 * <p>When it applies. The container decides before calling Jersey, from a table built at start-up (and on
 * reload) from the application's root resources. A request runs on the reactor only when
 * <ul>
 *   <li>every resource method whose path template and HTTP method match the request is {@code @NonBlocking}
 *       (two methods differing only in media types must both be annotated), and no sub-resource locator can match
 *       its path;</li>
 *   <li>its whole body has already been received (small bodies are; a large or {@code 100-continue} body is
 *       streamed and goes to a worker).</li>
 * </ul>
 * Anything else (automatic {@code HEAD}/{@code OPTIONS}, 404s, ambiguous matches) takes the default worker path,
 * so adding the annotation can never make a request run on the reactor by mistake.
 *
 * <p>The response is buffered in memory and handed to the transport in one piece. It may be at most
 * {@link FlecheProperties#NON_BLOCKING_MAX_RESPONSE_BYTES} (1 MiB by default); a larger one fails the exchange
 * with {@code 500} and a message naming {@code @NonBlocking}. Streaming responses ({@code StreamingOutput},
 * {@code ChunkedOutput}, SSE) are therefore not suited to it.
 */
@Documented
@Retention(RetentionPolicy.RUNTIME)
@Target({ElementType.METHOD, ElementType.TYPE})
public @interface NonBlocking {
}
