package dev.fleche.jersey;

import dev.fleche.jersey.test.FlecheTestContainerFactory;
import dev.fleche.transport.testing.RawHttp;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import org.glassfish.jersey.server.ResourceConfig;
import org.glassfish.jersey.test.DeploymentContext;
import org.glassfish.jersey.test.spi.TestContainer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.net.URI;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The test container stops at once when no request is in flight, even with the test client's keep-alive connection
 * still open (a production stop gives such a connection a second for a request on its way; a JerseyTest method
 * should not pay that second, as it does not on Grizzly).
 */
@Timeout(30)
class TestContainerStopTest {

    @Path("ping")
    public static class Ping {
        @GET
        public String ping() {
            return "pong";
        }
    }

    @Test
    void stopsWithoutWaitingForAnIdleKeepAliveConnection() throws Exception {
        TestContainer container = new FlecheTestContainerFactory().create(URI.create("http://127.0.0.1:0/"),
                DeploymentContext.builder(new ResourceConfig(Ping.class)).build());
        container.start();
        try (RawHttp raw = new RawHttp(container.getBaseUri().getPort())) {
            raw.get("/ping");
            assertEquals("pong", raw.read().body()); // the connection stays open, idle
            long start = System.nanoTime();
            container.stop();
            long millis = (System.nanoTime() - start) / 1_000_000;
            assertTrue(millis < 800, "stopped in " + millis + " ms; a production stop waits 1,000 ms for it");
        }
    }
}
