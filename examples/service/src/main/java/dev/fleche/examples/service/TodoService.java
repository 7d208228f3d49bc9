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
import dev.fleche.transport.ServerOptions;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import org.glassfish.jersey.CommonProperties;
import org.glassfish.jersey.server.ResourceConfig;

import java.net.URI;

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

    /**
     * The application: the to-do resources, {@code /changes}, health with a database check, request ids, and
     * metrics in a new Prometheus registry served at {@code /metrics}.
     */
    public static ResourceConfig application(TodoStore store, Changes changes) {
        PrometheusMeterRegistry registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
        Health health = Health.builder()
                .check("database", () -> store.isReachable(2) ? HealthCheck.Result.ok()
                        : HealthCheck.Result.down("the database did not answer within 2 s"))
                .build();
        return TodoServer.application(store)
                .register(ChangesResource.class)
                .property(ChangesResource.CHANGES, changes)
                .register(new ChangeNotifier(changes))
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

    /** Starts the service with {@code config}: listening when this returns. */
    public static FlecheHttpServer start(ServiceConfig config, TodoStore store) {
        URI uri = URI.create("http://" + config.host() + ":" + config.port() + "/");
        if (config.accessLog() != null && config.accessLog().file() == null) {
            StdoutLines.route(config.accessLog().logger());
        }
        ServerOptions options = TodoServer.transportOptions().toBuilder().accessLog(config.accessLog()).build();
        return FlecheHttpServerFactory.createServer(uri, application(store, new Changes()), options);
    }

    public static void main(String[] args) {
        ServiceConfig config = ServiceConfig.from(args, System.getenv());
        TodoStore store = new TodoStore(config.jdbcUrl());
        FlecheHttpServer server = start(config, store);
        server.drainOnSigterm(config.drain(), store::close);
        System.out.println("READY " + server.port());
    }
}
