package dev.fleche.jersey.internal;

import dev.fleche.transport.HttpExchange;
import dev.fleche.transport.HttpFields;
import jakarta.ws.rs.core.MultivaluedMap;
import org.glassfish.jersey.server.ApplicationHandler;
import org.glassfish.jersey.server.ContainerRequest;

import java.net.URI;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The engine behind {@code FlecheContainer}: turns transport exchanges into Jersey requests.
 *
 * <p>{@link #handle} runs on a reactor thread and never blocks. It checks the base path (else {@code 404}),
 * then either runs Jersey right there — only for a {@code @NonBlocking} route whose body is fully received — or
 * hands the exchange to the {@link Workers} ({@code 503} with {@code Retry-After} when they are saturated). The
 * Jersey request (URIs, headers, properties) is built on the thread that runs it.
 *
 * <pre>
 *  reactor: handle ─▶ under base path? ─no─▶ 404
 *                        │yes
 *                        ├─ @NonBlocking route and body received ─▶ serve (here)
 *                        └─ workers.tryExecute(serve) ─rejected─▶ 503 + Retry-After
 *  serve: build ContainerRequest ─▶ ApplicationHandler.handle ─▶ committed | suspended | left open (500/abort)
 * </pre>
 */
public final class JerseyBridge {
    private final Workers workers;
    private final AtomicInteger armedTimers = new AtomicInteger();
    private final SuspendedWriters suspended = new SuspendedWriters();
    private volatile String rootPath = "/";
    private volatile Deployment deployment;

    /** A bridge for {@code handler}; its workers follow the application's properties. */
    public JerseyBridge(ApplicationHandler handler) {
        this.deployment = Deployment.of(handler, rootPath, armedTimers);
        this.workers = Workers.from(handler.getConfiguration().getProperties());
    }

    /** The current application handler. */
    public ApplicationHandler handler() {
        return deployment.handler();
    }

    /** Serves the application under {@code path} (the server URI's path); the application path goes below it. */
    public void rootPath(String path) {
        rootPath = path;
        deployment = Deployment.of(deployment.handler(), path, armedTimers);
    }

    /** Switches to {@code handler} (reload); requests in flight finish on the previous one. */
    public void replace(ApplicationHandler handler) {
        deployment = Deployment.of(handler, rootPath, armedTimers);
    }

    /** Root path + application path, starting and ending with {@code /}. */
    public String basePath() {
        return deployment.basePath();
    }

    /** Suspend timers currently armed (neither expired nor cancelled). */
    public int armedTimers() {
        return armedTimers.get();
    }

    /**
     * Drain: ends every suspended response now (SSE streams closed, other suspends timed out) and every one that
     * suspends from now on; returns how many were ended now.
     */
    public int endSuspended() {
        return suspended.endAll();
    }

    /** Responses suspended right now. */
    public int suspendedCount() {
        return suspended.size();
    }

    /** What runs requests off the reactor. */
    public String describeWorkers() {
        return workers.describe();
    }

    /** Releases the worker threads the bridge created. */
    public void shutdown() {
        workers.shutdown();
    }

    /** Reactor entry point; see the class description. */
    public void handle(HttpExchange exchange) {
        Deployment current = deployment;
        String path = current.canonicalPath(exchange.path());
        if (path == null) {
            Responses.text(exchange, 404, new HttpFields(1), "not found");
            return;
        }
        NonBlockingRoutes routes = current.routes();
        if (!routes.isEmpty() && exchange.isBodyReceived()
                && routes.allows(exchange.method(), current.routedPath(path))) {
            serve(current, exchange, path, true);
            return;
        }
        if (!workers.tryExecute(() -> serve(current, exchange, path, false))) {
            Responses.busy(exchange, current.settings().retryAfterSeconds());
        }
    }

    private void serve(Deployment current, HttpExchange exchange, String path, boolean nonBlocking) {
        ResponseWriter writer = new ResponseWriter(exchange, current, workers, suspended, nonBlocking);
        Throwable escaped = null;
        try {
            current.handler().handle(request(current, exchange, path, writer));
        } catch (BadRequest e) {
            writer.answer(400, new HttpFields(1), "bad request: " + e.getMessage());
        } catch (Throwable t) {
            escaped = t;
        }
        writer.afterHandle(escaped);
    }

    private static ContainerRequest request(Deployment current, HttpExchange exchange, String path,
                                            ResponseWriter writer)
            throws BadRequest {
        BaseUris.Base base = current.baseUris().base(exchange);
        URI requestUri = current.baseUris().requestUri(base, path, exchange.query());
        boolean secure = "https".equals(base.uri().getScheme());
        ContainerRequest request = new ContainerRequest(base.uri(), requestUri, exchange.method(),
                secure ? ExchangeSecurityContext.SECURE : ExchangeSecurityContext.PLAIN,
                new ExchangeProperties(exchange, writer), current.handler().getConfiguration());
        request.setEntityStream(exchange.requestBody());
        HttpFields fields = exchange.headers();
        MultivaluedMap<String, String> headers = request.getHeaders();
        for (int i = 0, n = fields.size(); i < n; i++) {
            headers.add(fields.name(i), fields.value(i));
        }
        request.setWriter(writer);
        return request;
    }
}
