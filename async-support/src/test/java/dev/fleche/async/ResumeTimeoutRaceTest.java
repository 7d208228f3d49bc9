package dev.fleche.async;

import dev.fleche.transport.testing.RawHttp;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.container.AsyncResponse;
import jakarta.ws.rs.container.CompletionCallback;
import jakarta.ws.rs.container.Suspended;
import org.glassfish.jersey.server.ResourceConfig;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;

import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.LockSupport;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

/**
 * A resume racing the suspend timeout, 1,000 times on one keep-alive connection: each request gets exactly one
 * response — the resumed value or the timeout's 503 — never two (a second response would be read as the answer
 * to the next request, and the final marker request would not get its own), every request completes, and no
 * timer is left.
 *
 * <p>Jersey's {@code AsyncResponder.resume} checks and sets its state in two steps (read lock, then write lock),
 * so now and then both the resume and the timeout's {@code 503} are processed by Jersey, and its completion
 * callbacks run twice for that request (3.1 and 4.0 alike). The container sends exactly one of the two: the one
 * that starts writing first. The test counts such doubles instead of failing on them.
 */
class ResumeTimeoutRaceTest extends AsyncJerseyTest {
    static final int ITERATIONS = 1_000;
    static final ExecutorService RESUMERS = Executors.newFixedThreadPool(2, task -> {
        Thread thread = new Thread(task, "resumer");
        thread.setDaemon(true);
        return thread;
    });
    static final ConcurrentHashMap<Integer, AtomicInteger> COMPLETIONS = new ConcurrentHashMap<>();

    @Path("race")
    public static class Resource {
        @GET
        public void race(@Suspended AsyncResponse response, @QueryParam("i") int i) {
            response.register((CompletionCallback) error ->
                    COMPLETIONS.computeIfAbsent(i, k -> new AtomicInteger()).incrementAndGet());
            response.setTimeout(1, TimeUnit.MILLISECONDS); // the reactor's timer: fires within ~1-2 ms
            long delay = ThreadLocalRandom.current().nextLong(2_500_000L);
            RESUMERS.execute(() -> {
                LockSupport.parkNanos(delay); // spreads the resume over the timer's window: not a synchronisation
                response.resume("resumed " + i);
            });
        }

        @GET
        @Path("marker")
        public String marker() {
            return "marker";
        }
    }

    @Override
    protected ResourceConfig application() {
        return new ResourceConfig(Resource.class);
    }

    @AfterAll
    static void shutdown() {
        RESUMERS.shutdownNow();
    }

    @Test
    void exactlyOneResponseEach() throws Exception {
        int resumed = 0;
        int timedOut = 0;
        try (RawHttp client = new RawHttp(port())) {
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
        Await.until("no timer left", () -> container().armedTimers() == 0);
        System.out.println("resume/timeout race: " + resumed + " resumed, " + timedOut + " timed out, "
                + doubles + " processed twice by Jersey (one response sent)");
        assertTrue(resumed > 0 && timedOut > 0, "both sides won sometimes: " + resumed + "/" + timedOut);
    }
}
