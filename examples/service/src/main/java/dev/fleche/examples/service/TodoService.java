package dev.fleche.examples.service;

import dev.fleche.examples.todo.TodoServer;
import dev.fleche.examples.todo.TodoStore;
import dev.fleche.jersey.FlecheHttpServer;
import dev.fleche.jersey.FlecheHttpServerFactory;
import dev.fleche.jersey.FlecheMetrics;
import dev.fleche.jersey.FlecheProperties;
import dev.fleche.jersey.FlecheRequestIds;
import dev.fleche.jersey.Health;
import dev.fleche.jersey.HealthCheck;
import dev.fleche.transport.PemFiles;
import dev.fleche.transport.ServerOptions;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import org.glassfish.jersey.CommonProperties;
import org.glassfish.jersey.server.ResourceConfig;

import java.net.URI;
import java.util.concurrent.CountDownLatch;
import java.util.function.Consumer;
import java.util.function.Supplier;

/**
 * The deployable to-do service: the {@code todo} example's {@code /todos} (validated JSON on H2), a
 * {@code /changes} long-poll, liveness and readiness at {@code /health/live} and {@code /health/ready} (readiness
 * checks the database), {@code /metrics} (Prometheus text: the transport's and container's meters and a timer per
 * resource method), request ids and trace context ({@code X-Request-Id}, {@code traceparent}), the access log
 * when {@code FLECHE_ACCESS_LOG} asks for it, and the drain on SIGTERM. {@code TodoService [port]} prints {@code READY <port>} once
 * listening; settings in {@link ServiceConfig}.
 */
public final class TodoService {
    private TodoService() {
    }

    static final String USAGE = "usage: TodoService [port]   (port 0..65535, 0 for any free one; default: $PORT, "
            + "else 8080; other settings from the environment: DATABASE_URL, DRAIN_DELAY_SECONDS, "
            + "DRAIN_GRACE_SECONDS, BIND_HOST, BIND_PATH, FLECHE_ACCESS_LOG, TLS_CERT_FILE, TLS_KEY_FILE, TLS_CA_FILE, "
            + "TLS_RELOAD_SECONDS, TLS_MIN_VALID_DAYS, PROXY_PROTOCOL)";

    /**
     * The application on one process's H2 store: the to-do resources, {@code /changes}, health with a database
     * check, request ids, and metrics in a new Prometheus registry served at {@code /metrics}.
     */
    public static ResourceConfig application(TodoStore store, Changes changes) {
        return application(store, changes, changes::changed, reachable(store));
    }

    /** Why {@code store} is not ready (it did not answer within 2 s), or null. */
    private static Supplier<String> reachable(TodoStore store) {
        return () -> {
            try {
                return store.isReachable(2) ? null : "the database did not answer within 2 s";
            } catch (java.sql.SQLException e) {
                return "the database did not answer: " + e.getMessage();
            }
        };
    }

    /**
     * The application, writes published through {@code publish} (which must reach {@code changes}), readiness
     * down while {@code notReady} gives a reason.
     */
    static ResourceConfig application(TodoStore store, Changes changes, Consumer<String> publish,
                                      Supplier<String> notReady) {
        return application(store, changes, publish, notReady, null);
    }

    /** The same, with readiness also down while {@code certificate} (a check on its expiry; may be null) is. */
    static ResourceConfig application(TodoStore store, Changes changes, Consumer<String> publish,
                                      Supplier<String> notReady, HealthCheck certificate) {
        PrometheusMeterRegistry registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
        Health.Builder checks = Health.builder()
                .check("database", () -> {
                    String why = notReady.get();
                    return why == null ? HealthCheck.Result.ok() : HealthCheck.Result.down(why);
                });
        if (certificate != null) {
            checks.check("certificate", certificate);
        }
        Health health = checks.build();
        return TodoServer.application(store)
                .register(ChangesResource.class)
                .property(ChangesResource.CHANGES, changes)
                .register(new ChangeNotifier(publish))
                .register(health)
                .register(FlecheRequestIds.class)
                .register(new FlecheMetrics(registry))
                .register(MetricsResource.class)
                .property(MetricsResource.REGISTRY, registry)
                // The image's runtime has no java.desktop (build-image.sh): Jersey's default RenderedImage body
                // provider needs it, and would otherwise warn at every start that it is unavailable.
                .property(CommonProperties.PROVIDER_DEFAULT_DISABLE, "RENDEREDIMAGE")
                // Closed world (issue 26): everything it uses is registered above; FLECHE_FAST_START=off turns it off.
                .property(FlecheProperties.FAST_START, !"off".equals(System.getenv("FLECHE_FAST_START")));
    }

    /** Starts the service with {@code config} on one process's {@code store}: listening when this returns. */
    public static FlecheHttpServer start(ServiceConfig config, TodoStore store) {
        PemFiles pem = config.listener().pemFiles();
        Changes changes = new Changes();
        return start(config, pem, application(store, changes, changes::changed, reachable(store),
                config.listener().certificateCheck(pem)));
    }

    /** Starts the service with {@code config} on {@code database}: listening when this returns. */
    static FlecheHttpServer start(ServiceConfig config, Database database, Changes changes) {
        PemFiles pem = config.listener().pemFiles();
        return start(config, pem, application(database.store(), changes, database::publish, database::notReady,
                config.listener().certificateCheck(pem)));
    }

    private static FlecheHttpServer start(ServiceConfig config, PemFiles pem, ResourceConfig application) {
        URI uri = config.listener().uri(config.host(), config.port());
        if (config.accessLog() != null && config.accessLog().file() == null) {
            StdoutLines.route(config.accessLog().logger());
        }
        ServerOptions options = config.listener().apply(TodoServer.transportOptions().toBuilder()
                .accessLog(config.accessLog()).build(), pem);
        return FlecheHttpServerFactory.createServer(uri, application, options);
    }

    /** What {@code main} prints once listening: {@code READY <port>}, or {@code READY unix:<path>} on a socket. */
    static String ready(FlecheHttpServer server) {
        return server.port() < 0 ? "READY unix:" + server.transport().options().unixSocket() : "READY " + server.port();
    }

    /**
     * {@code TodoService [port]}: prints {@code READY <port>}, serves until SIGTERM (drain, exit 0) or SIGKILL.
     * Bad arguments or settings: the reason and {@link #USAGE} on standard error, exit code 2.
     */
    public static void main(String[] args) throws InterruptedException {
        ServiceConfig config;
        try {
            if (args.length > 1) {
                throw new IllegalArgumentException("one argument at most, got " + args.length);
            }
            config = ServiceConfig.from(args, System.getenv());
        } catch (IllegalArgumentException e) {
            System.err.println(e.getMessage());
            System.err.println(USAGE);
            System.exit(2);
            return;
        }
        Changes changes = new Changes();
        Database database = Database.open(config.jdbcUrl(), changes);
        FlecheHttpServer server = start(config, database, changes);
        server.drainOnSigterm(config.drain(), database::close);
        System.out.println(ready(server));
        // The process ends in the drain's System.exit. Until then main waits: under `mvn exec:java` a returning
        // main lets the plugin close the application's class loader as soon as the transport's threads end, while
        // the drain still runs on (and loads classes: Drain$Outcome) — NoClassDefFoundError. Waiting costs nothing.
        new CountDownLatch(1).await();
    }
}
