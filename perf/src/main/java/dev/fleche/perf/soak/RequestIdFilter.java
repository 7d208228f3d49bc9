package dev.fleche.perf.soak;

import jakarta.ws.rs.container.ContainerRequestContext;
import jakarta.ws.rs.container.ContainerResponseContext;
import jakarta.ws.rs.container.ContainerResponseFilter;
import jakarta.ws.rs.ext.Provider;

/** Copies the request's {@code X-Request-Id} to its response, so the soak can tell whose response it got. */
@Provider
public class RequestIdFilter implements ContainerResponseFilter {
    static final String HEADER = "X-Request-Id";

    @Override
    public void filter(ContainerRequestContext request, ContainerResponseContext response) {
        String id = request.getHeaderString(HEADER);
        if (id != null) {
            response.getHeaders().putSingle(HEADER, id);
        }
    }
}
