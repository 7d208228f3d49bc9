package dev.fleche.examples.service;

import jakarta.ws.rs.container.ContainerRequestContext;
import jakarta.ws.rs.container.ContainerResponseContext;
import jakarta.ws.rs.container.ContainerResponseFilter;

import java.util.function.Consumer;

/**
 * After a successful POST, PUT or DELETE under {@code /todos}, publishes the change: to this process's
 * {@code /changes} long-polls (H2), or to every replica's through the database (PostgreSQL, {@link PgChangeFeed}).
 */
public final class ChangeNotifier implements ContainerResponseFilter {
    private final Consumer<String> publish;

    public ChangeNotifier(Consumer<String> publish) {
        this.publish = publish;
    }

    @Override
    public void filter(ContainerRequestContext request, ContainerResponseContext response) {
        String method = request.getMethod();
        boolean writes = "POST".equals(method) || "PUT".equals(method) || "DELETE".equals(method);
        String path = request.getUriInfo().getPath();
        if (writes && response.getStatus() / 100 == 2 && (path.equals("todos") || path.startsWith("todos/"))) {
            publish.accept(method + " /" + path);
        }
    }
}
