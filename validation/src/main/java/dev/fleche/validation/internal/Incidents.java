package dev.fleche.validation.internal;

import jakarta.ws.rs.container.ContainerRequestContext;

import java.util.UUID;

/**
 * Server-side failures get an opaque incident id: the client sees only the id, the log gets the id, the request
 * line (path, no query) and the stack trace, through {@code System.Logger} {@value #LOGGER} at {@code ERROR}.
 */
final class Incidents {
    static final String LOGGER = "dev.fleche.validation";
    private static final System.Logger LOG = System.getLogger(LOGGER);

    private Incidents() {
    }

    /** Logs {@code cause} under a new incident id and returns the id. */
    static String log(Throwable cause, ContainerRequestContext request) {
        String id = UUID.randomUUID().toString();
        String where = request == null ? "" : " " + request.getMethod() + " "
                + request.getUriInfo().getRequestUri().getRawPath();
        String requestId = ProblemResponder.requestId(request);
        String tail = requestId == null ? " failed" : " failed (request id " + requestId + ")";
        LOG.log(System.Logger.Level.ERROR, "incident " + id + ":" + where + tail, cause);
        return id;
    }
}
