package dev.fleche.examples.hello;

import jakarta.ws.rs.BadRequestException;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.DefaultValue;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.container.AsyncResponse;
import jakarta.ws.rs.container.Suspended;
import jakarta.ws.rs.core.MediaType;

import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

/** The example's resources. */
@Path("/")
public class HelloResource {
    /** One timer thread for every {@code /async} request. */
    private static final ScheduledExecutorService TIMER = Executors.newSingleThreadScheduledExecutor(task -> {
        Thread thread = new Thread(task, "hello-async-timer");
        thread.setDaemon(true);
        return thread;
    });

    /** The {@code /json} body. */
    public record Message(String message) {
    }

    /** The {@code /echo} body. */
    public record Payment(String name, double amount) {
    }

    @GET
    @Path("hello")
    @Produces(MediaType.TEXT_PLAIN)
    public String hello() {
        return "Hello, World!";
    }

    @GET
    @Path("json")
    @Produces(MediaType.APPLICATION_JSON)
    public Message json() {
        return new Message("Hello, World!");
    }

    @POST
    @Path("echo")
    @Consumes(MediaType.APPLICATION_JSON)
    @Produces(MediaType.APPLICATION_JSON)
    public Payment echo(Payment payment) {
        if (payment == null) {
            throw new BadRequestException(JsonErrorMapper.badRequest("a JSON body is required", null));
        }
        return payment;
    }

    @GET
    @Path("async")
    @Produces(MediaType.TEXT_PLAIN)
    public void async(@QueryParam("delayMs") @DefaultValue("0") long delayMs, @Suspended AsyncResponse response) {
        TIMER.schedule(() -> response.resume("Hello, World!"), Math.max(0, delayMs), TimeUnit.MILLISECONDS);
    }
}
