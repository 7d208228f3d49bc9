package dev.fleche.perf.app;

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

import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The benchmark resources, compiled against the Jakarta REST API only, so that every JAX-RS target (Jersey on
 * each container, RESTEasy, Fleche) serves this very class; the non-JAX-RS peers implement the same contract with
 * their own API (see perf/README.md, "Endpoints").
 *
 * <table>
 *   <caption>Endpoints</caption>
 *   <tr><td>{@code GET /hello}</td><td>{@code 200 text/plain "Hello, World!"}</td></tr>
 *   <tr><td>{@code GET /json}</td><td>{@code {"message":"Hello, World!"}} through the JSON provider</td></tr>
 *   <tr><td>{@code POST /echo}</td><td>a JSON {@link Item} read and written back</td></tr>
 *   <tr><td>{@code GET /async?delayMs=N}</td><td>suspended, resumed with "Hello, World!" by a scheduler after N ms</td></tr>
 *   <tr><td>{@code GET /poll}</td><td>suspended until the next {@code POST /broadcast}, then "Hello, World!"</td></tr>
 *   <tr><td>{@code GET /waiting}</td><td>how many {@code /poll} requests wait (text)</td></tr>
 *   <tr><td>{@code POST /broadcast}</td><td>resumes every waiting {@code /poll}; answers how many (text)</td></tr>
 * </table>
 *
 * <p>Per-request life cycle (the JAX-RS default); the scheduler and the waiting list are static.
 */
@Path("/")
public class BenchResource {
    public static final String HELLO = "Hello, World!";

    static final ScheduledExecutorService SCHEDULER = Executors.newSingleThreadScheduledExecutor(r -> {
        Thread t = new Thread(r, "bench-scheduler");
        t.setDaemon(true);
        return t;
    });
    private static final ConcurrentLinkedQueue<AsyncResponse> WAITING = new ConcurrentLinkedQueue<>();
    private static final AtomicInteger WAITING_COUNT = new AtomicInteger();

    @GET
    @Path("hello")
    @Produces(MediaType.TEXT_PLAIN)
    public String hello() {
        return HELLO;
    }

    @GET
    @Path("json")
    @Produces(MediaType.APPLICATION_JSON)
    public Message json() {
        return new Message(HELLO);
    }

    @POST
    @Path("echo")
    @Consumes(MediaType.APPLICATION_JSON)
    @Produces(MediaType.APPLICATION_JSON)
    public Item echo(Item item) {
        return item;
    }

    @GET
    @Path("async")
    @Produces(MediaType.TEXT_PLAIN)
    public void async(@QueryParam("delayMs") @DefaultValue("130") long delayMs, @Suspended AsyncResponse response) {
        SCHEDULER.schedule(() -> response.resume(HELLO), Math.max(0, Math.min(delayMs, 600_000)),
                TimeUnit.MILLISECONDS);
    }

    @GET
    @Path("poll")
    @Produces(MediaType.TEXT_PLAIN)
    public void poll(@Suspended AsyncResponse response) {
        WAITING.add(response);
        WAITING_COUNT.incrementAndGet();
    }

    @GET
    @Path("waiting")
    @Produces(MediaType.TEXT_PLAIN)
    public String waiting() {
        return Integer.toString(WAITING_COUNT.get());
    }

    @POST
    @Path("broadcast")
    @Produces(MediaType.TEXT_PLAIN)
    public String broadcast() {
        int n = 0;
        for (AsyncResponse r; (r = WAITING.poll()) != null; n++) {
            WAITING_COUNT.decrementAndGet();
            r.resume(HELLO);
        }
        return Integer.toString(n);
    }
}
