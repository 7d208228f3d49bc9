package dev.fleche.jersey;

import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.client.Client;
import jakarta.ws.rs.client.ClientBuilder;
import org.glassfish.jersey.CommonProperties;
import org.glassfish.jersey.server.ManagedAsync;
import org.glassfish.jersey.server.ManagedAsyncExecutor;
import org.glassfish.jersey.server.ResourceConfig;
import org.glassfish.jersey.spi.ExecutorServiceProvider;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.net.URI;
import java.time.Duration;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Jersey's managed asynchronous executor ({@code @ManagedAsync}, {@code SseBroadcaster} sends): virtual threads when
 * the runtime has them, Jersey's own pool when the application turns them off, the application's own provider
 * whenever it brings one.
 */
class ManagedAsyncTest {
    private FlecheHttpServer server;
    private final Client client = ClientBuilder.newBuilder().connectTimeout(10, TimeUnit.SECONDS).readTimeout(30, TimeUnit.SECONDS).build();

    @Path("managed")
    public static class Resource {
        @GET
        @ManagedAsync
        public String thread() {
            return Thread.currentThread().toString();
        }
    }

    @ManagedAsyncExecutor
    public static class OwnExecutor implements ExecutorServiceProvider {
        @Override
        public ExecutorService getExecutorService() {
            return Executors.newSingleThreadExecutor(task -> new Thread(task, "own-managed-async"));
        }

        @Override
        public void dispose(ExecutorService executorService) {
            executorService.shutdown();
        }
    }

    @AfterEach
    void stop() throws InterruptedException {
        client.close();
        if (server != null) {
            server.stop(Duration.ofSeconds(1));
        }
    }

    private String threadOf(ResourceConfig config) {
        server = FlecheHttpServerFactory.createServer(URI.create("http://127.0.0.1:0/"), config);
        return client.target(server.baseUri()).path("managed").request().get(String.class);
    }

    @Test
    void virtualThreadsWhenTheRuntimeHasThem() {
        String thread = threadOf(new ResourceConfig(Resource.class));
        if (Runtime.version().feature() >= 21) {
            assertTrue(thread.startsWith("VirtualThread"), thread);
        } else {
            assertTrue(thread.contains("jersey-server-managed-async-executor"), thread);
        }
    }

    @Test
    void jerseysPoolWhenVirtualThreadsAreOff() {
        String thread = threadOf(new ResourceConfig(Resource.class)
                .property(CommonProperties.USE_VIRTUAL_THREADS, false));
        assertTrue(thread.contains("jersey-server-managed-async-executor"), thread);
    }

    @Test
    void theApplicationsOwnExecutorWins() {
        String thread = threadOf(new ResourceConfig(Resource.class, OwnExecutor.class));
        assertTrue(thread.contains("own-managed-async"), thread);
    }
}
