package dev.fleche.async;

import dev.fleche.jersey.FlecheHttpServer;
import dev.fleche.jersey.FlecheHttpServerFactory;
import dev.fleche.transport.ServerOptions;
import dev.fleche.transport.testing.RawHttp;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.container.AsyncResponse;
import jakarta.ws.rs.container.CompletionCallback;
import jakarta.ws.rs.container.Suspended;
import org.glassfish.jersey.server.ResourceConfig;
import org.glassfish.jersey.server.ServerProperties;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.net.InetSocketAddress;
import java.net.URI;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

/**
 * A resume and the suspend timeout competing for one request: whichever wins, the request gets exactly one
 * response, its completion callbacks run once, the loser changes nothing, and no timer is left armed.
 *
 * <p>Each side wins on purpose in its own case, on a server whose clock the test holds: the timeout fires only
 * when the test moves the clock, so the order is the test's, not the scheduler's. A third case races them 1,000
 * times on the real clock on one keep-alive connection (a second response would be read as the answer to the next
 * request, and the final marker request would not get its own); it asserts the invariant whatever the split.
 *
 * <p>Jersey's {@code AsyncResponder.resume} checks and sets its state in two steps (read lock, then write lock),
 * so in the real race both the resume and the timeout's {@code 503} are now and then processed by Jersey, and its
 * completion callbacks run twice for that request (3.1 and 4.0 alike). The container sends exactly one of the
 * two: the one that starts writing first. The racing case tolerates such doubles and reports them.
 */
class ResumeTimeoutRaceTest {
    static final int ITERATIONS = 1_000;
    static final ExecutorService RESUMERS = Executors.newFixedThreadPool(2, task -> {
        Thread thread = new Thread(task, "resumer");
        thread.setDaemon(true);
        return thread;
    });
    static final ConcurrentHashMap<Integer, AtomicInteger> COMPLETIONS = new ConcurrentHashMap<>();
    static volatile CompletableFuture<AsyncResponse> held = new CompletableFuture<>();

    @Path("race")
    public static class Resource {
        @GET
        public void race(@Suspended AsyncResponse response, @QueryParam("i") int i) {
            countCompletions(response, i);
            response.setTimeout(1, TimeUnit.MILLISECONDS); // the reactor's timer: fires within ~1-2 ms
            long delay = ThreadLocalRandom.current().nextLong(2_500_000L);
            RESUMERS.execute(() -> {
                LockSupport.parkNanos(delay); // spreads the resume over the timer's window: not a synchronisation
                response.resume("resumed " + i);
            });
        }

        /** Suspends with a one-second timeout and hands the response to the test. */
        @GET
        @Path("held")
        public void held(@Suspended AsyncResponse response) {
            countCompletions(response, 0);
            response.setTimeout(1, TimeUnit.SECONDS);
            held.complete(response);
        }

        @GET
        @Path("marker")
        public String marker() {
            return "marker";
        }

        private static void countCompletions(AsyncResponse response, int i) {
            response.register((CompletionCallback) error ->
                    COMPLETIONS.computeIfAbsent(i, k -> new AtomicInteger()).incrementAndGet());
        }
    }

    private final AtomicLong clock = new AtomicLong();
    private FlecheHttpServer server;

    @BeforeEach
    void clear() {
        COMPLETIONS.clear();
        held = new CompletableFuture<>();
    }

    @AfterEach
    void stop() throws InterruptedException {
        if (server != null) {
            server.stop(Duration.ofSeconds(1));
        }
    }

    @AfterAll
    static void shutdown() {
        RESUMERS.shutdownNow();
    }

    /** Starts a server on the test's clock ({@code heldClock}) or the real one. */
    private void start(boolean heldClock) {
        ServerOptions.Builder options = ServerOptions.builder().address(new InetSocketAddress("127.0.0.1", 0));
        if (heldClock) {
            options.nanoClock(clock::get);
        }
        server = FlecheHttpServerFactory.createServer(URI.create("http://127.0.0.1:0/"),
                new ResourceConfig(Resource.class).property(ServerProperties.WADL_FEATURE_DISABLE, true),
                options.build());
    }

    private AsyncResponse awaitHeld() throws Exception {
        AsyncResponse response = held.get(10, TimeUnit.SECONDS);
        Await.until("the suspend timer armed", () -> server.container().armedTimers() == 1);
        return response;
    }

    private void assertNothingElseSent(RawHttp client) throws Exception {
        assertEquals("marker", client.get("/race/marker").read().body(), "no extra response before the marker's");
        assertEquals(1, COMPLETIONS.get(0).get(), "completion callbacks ran once");
        Await.until("no timer left", () -> server.container().armedTimers() == 0);
    }

    @Test
    void resumeWinsThenTheTimeoutChangesNothing() throws Exception {
        start(true);
        try (RawHttp client = new RawHttp(server.port())) {
            client.get("/race/held");
            AsyncResponse response = awaitHeld();
            assertTrue(response.resume("resumed"));
            assertEquals("resumed", client.read().body());
            Await.until("resuming cancelled the timer", () -> server.container().armedTimers() == 0);

            clock.addAndGet(Duration.ofSeconds(2).toNanos()); // past the deadline: a timer still armed would fire
            assertFalse(response.isSuspended());
            assertNothingElseSent(client);
        }
    }

    @Test
    void timeoutWinsThenTheResumeChangesNothing() throws Exception {
        start(true);
        try (RawHttp client = new RawHttp(server.port())) {
            client.get("/race/held");
            AsyncResponse response = awaitHeld();
            clock.addAndGet(Duration.ofSeconds(2).toNanos());
            assertEquals(503, client.read().status(), "the timeout answered");
            Await.until("the timeout completed the request", response::isDone);

            assertFalse(response.resume("too late"), "a timed-out response does not resume");
            assertNothingElseSent(client);
        }
    }

    @Test
    void racingOnTheRealClockStillGivesOneResponseEach() throws Exception {
        start(false);
        int resumed = 0;
        int timedOut = 0;
        try (RawHttp client = new RawHttp(server.port())) {
            for (int i = 0; i < ITERATIONS; i++) {
                RawHttp.Response response = client.get("/race?i=" + i).read();
                if (response.status() == 200) {
                    assertEquals("resumed " + i, response.body(), "the answer to request " + i);
                    resumed++;
                } else if (response.status() == 503) {
                    timedOut++;
                } else {
                    fail("request " + i + ": " + response);
                }
            }
            RawHttp.Response marker = client.get("/race/marker").read();
            assertEquals("marker", marker.body(), "no extra response was queued before the marker's");
        }
        assertEquals(ITERATIONS, resumed + timedOut);
        Await.until("every request completed", () -> COMPLETIONS.size() == ITERATIONS);
        long doubles = COMPLETIONS.values().stream().filter(count -> count.get() == 2).count();
        COMPLETIONS.forEach((i, count) -> assertTrue(count.get() <= 2, "request " + i + " completions: " + count));
        Await.until("no timer left", () -> server.container().armedTimers() == 0);
        System.out.println("resume/timeout race: " + resumed + " resumed, " + timedOut + " timed out, "
                + doubles + " processed twice by Jersey (one response sent)");
    }
}
