package dev.fleche.examples.service;

import jakarta.ws.rs.container.ContainerRequestContext;
import jakarta.ws.rs.container.ContainerResponseContext;
import jakarta.ws.rs.container.ContainerResponseFilter;

/** After a successful POST, PUT or DELETE under {@code /todos}, wakes the {@code /changes} long-polls. */
public final class ChangeNotifier implements ContainerResponseFilter {
    private final Changes changes;

    public ChangeNotifier(Changes changes) {
        this.changes = changes;
    }

    @Override
    public void filter(ContainerRequestContext request, ContainerResponseContext response) {
        String method = request.getMethod();
        boolean writes = "POST".equals(method) || "PUT".equals(method) || "DELETE".equals(method);
        String path = request.getUriInfo().getPath();
        if (writes && response.getStatus() / 100 == 2 && (path.equals("todos") || path.startsWith("todos/"))) {
            changes.changed(method + " /" + path);
        }
    }
}
