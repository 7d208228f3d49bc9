package dev.fleche.jersey;

import dev.fleche.jersey.internal.TraceFilter;
import jakarta.ws.rs.core.Feature;
import jakarta.ws.rs.core.FeatureContext;

/**
 * Request ids and W3C Trace Context: register it with {@code config.register(FlecheRequestIds.class)}.
 *
 * <ul>
 *   <li>Request id: the incoming {@code X-Request-Id} when it is one field of 1 to {@value #MAX_REQUEST_ID_LENGTH}
 *       characters out of {@code A-Z a-z 0-9 . _ : -}; otherwise (absent, repeated, too long, other characters)
 *       a generated one: a random prefix chosen when the application starts, {@code -}, and a counter in hex.
 *       Echoed as {@code X-Request-Id} on every response (unless the application set one), set as the request
 *       property {@value FlecheProperties#REQUEST_ID}.</li>
 *   <li>Trace context: {@code traceparent} parsed as the W3C Trace Context recommendation says (version
 *       {@code 00}: exactly {@code 00-<32 hex trace-id>-<16 hex parent-id>-<2 hex flags>}, lowercase, ids not all
 *       zeros; a later version: the same first 55 characters, then nothing or {@code -}; {@code ff} is invalid).
 *       {@code tracestate} is kept only with a valid {@code traceparent} and when it is itself a valid list of at
 *       most 32 members. Valid values become the request properties {@value FlecheProperties#TRACE_ID},
 *       {@value FlecheProperties#PARENT_ID}, {@value FlecheProperties#TRACE_FLAGS},
 *       {@value FlecheProperties#TRACE_STATE}; invalid ones are ignored and never fail the request.</li>
 * </ul>
 *
 * <p>In the Fleche container the container itself does this from the request's header fields, before Jersey runs any
 * filter, and echoes the id as it writes the response head: no Jersey filter is added (once there is one, Jersey
 * merges and sorts the response filters on every request). In any other container, a pre-matching request filter
 * (priority 100) and a response filter do the same.
 *
 * <p>The headers themselves are neither consumed nor changed, so a tracing library with its own Jersey filters
 * (OpenTelemetry's instrumentation) sees them as sent. Everything is also reachable as one
 * {@link RequestTrace}: {@code RequestTrace.of(requestContext)}.
 */
public final class FlecheRequestIds implements Feature {
    /** The header carrying the request id, in and out. */
    public static final String HEADER = TraceFilter.REQUEST_ID_HEADER;
    /** The longest incoming request id kept. */
    public static final int MAX_REQUEST_ID_LENGTH = TraceFilter.MAX_REQUEST_ID_LENGTH;

    /** For {@code register(new FlecheRequestIds())}, or registered as a class. */
    public FlecheRequestIds() {
    }

    @Override
    public boolean configure(FeatureContext context) {
        return TraceFilter.register(context);
    }
}
