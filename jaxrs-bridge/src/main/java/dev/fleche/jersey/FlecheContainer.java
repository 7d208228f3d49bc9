package dev.fleche.jersey;

import dev.fleche.jersey.internal.BadRequest;
import dev.fleche.jersey.internal.BaseUris;
import dev.fleche.jersey.internal.Deployment;
import dev.fleche.jersey.internal.ExchangeProperties;
import dev.fleche.jersey.internal.ExchangeSecurityContext;
import dev.fleche.jersey.internal.ResponseWriter;
import dev.fleche.jersey.internal.Responses;
import dev.fleche.jersey.internal.SuspendedWriters;
import dev.fleche.jersey.internal.Workers;
import dev.fleche.transport.HttpExchange;
import dev.fleche.transport.HttpFields;
import dev.fleche.transport.HttpHandler;
import dev.fleche.transport.HttpServer;
import jakarta.ws.rs.core.Application;
import jakarta.ws.rs.core.MultivaluedMap;
import org.glassfish.jersey.server.ApplicationHandler;
import org.glassfish.jersey.server.ContainerRequest;
import org.glassfish.jersey.server.ResourceConfig;
import org.glassfish.jersey.server.spi.Container;

import java.net.URI;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.LongAdder;

/**
 * The Jersey {@link Container} of Fleche: hosts one application and serves the transport's exchanges with it —
 * Jersey's {@code XContainer} shape, with its {@link ResponseWriter} beside it. Create one with
 * {@link FlecheHttpServerFactory}, with {@code SeBootstrap}, or with
 * {@code ContainerFactory.createContainer(FlecheContainer.class, application)} and then
 * {@link FlecheHttpServerFactory#createServer(java.net.URI, FlecheContainer, dev.fleche.transport.ServerOptions,
 * boolean)}.
 *
 * <p>Serving: {@code handle} runs on a reactor thread and never blocks. It checks the base path (else
 * {@code 404}), then either runs Jersey right there — only for a {@link NonBlocking @NonBlocking} route whose body
 * is fully received — or hands the exchange to the workers ({@code 503} with {@code Retry-After} when they are
 * saturated). The container builds the Jersey request ({@code ContainerRequest}) on the thread that runs it, from
 * the {@link Deployment} the request started on (its base URIs, request ids and configuration).
 *
 * <pre>
 *  reactor: handle ─▶ under base path? ─no─▶ 404
 *                        │yes
 *                        ├─ @NonBlocking route and body received ─▶ serve (here)
 *                        └─ workers.tryExecute(serve) ─rejected─▶ 503 + Retry-After
 *  serve: ContainerRequest ─▶ ApplicationHandler.handle ─▶ committed | suspended | left open (500 / abort)
 * </pre>
 *
 * <p>Lifecycle: {@code ContainerLifecycleListener.onStartup} runs when the server starts listening,
 * {@code onShutdown} when it stops; {@link #reload(ResourceConfig)} calls {@code onShutdown} on the old
 * application and {@code onReload} then {@code onStartup} on the new one (the latter two only while running).
 * Requests in flight during a reload finish on the application (the {@link Deployment}) they started on.
 *
 * <p>Threading: see the module README; in short, Jersey runs on virtual threads (Java 21+) or a bounded pool,
 * never on the transport's reactor threads unless a method is {@link NonBlocking @NonBlocking}.
 */
public final class FlecheContainer implements Container {
    private final Workers workers;
    /** Responses suspended now, so that a drain can end them. */
    private final SuspendedWriters suspended = new SuspendedWriters();
    private final AtomicBoolean attached = new AtomicBoolean();
    /** Requests answered {@code 503} because the workers were saturated. */
    private final LongAdder busy = new LongAdder();
    private volatile String rootPath = "/";
    /** The application as deployed now; replaced whole on reload. */
    private volatile Deployment deployment;
    private volatile HttpServer transport;
    private volatile boolean running;

    FlecheContainer(Application application) {
        this(Deployment.handler(application));
    }

    FlecheContainer(Class<? extends Application> applicationClass) {
        this(Deployment.handler(applicationClass));
    }

    private FlecheContainer(ApplicationHandler handler) {
        this.deployment = Deployment.of(handler, rootPath);
        this.workers = Workers.from(handler.getConfiguration().getProperties());
    }

    @Override
    public ResourceConfig getConfiguration() {
        return deployment.handler().getConfiguration();
    }

    @Override
    public ApplicationHandler getApplicationHandler() {
        return deployment.handler();
    }

    @Override
    public void reload() {
        reload(new ResourceConfig(getConfiguration()));
    }

    @Override
    public void reload(ResourceConfig configuration) {
        ApplicationHandler next = Deployment.handler(configuration);
        ApplicationHandler previous = deployment.handler();
        deployment = Deployment.of(next, rootPath);
        if (running) {
            previous.onShutdown(this);
            next.onReload(this);
            next.onStartup(this);
        } else {
            next.onReload(this);
        }
    }

    /** Whether the server serving this container is listening. */
    public boolean isRunning() {
        return running;
    }

    /**
     * Timers armed for this container's requests (suspend timeouts, {@link ClientConnection#schedule}, SSE
     * heartbeats) that have neither run nor been cancelled, as its transport counts them. Every one is cancelled
     * when its response completes, so this returns to 0 once no request is suspended; tests use it to prove that
     * none leak.
     */
    public int armedTimers() {
        HttpServer server = transport;
        return server == null ? 0 : server.scheduledTasks();
    }

    /** The transport this container is mounted on, or null before {@link #mount}; for {@link FlecheMetrics}. */
    HttpServer transport() {
        return transport;
    }

    /** The container's workers; for {@link FlecheMetrics}. */
    Workers workers() {
        return workers;
    }

    /** Responses suspended now (long-polls, {@code AsyncResponse}, SSE streams); for {@link FlecheMetrics}. */
    int suspendedCount() {
        return suspended.size();
    }

    /** Requests answered {@code 503} because the workers were saturated, since the container was created. */
    long busyRejections() {
        return busy.sum();
    }

    @Override
    public String toString() {
        return "FlecheContainer[base=" + basePath() + ", workers=" + workers.describe() + "]";
    }

    // ---------------------------------------------------------------- serving (reactor entry point)

    /** The transport's handler: see the class description. Runs on a reactor thread; never blocks. */
    void handle(HttpExchange exchange) {
        Deployment current = deployment;
        String path = current.canonicalPath(exchange.path());
        if (path == null) {
            Responses.text(exchange, 404, new HttpFields(1), "not found");
            return;
        }
        if (current.runsOnReactor(exchange, path)) {
            serve(current, exchange, path, true);
            return;
        }
        if (!workers.tryExecute(() -> serve(current, exchange, path, false))) {
            busy.increment();
            Responses.busy(exchange, current.settings().retryAfterSeconds());
        }
    }

    private void serve(Deployment current, HttpExchange exchange, String path, boolean nonBlocking) {
        ResponseWriter writer = new ResponseWriter(exchange, current, workers, suspended, nonBlocking);
        Throwable escaped = null;
        writer.handleStarted();
        try {
            current.handler().handle(request(current, exchange, path, writer));
        } catch (BadRequest e) {
            writer.answer(400, new HttpFields(1), "bad request: " + e.getMessage());
        } catch (Throwable t) {
            escaped = t;
        }
        writer.afterHandle(escaped);
    }

    /**
     * Jersey's request for {@code exchange} ({@code path} as {@link Deployment#canonicalPath} returned it), answered
     * through {@code writer}: base and request URIs from the {@code Host} (or trusted forwarded) header, the
     * headers, the body stream, the request properties, and the request id and trace context when the
     * application asked for them.
     */
    private static ContainerRequest request(Deployment current, HttpExchange exchange, String path,
            ResponseWriter writer) throws BadRequest {
        BaseUris.Base base = current.baseUris().base(exchange);
        URI requestUri = current.baseUris().requestUri(base, path, exchange.query());
        boolean secure = "https".equals(base.uri().getScheme());
        ContainerRequest request = new ContainerRequest(base.uri(), requestUri, exchange.method(),
                ExchangeSecurityContext.of(exchange, secure), new ExchangeProperties(exchange, writer),
                current.handler().getConfiguration());
        request.setEntityStream(exchange.requestBody());
        HttpFields fields = exchange.headers();
        MultivaluedMap<String, String> headers = request.getHeaders();
        for (int i = 0, n = fields.size(); i < n; i++) {
            headers.add(fields.name(i), fields.value(i));
        }
        if (current.requestIds() != null) {
            current.requestIds().publish(fields, exchange, request::setProperty);
        }
        request.setWriter(writer);
        return request;
    }

    // ---------------------------------------------------------------- mounting on a transport

    /**
     * Mounts this container on {@code server} under {@code rootPath} and returns the handler that serves it; a
     * container is mounted once. {@link FlecheHttpServer} does this for its own transport; call it yourself to
     * serve several containers on one {@link HttpServer} (dispatching by path in your handler), then
     * {@link #serverStarted()} and {@link #serverStopped()} as that server starts and stops.
     */
    public HttpHandler mount(HttpServer server, String rootPath) {
        if (!attached.compareAndSet(false, true)) {
            throw new IllegalStateException("this container is already mounted on a server");
        }
        transport = server;
        this.rootPath = rootPath;
        deployment = Deployment.of(deployment.handler(), rootPath);
        return this::handle;
    }

    /**
     * Drain: ends every suspended response now (SSE and chunked streams closed, other suspends timed out, so the
     * application's timeout handler answers, else Jersey's {@code 503}) and every one that suspends from now on;
     * returns how many were ended now.
     */
    int endSuspended() {
        return suspended.endAll();
    }

    /** Root path + application path, starting and ending with {@code /}. */
    public String basePath() {
        return deployment.basePath();
    }

    /** The server this container is mounted on started listening: the application's {@code onStartup}. */
    public void serverStarted() {
        running = true;
        deployment.handler().onStartup(this);
    }

    /**
     * That server stopped: the container's workers take no more requests, those still running get up to
     * {@value #FINISH_SECONDS} s to finish (a request whose client the transport already answered, with a
     * {@code 413} say, may still be in Jersey), then the application's {@code onShutdown}.
     */
    public void serverStopped() {
        running = false;
        workers.shutdown();
        try {
            workers.awaitIdle(java.time.Duration.ofSeconds(FINISH_SECONDS));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } finally {
            deployment.handler().onShutdown(this);
        }
    }

    /** How long {@link #serverStopped()} waits for requests still running in Jersey. */
    private static final int FINISH_SECONDS = 2;
}
