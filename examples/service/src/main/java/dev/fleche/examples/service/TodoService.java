package dev.fleche.examples.service;

import dev.fleche.examples.todo.TodoServer;
import dev.fleche.examples.todo.TodoStore;
import dev.fleche.jersey.FlecheHttpServer;
import dev.fleche.jersey.FlecheHttpServerFactory;
import dev.fleche.jersey.Health;
import dev.fleche.jersey.HealthCheck;
import org.glassfish.jersey.CommonProperties;
import org.glassfish.jersey.server.ResourceConfig;

import java.net.URI;

/**
 * The deployable to-do service: the {@code todo} example's {@code /todos} (validated JSON on H2), a
 * {@code /changes} long-poll, liveness and readiness at {@code /health/live} and {@code /health/ready} (readiness
 * checks the database), and the drain on SIGTERM. {@code TodoService [port]} prints {@code READY <port>} once
 * listening; settings in {@link ServiceConfig}.
 */
public final class TodoService {
    private TodoService() {
    }

    /** The application: the to-do resources, {@code /changes}, and health with a database check. */
    public static ResourceConfig application(TodoStore store, Changes changes) {
        Health health = Health.builder()
                .check("database", () -> store.isReachable(2) ? HealthCheck.Result.ok()
                        : HealthCheck.Result.down("the database did not answer within 2 s"))
                .build();
        return TodoServer.application(store)
                .register(ChangesResource.class)
                .property(ChangesResource.CHANGES, changes)
                .register(new ChangeNotifier(changes))
                .register(health)
                // The image's runtime has no java.desktop (build-image.sh): Jersey's default RenderedImage body
                // provider needs it, and would otherwise warn at every start that it is unavailable.
                .property(CommonProperties.PROVIDER_DEFAULT_DISABLE, "RENDEREDIMAGE");
    }

    /** Starts the service with {@code config}: listening when this returns. */
    public static FlecheHttpServer start(ServiceConfig config, TodoStore store) {
        URI uri = URI.create("http://" + config.host() + ":" + config.port() + "/");
        return FlecheHttpServerFactory.createServer(uri, application(store, new Changes()),
                TodoServer.transportOptions());
    }

    public static void main(String[] args) {
        ServiceConfig config = ServiceConfig.from(args, System.getenv());
        TodoStore store = new TodoStore(config.jdbcUrl());
        FlecheHttpServer server = start(config, store);
        server.drainOnSigterm(config.drain(), store::close);
        System.out.println("READY " + server.port());
    }
}
