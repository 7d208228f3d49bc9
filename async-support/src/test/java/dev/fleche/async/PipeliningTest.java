package dev.fleche.async;

import dev.fleche.transport.testing.RawHttp;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.container.AsyncResponse;
import jakarta.ws.rs.container.Suspended;
import org.glassfish.jersey.server.ResourceConfig;
import org.junit.jupiter.api.Test;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Requests pipelined behind a suspended one wait: they are not even dispatched until the suspended one is
 * answered, and the responses leave in request order.
 */
class PipeliningTest extends AsyncJerseyTest {
    static volatile CompletableFuture<AsyncResponse> held = new CompletableFuture<>();
    static volatile CountDownLatch quickCalled = new CountDownLatch(1);

    @Path("pipe")
    public static class Resource {
        @GET
        @Path("held")
        public void held(@Suspended AsyncResponse response) {
            held.complete(response);
        }

        @GET
        @Path("quick")
        public String quick() {
            quickCalled.countDown();
            return "quick";
        }
    }

    @Override
    protected ResourceConfig application() {
        return new ResourceConfig(Resource.class);
    }

    @Test
    void pipelinedRequestsWaitBehindASuspendedOne() throws Exception {
        held = new CompletableFuture<>();
        quickCalled = new CountDownLatch(1);
        try (RawHttp client = new RawHttp(port())) {
            client.send("GET /pipe/held HTTP/1.1\r\nHost: test\r\n\r\n"
                    + "GET /pipe/quick HTTP/1.1\r\nHost: test\r\n\r\n"
                    + "GET /pipe/quick HTTP/1.1\r\nHost: test\r\n\r\n");
            AsyncResponse response = held.get(10, TimeUnit.SECONDS);
            assertFalse(quickCalled.await(300, TimeUnit.MILLISECONDS), "the next request was not dispatched");
            assertEquals(0, client.available(), "nothing was answered out of order");

            assertTrue(response.resume("held"));
            assertEquals("held", client.read().body());
            assertEquals("quick", client.read().body());
            assertEquals("quick", client.read().body());
            assertEquals(0, quickCalled.getCount());
        }
    }
}
