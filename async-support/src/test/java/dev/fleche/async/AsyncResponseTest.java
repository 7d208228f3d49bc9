package dev.fleche.async;

import jakarta.ws.rs.GET;
import jakarta.ws.rs.NotFoundException;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.container.AsyncResponse;
import jakarta.ws.rs.container.CompletionCallback;
import jakarta.ws.rs.container.Suspended;
import jakarta.ws.rs.core.HttpHeaders;
import jakarta.ws.rs.core.Response;
import org.glassfish.jersey.server.ResourceConfig;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.util.Date;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@code @Suspended AsyncResponse} on Fleche: resume with a value or an exception from another thread, cancel,
 * timeouts (default 503, handler, re-armed any number of times, cancelled on resume), state flags and completion
 * callbacks. After each, no suspend timer is left armed.
 */
class AsyncResponseTest extends AsyncJerseyTest {
    static final ExecutorService ELSEWHERE = Executors.newCachedThreadPool(task -> {
        Thread thread = new Thread(task, "elsewhere");
        thread.setDaemon(true);
        return thread;
    });
    /** The suspended responses, in arrival order. */
    static final List<AsyncResponse> SUSPENDED = new CopyOnWriteArrayList<>();
    /** What completion callbacks received: "ok" or the throwable's class name. */
    static final List<String> COMPLETED = new CopyOnWriteArrayList<>();
    static volatile CountDownLatch suspendedLatch = new CountDownLatch(1);

    @Path("async")
    public static class Resource {
        private static void park(AsyncResponse response) {
            response.register((CompletionCallback) error -> COMPLETED.add(error == null ? "ok"
                    : error.getClass().getSimpleName()));
            SUSPENDED.add(response);
            suspendedLatch.countDown();
        }

        @GET
        @Path("park")
        public void park(@Suspended AsyncResponse response, @QueryParam("timeoutMs") long timeoutMs) {
            if (timeoutMs > 0) {
                response.setTimeout(timeoutMs, TimeUnit.MILLISECONDS);
            }
            park(response);
        }

        @GET
        @Path("value")
        public void value(@Suspended AsyncResponse response) {
            ELSEWHERE.execute(() -> response.resume("value from " + Thread.currentThread().getName()));
        }

        @GET
        @Path("mapped-error")
        public void mappedError(@Suspended AsyncResponse response) {
            park(response);
            ELSEWHERE.execute(() -> response.resume(new NotFoundException("no such thing")));
        }

        @GET
        @Path("unmapped-error")
        public void unmappedError(@Suspended AsyncResponse response) {
            park(response);
            ELSEWHERE.execute(() -> response.resume(new IllegalStateException("broken")));
        }

        @GET
        @Path("timeout-handler")
        public void timeoutHandler(@Suspended AsyncResponse response) {
            AtomicInteger fired = new AtomicInteger();
            response.setTimeoutHandler(r -> {
                if (fired.incrementAndGet() < 3) {
                    r.setTimeout(20, TimeUnit.MILLISECONDS); // re-armed from the handler: fires again
                } else {
                    r.resume("handled after " + fired.get() + " expiries");
                }
            });
            response.setTimeout(20, TimeUnit.MILLISECONDS);
        }

        @GET
        @Path("rearm")
        public void rearm(@Suspended AsyncResponse response) {
            response.setTimeout(60, TimeUnit.SECONDS);
            response.setTimeout(30, TimeUnit.SECONDS);
            response.setTimeout(10, TimeUnit.SECONDS);
            response.setTimeout(30, TimeUnit.MILLISECONDS);
        }
    }

    @Override
    protected ResourceConfig application() {
        return new ResourceConfig(Resource.class);
    }

    @BeforeEach
    void clear() {
        SUSPENDED.clear();
        COMPLETED.clear();
        suspendedLatch = new CountDownLatch(1);
    }

    @AfterAll
    static void shutdown() {
        ELSEWHERE.shutdownNow();
    }

    private AsyncResponse awaitSuspended() throws InterruptedException {
        assertTrue(suspendedLatch.await(10, TimeUnit.SECONDS), "the request was suspended");
        return SUSPENDED.get(0);
    }

    private void assertNoTimerLeft() {
        Await.until("no suspend timer armed", () -> container().armedTimers() == 0);
    }

    @Test
    void resumeWithAValueFromAnotherThread() {
        assertEquals("value from elsewhere", target("async/value").request().get(String.class));
        assertNoTimerLeft();
    }

    @Test
    void resumeWithAMappedException() throws Exception {
        Response response = target("async/mapped-error").request().get();
        assertEquals(404, response.getStatus());
        Await.until("completion callback", () -> COMPLETED.size() == 1);
        assertEquals(List.of("ok"), COMPLETED, "a mapped exception completes normally");
    }

    @Test
    void resumeWithAnUnmappedException() {
        assertEquals(500, target("async/unmapped-error").request().get().getStatus());
        Await.until("completion callback", () -> COMPLETED.size() == 1);
        assertEquals(List.of("IllegalStateException"), COMPLETED);
    }

    @Test
    void stateFlagsAndResumeOnce() throws Exception {
        Future<String> pending = target("async/park").queryParam("timeoutMs", 60_000).request().async()
                .get(String.class);
        AsyncResponse response = awaitSuspended();
        assertTrue(response.isSuspended());
        assertFalse(response.isDone());
        assertFalse(response.isCancelled());
        Await.until("the 60 s timer is armed while suspended", () -> container().armedTimers() == 1);

        assertTrue(response.resume("first"));
        assertFalse(response.resume("second"), "a response resumes once");
        assertEquals("first", pending.get(10, TimeUnit.SECONDS));
        assertFalse(response.isSuspended());
        Await.until("isDone", response::isDone);
        assertFalse(response.isCancelled());
        assertEquals(List.of("ok"), COMPLETED);
        Await.until("resuming cancelled the timer", () -> container().armedTimers() == 0);
        assertFalse(response.setTimeout(1, TimeUnit.SECONDS), "no timeout once done");
    }

    @Test
    void cancelAnswers503() throws Exception {
        Future<Response> pending = target("async/park").request().async().get();
        AsyncResponse response = awaitSuspended();
        assertTrue(response.cancel());
        assertTrue(response.isCancelled());
        assertTrue(response.cancel(), "cancelling again reports it is cancelled");
        Response answer = pending.get(10, TimeUnit.SECONDS);
        assertEquals(503, answer.getStatus());
        assertNull(answer.getHeaderString(HttpHeaders.RETRY_AFTER));
        assertNoTimerLeft();
    }

    @Test
    void cancelWithRetryAfterSeconds() throws Exception {
        Future<Response> pending = target("async/park").queryParam("timeoutMs", 60_000).request().async().get();
        assertTrue(awaitSuspended().cancel(7));
        Response answer = pending.get(10, TimeUnit.SECONDS);
        assertEquals(503, answer.getStatus());
        assertEquals("7", answer.getHeaderString(HttpHeaders.RETRY_AFTER));
        assertNoTimerLeft();
    }

    @Test
    void cancelWithRetryAfterDate() throws Exception {
        Future<Response> pending = target("async/park").request().async().get();
        assertTrue(awaitSuspended().cancel(new Date(1_900_000_000_000L)));
        Response answer = pending.get(10, TimeUnit.SECONDS);
        assertEquals(503, answer.getStatus());
        assertEquals("Sun, 17 Mar 2030 17:46:40 GMT", answer.getHeaderString(HttpHeaders.RETRY_AFTER));
    }

    @Test
    void defaultTimeoutAnswers503() {
        Response response = target("async/park").queryParam("timeoutMs", 30).request().get();
        assertEquals(503, response.getStatus());
        Await.until("completion callback", () -> COMPLETED.size() == 1);
        assertEquals(List.of("ok"), COMPLETED);
        assertNoTimerLeft();
    }

    @Test
    void timeoutHandlerMayReArmAndThenResume() {
        assertEquals("handled after 3 expiries", target("async/timeout-handler").request().get(String.class));
        assertNoTimerLeft();
    }

    @Test
    void setTimeoutAnyNumberOfTimesKeepsOneTimer() {
        long start = System.nanoTime();
        assertEquals(503, target("async/rearm").request().get().getStatus());
        assertTrue(System.nanoTime() - start < TimeUnit.SECONDS.toNanos(5), "the last timeout (30 ms) applied");
        assertNoTimerLeft();
    }

    @Test
    void setTimeoutFromAnotherThreadWhileSuspended() throws Exception {
        Future<Response> pending = target("async/park").queryParam("timeoutMs", 60_000).request().async().get();
        AsyncResponse response = awaitSuspended();
        CompletableFuture<Boolean> set = CompletableFuture.supplyAsync(
                () -> response.setTimeout(20, TimeUnit.MILLISECONDS), ELSEWHERE);
        assertTrue(set.get(10, TimeUnit.SECONDS));
        assertEquals(503, pending.get(10, TimeUnit.SECONDS).getStatus());
        Await.until("completion callback", () -> COMPLETED.size() == 1);
        assertEquals(List.of("ok"), COMPLETED, "the timeout's 503 completes the request normally, once");
        assertTrue(response.isDone());
        assertFalse(response.isCancelled());
        assertFalse(response.resume("too late"), "a timed-out response does not resume");
        assertNoTimerLeft();
    }
}
