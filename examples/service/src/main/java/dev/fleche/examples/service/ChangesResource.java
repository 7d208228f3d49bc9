package dev.fleche.examples.service;

import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.container.AsyncResponse;
import jakarta.ws.rs.container.Suspended;
import jakarta.ws.rs.core.Configuration;
import jakarta.ws.rs.core.Context;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;

import java.util.concurrent.TimeUnit;

/**
 * {@code GET /changes}: a long-poll answered {@code 200} with the next change to the to-dos, or {@code 204} after
 * {@value #WAIT_SECONDS} s without one (poll again). A drain ends the wait early the same way: {@code 204}.
 */
@Path("changes")
@Produces(MediaType.APPLICATION_JSON)
public class ChangesResource {
    /** The application property holding the {@link Changes}. */
    public static final String CHANGES = "service.changes";
    static final int WAIT_SECONDS = 25;

    private final Changes changes;

    public ChangesResource(@Context Configuration config) {
        this.changes = (Changes) config.getProperty(CHANGES);
    }

    /** How many clients wait now (for operators and tests). */
    @GET
    @Path("waiting")
    public Waiting waiting() {
        return new Waiting(changes.waiting());
    }

    /** The body of {@code GET /changes/waiting}. */
    public record Waiting(int waiting) {
    }

    @GET
    public void await(@Suspended AsyncResponse response) {
        response.setTimeoutHandler(timedOut -> {
            changes.forget(timedOut);
            timedOut.resume(Response.noContent().build());
        });
        response.setTimeout(WAIT_SECONDS, TimeUnit.SECONDS);
        if (!changes.await(response)) {
            response.resume(Response.status(503).header("Retry-After", "1").build());
        }
    }
}
