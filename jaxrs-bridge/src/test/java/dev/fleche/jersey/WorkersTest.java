package dev.fleche.jersey;

import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.client.Client;
import jakarta.ws.rs.client.ClientBuilder;
import jakarta.ws.rs.core.Response;
import org.glassfish.jersey.CommonProperties;
import org.glassfish.jersey.server.ResourceConfig;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.net.URI;
import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Future;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/** The worker threads: saturation answers 503 with Retry-After; Jersey's thread properties are honoured. */
class WorkersTest {
    static volatile CountDownLatch entered;
    static volatile CountDownLatch release;

    private FlecheHttpServer server;
    private final Client client = ClientBuilder.newBuilder().connectTimeout(10, TimeUnit.SECONDS).readTimeout(30, TimeUnit.SECONDS).build();

    @Path("work")
    public static class Work {
        @GET
        @Path("block")
        public String block() throws InterruptedException {
            entered.countDown();
            return release.await(10, TimeUnit.SECONDS) ? "released" : "never released";
        }

        @GET
        @Path("thread")
        public String thread() {
            return Thread.currentThread().toString();
        }
    }

    @AfterEach
    void stop() throws InterruptedException {
        client.close();
        if (server != null) {
            server.stop(Duration.ofSeconds(1));
        }
    }

    private void start(ResourceConfig config) {
        server = FlecheHttpServerFactory.createServer(URI.create("http://127.0.0.1:0/"), config);
    }

    private String get(String path) {
        return client.target(server.baseUri()).path(path).request().get(String.class);
    }

    private void assertSaturationAnswers503() throws Exception {
        entered = new CountDownLatch(1);
        release = new CountDownLatch(1);
        Future<String> first = client.target(server.baseUri()).path("work/block").request().async().get(String.class);
        assertTrue(entered.await(10, TimeUnit.SECONDS));
        Response second = client.target(server.baseUri()).path("work/block").request().get();
        assertEquals(503, second.getStatus());
        assertEquals("7", second.getHeaderString("Retry-After"));
        release.countDown();
        assertEquals("released", first.get(10, TimeUnit.SECONDS));
        entered = new CountDownLatch(1);
        assertEquals("released", getOnceCapacityIsBack("work/block"),
                "capacity is back once the first request finished");
    }

    /**
     * The first request's response can reach the client before its worker thread is back in the pool (it still
     * finishes Jersey's processing); until then the container rightly answers 503. Retries for up to 5 s.
     */
    private String getOnceCapacityIsBack(String path) {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(5);
        while (true) {
            Response response = client.target(server.baseUri()).path(path).request().get();
            if (response.getStatus() != 503 || System.nanoTime() - deadline > 0) {
                return response.readEntity(String.class);
            }
            response.close();
            java.util.concurrent.locks.LockSupport.parkNanos(1_000_000);
        }
    }

    @Test
    void fullPoolAnswers503WithRetryAfter() throws Exception {
        start(new ResourceConfig(Work.class)
                .property(CommonProperties.USE_VIRTUAL_THREADS, false)
                .property(FlecheProperties.WORKER_THREADS, 1)
                .property(FlecheProperties.WORKER_QUEUE, 0)
                .property(FlecheProperties.RETRY_AFTER_SECONDS, 7));
        assertTrue(server.container().toString().contains("bounded pool of up to 1 threads"), server.container().toString());
        assertSaturationAnswers503();
    }

    @Test
    void defaultPoolQueuesAsManyRequestsAsVirtualThreadsRun() {
        start(new ResourceConfig(Work.class).property(CommonProperties.USE_VIRTUAL_THREADS, false));
        int threads = Math.max(16, 4 * Runtime.getRuntime().availableProcessors());
        assertTrue(server.container().toString().contains("bounded pool of up to " + threads + " threads (started when none is idle), queue 10000"),
                server.container().toString());
        assertTrue(get("work/thread").contains("fleche-worker-"));
    }

    @Test
    void concurrencyLimitOfVirtualThreadsAnswers503() throws Exception {
        assumeTrue(Runtime.version().feature() >= 21, "virtual threads need Java 21");
        start(new ResourceConfig(Work.class)
                .property(FlecheProperties.MAX_CONCURRENT_REQUESTS, "1")
                .property(FlecheProperties.RETRY_AFTER_SECONDS, "7"));
        assertTrue(server.container().toString().contains("virtual threads"), server.container().toString());
        assertSaturationAnswers503();
    }

    @Test
    void defaultIsVirtualThreadsWhenTheRuntimeHasThem() {
        start(new ResourceConfig(Work.class));
        String thread = get("work/thread");
        if (Runtime.version().feature() >= 21) {
            assertTrue(thread.startsWith("VirtualThread"), thread);
        } else {
            assertTrue(thread.contains("fleche-worker-"), thread);
        }
    }

    @Test
    void jerseyThreadFactoryMakesTheWorkers() {
        AtomicInteger made = new AtomicInteger();
        ThreadFactory factory = task -> new Thread(task, "custom-" + made.incrementAndGet());
        start(new ResourceConfig(Work.class).property(CommonProperties.THREAD_FACTORY, factory));
        assertTrue(get("work/thread").contains("custom-"));
        assertTrue(made.get() > 0);
    }

    @Test
    void userExecutorRunsRequests() {
        java.util.concurrent.ExecutorService executor = java.util.concurrent.Executors.newFixedThreadPool(1,
                task -> new Thread(task, "mine"));
        try {
            start(new ResourceConfig(Work.class).property(FlecheProperties.EXECUTOR, executor));
            assertTrue(get("work/thread").contains("mine"));
        } finally {
            executor.shutdownNow();
        }
    }
}
