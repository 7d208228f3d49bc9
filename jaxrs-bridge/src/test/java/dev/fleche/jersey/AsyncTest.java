package dev.fleche.jersey;

import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.container.AsyncResponse;
import jakarta.ws.rs.container.Suspended;
import jakarta.ws.rs.core.Application;
import jakarta.ws.rs.core.Response;
import org.glassfish.jersey.server.ManagedAsync;
import org.glassfish.jersey.server.ResourceConfig;
import org.glassfish.jersey.server.spi.Container;
import org.glassfish.jersey.server.spi.AbstractContainerLifecycleListener;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** AsyncResponse, CompletionStage and @ManagedAsync; suspend timeouts and their cancellation. */
class AsyncTest extends FlecheJerseyTest {
    static final ScheduledExecutorService ELSEWHERE = Executors.newSingleThreadScheduledExecutor(task -> {
        Thread thread = new Thread(task, "elsewhere");
        thread.setDaemon(true);
        return thread;
    });
    static final AtomicReference<Container> CONTAINER = new AtomicReference<>();
    static volatile CountDownLatch release = new CountDownLatch(1);
    static volatile CountDownLatch suspended = new CountDownLatch(1);

    @Path("async")
    public static class Async {
        @GET
        @Path("resume")
        public void resume(@Suspended AsyncResponse response, @QueryParam("ms") long delay) {
            ELSEWHERE.schedule(() -> response.resume("resumed on " + Thread.currentThread().getName()), delay,
                    TimeUnit.MILLISECONDS);
        }

        @GET
        @Path("timeout")
        public void timeout(@Suspended AsyncResponse response) {
            response.setTimeout(100, TimeUnit.MILLISECONDS);
        }

        @GET
        @Path("timeout-handler")
        public void timeoutHandler(@Suspended AsyncResponse response) {
            response.setTimeoutHandler(r -> r.resume(Response.ok("handled on "
                    + (Thread.currentThread().getName().startsWith("fleche-reactor") ? "reactor" : "worker")).build()));
            response.setTimeout(100, TimeUnit.MILLISECONDS);
        }

        @GET
        @Path("rearm")
        public void rearm(@Suspended AsyncResponse response) {
            response.setTimeout(60, TimeUnit.SECONDS);
            response.setTimeout(100, TimeUnit.MILLISECONDS);
        }

        @GET
        @Path("held")
        public void held(@Suspended AsyncResponse response) {
            response.setTimeout(60, TimeUnit.SECONDS);
            CountDownLatch gate = release;
            suspended.countDown();
            ELSEWHERE.execute(() -> {
                try {
                    gate.await(10, TimeUnit.SECONDS);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
                response.resume("released");
            });
        }

        @GET
        @Path("stage")
        public CompletionStage<String> stage() {
            CompletableFuture<String> result = new CompletableFuture<>();
            ELSEWHERE.schedule(() -> result.complete("stage done"), 20, TimeUnit.MILLISECONDS);
            return result;
        }

        @GET
        @Path("managed")
        @ManagedAsync
        public void managed(@Suspended AsyncResponse response) {
            response.resume("managed");
        }
    }

    public static class Capture extends AbstractContainerLifecycleListener {
        @Override
        public void onStartup(Container container) {
            CONTAINER.set(container);
        }
    }

    @AfterAll
    static void shutdown() {
        ELSEWHERE.shutdownNow();
    }

    @Override
    protected Application configure() {
        return new ResourceConfig(Async.class, Capture.class);
    }

    /** Waits (up to 10 s) until the container's armed timers are {@code expected}: arming and cancelling from a
     * worker thread reach the reactor's timer as queued tasks. */
    private void awaitArmedTimers(int expected, String what) {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (container().armedTimers() != expected) {
            if (System.nanoTime() - deadline > 0) {
                assertEquals(expected, container().armedTimers(), what);
            }
            java.util.concurrent.locks.LockSupport.parkNanos(200_000); // polls a counter: no event to await
        }
    }

    private FlecheContainer container() {
        Container container = CONTAINER.get();
        assertNotNull(container, "onStartup was called");
        return (FlecheContainer) container;
    }

    @Test
    void resumeFromAnotherThread() {
        assertEquals("resumed on elsewhere", target("async/resume").queryParam("ms", 30).request().get(String.class));
        assertEquals("resumed on elsewhere", target("async/resume").queryParam("ms", 0).request().get(String.class));
    }

    @Test
    void timeoutAnswers503() {
        Response response = target("async/timeout").request().get();
        assertEquals(503, response.getStatus());
        awaitArmedTimers(0, "the expired timer released its slot");
    }

    @Test
    void timeoutHandlerRunsOnAWorker() {
        assertEquals("handled on worker", target("async/timeout-handler").request().get(String.class));
    }

    @Test
    void setTimeoutReArmsTheTimer() {
        assertEquals(503, target("async/rearm").request().get().getStatus());
        awaitArmedTimers(0, "the 60 s timer was cancelled when re-armed");
    }

    @Test
    void resumeCancelsTheTimer() throws Exception {
        release = new CountDownLatch(1);
        suspended = new CountDownLatch(1);
        Future<String> pending = target("async/held").request().async().get(String.class);
        assertTrue(suspended.await(10, TimeUnit.SECONDS));
        awaitArmedTimers(1, "the 60 s timer is armed while suspended");
        release.countDown();
        assertEquals("released", pending.get(10, TimeUnit.SECONDS));
        awaitArmedTimers(0, "resuming cancelled the timer");
    }

    @Test
    void completionStage() {
        assertEquals("stage done", target("async/stage").request().get(String.class));
    }

    @Test
    void managedAsync() {
        assertEquals("managed", target("async/managed").request().get(String.class));
        awaitArmedTimers(0, "no timer left");
    }
}
