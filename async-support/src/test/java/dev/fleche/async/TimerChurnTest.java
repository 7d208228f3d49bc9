package dev.fleche.async;

import dev.fleche.jersey.ClientConnection;
import dev.fleche.jersey.FlecheHttpServer;
import dev.fleche.jersey.FlecheHttpServerFactory;
import dev.fleche.jersey.FlecheProperties;
import dev.fleche.transport.HttpExchange;
import dev.fleche.transport.HttpFields;
import dev.fleche.transport.HttpServer;
import dev.fleche.transport.ServerOptions;
import dev.fleche.transport.Timeout;
import dev.fleche.transport.testing.RawHttp;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.container.ContainerRequestContext;
import jakarta.ws.rs.core.Context;
import org.glassfish.jersey.server.ResourceConfig;
import org.glassfish.jersey.server.ServerProperties;
import org.junit.jupiter.api.Test;

import java.lang.management.ManagementFactory;
import java.lang.management.MemoryMXBean;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Millions of schedule + cancel cycles on the reactor timers, through the public APIs (the transport's
 * {@link HttpExchange#schedule} and the container's {@link ClientConnection#schedule}), from a worker thread:
 * afterwards no timer slot is held, and the heap after GC has not grown beyond a small bound. A timer that was
 * not released would cost ~100 bytes: 2,000,000 of them would be ~200 MB.
 */
class TimerChurnTest {
    static final int CYCLES = 2_000_000;
    static final int BATCH = 20_000;
    static final long HEAP_BOUND = 16L * 1024 * 1024;

    /** A cycle: arm a one-minute timer and cancel it. */
    interface Timers {
        Timeout schedule(Runnable task, long delay, TimeUnit unit);
    }

    /**
     * Runs {@code cycles} schedule + cancel cycles, waiting for the reactor to catch up after each batch. Each timer
     * is due 1 ms after it is armed, so a cancel that did not take would let it run within the test: a timer whose
     * cancel reported success must never run (counted, since it would run on the reactor thread, where a thrown
     * error could not reach the test). A timer that ran before its cancel arrived is allowed, and its cancel must
     * then report failure.
     *
     * @return how many timers ran before their cancel (normally none)
     */
    static int cycle(Timers timers, int cycles) throws InterruptedException {
        AtomicInteger ranAfterCancel = new AtomicInteger();
        AtomicInteger ranBeforeCancel = new AtomicInteger();
        for (int done = 0; done < cycles; done += BATCH) {
            for (int i = 0; i < BATCH; i++) {
                AtomicBoolean cancelled = new AtomicBoolean();
                Timeout timer = timers.schedule(() -> {
                    (cancelled.get() ? ranAfterCancel : ranBeforeCancel).incrementAndGet();
                }, 1, TimeUnit.MILLISECONDS);
                cancelled.set(timer.cancel());
            }
            // Due well after every timer of the batch: once it has run, any of them that was going to run has.
            CountDownLatch caughtUp = new CountDownLatch(1);
            timers.schedule(caughtUp::countDown, 20, TimeUnit.MILLISECONDS);
            assertTrue(caughtUp.await(10, TimeUnit.SECONDS), "the reactor caught up");
            assertEquals(0, ranAfterCancel.get(), "timers ran although their cancel reported success");
        }
        return ranBeforeCancel.get();
    }

    static long heapAfterGc() {
        MemoryMXBean memory = ManagementFactory.getMemoryMXBean();
        long used = Long.MAX_VALUE;
        for (int i = 0; i < 3; i++) {
            System.gc();
            used = Math.min(used, memory.getHeapMemoryUsage().getUsed());
        }
        return used;
    }

    @Path("churn")
    public static class Resource {
        @GET
        public String churn(@Context ContainerRequestContext request, @QueryParam("cycles") int cycles)
                throws InterruptedException {
            ClientConnection connection = (ClientConnection) request.getProperty(FlecheProperties.CONNECTION);
            cycle(connection::schedule, cycles);
            return "churned " + cycles;
        }
    }

    @Test
    void clientConnectionTimers() throws Exception {
        FlecheHttpServer server = FlecheHttpServerFactory.createServer(URI.create("http://127.0.0.1:0/"),
                new ResourceConfig(Resource.class).property(ServerProperties.WADL_FEATURE_DISABLE, true));
        try (RawHttp client = new RawHttp(server.port())) {
            assertEquals(200, client.get("/churn?cycles=" + 4 * BATCH).read().status()); // warm-up
            long before = heapAfterGc();
            RawHttp.Response response = client.get("/churn?cycles=" + CYCLES).read();
            assertEquals("churned " + CYCLES, response.body());
            long growth = heapAfterGc() - before;
            assertTrue(growth < HEAP_BOUND, "heap grew by " + growth + " bytes");
            Await.until("no reactor timer slot held", () -> server.transport().scheduledTasks() == 0);
            assertEquals(0, server.container().armedTimers(), "the container counts the same slots");
        } finally {
            server.stop(Duration.ofSeconds(1));
        }
    }

    @Test
    void exchangeTimers() throws Exception {
        ServerOptions options = ServerOptions.builder().address(new InetSocketAddress("127.0.0.1", 0)).build();
        HttpServer server = HttpServer.create(options, exchange -> {
            int cycles = Integer.parseInt(exchange.query().substring("cycles=".length()));
            Thread worker = new Thread(() -> {
                try {
                    cycle(exchange::schedule, cycles);
                    exchange.respond(200, new HttpFields(), ("churned " + cycles).getBytes(StandardCharsets.UTF_8));
                } catch (InterruptedException | RuntimeException | AssertionError e) {
                    exchange.respond(500, new HttpFields(), e.toString().getBytes(StandardCharsets.UTF_8));
                }
            }, "churn");
            worker.start();
        }).start();
        try (RawHttp client = new RawHttp(server.port())) {
            assertEquals(200, client.get("/?cycles=" + 4 * BATCH).read().status());
            long before = heapAfterGc();
            assertEquals("churned " + CYCLES, client.get("/?cycles=" + CYCLES).read().body());
            long growth = heapAfterGc() - before;
            assertTrue(growth < HEAP_BOUND, "heap grew by " + growth + " bytes");
            Await.until("no reactor timer slot held", () -> server.scheduledTasks() == 0);
        } finally {
            server.stop(Duration.ofSeconds(1));
        }
    }
}
