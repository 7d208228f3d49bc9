package dev.fleche.examples.modulepath;

import dev.fleche.async.LongPollTopic;
import jakarta.validation.constraints.Min;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.container.AsyncResponse;
import jakarta.ws.rs.container.Suspended;
import jakarta.ws.rs.core.MediaType;

/**
 * One resource per Fleche module the application reads: a plain answer (the bridge), a value that must be at least
 * 1 (validation: a problem document otherwise) and a long poll that is ready at once (async).
 */
@Path("/")
@Produces(MediaType.TEXT_PLAIN)
public class Greetings {
    private static final LongPollTopic<String, String> TOPIC = LongPollTopic.create();

    @GET
    @Path("hello")
    public String hello() {
        return "Hello from the module path";
    }

    @GET
    @Path("times/{n}")
    public String times(@PathParam("n") @Min(1) int n) {
        return "x".repeat(n);
    }

    @GET
    @Path("poll")
    public void poll(@Suspended AsyncResponse response) {
        TOPIC.await("ready", response, () -> "polled");
    }
}
