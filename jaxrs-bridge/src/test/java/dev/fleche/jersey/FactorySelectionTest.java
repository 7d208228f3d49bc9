package dev.fleche.jersey;

import dev.fleche.jersey.test.FlecheTestContainerFactory;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.core.Application;
import org.glassfish.jersey.client.ClientConfig;
import org.glassfish.jersey.client.ClientProperties;
import org.glassfish.jersey.internal.ServiceFinder;
import org.glassfish.jersey.server.ResourceConfig;
import org.glassfish.jersey.test.JerseyTest;
import org.glassfish.jersey.test.TestProperties;
import org.glassfish.jersey.test.spi.TestContainerFactory;
import org.junit.jupiter.api.Test;

import java.util.Arrays;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A plain {@link JerseyTest} (no override) runs on Fleche: selected by the {@code jersey.config.test.container.factory}
 * system property the build sets, and registered in META-INF/services as well.
 */
class FactorySelectionTest extends JerseyTest {

    @Path("where")
    public static class Where {
        @GET
        public String get() {
            return Thread.currentThread().getName();
        }
    }

    @Override
    protected void configureClient(ClientConfig config) {
        config.property(ClientProperties.CONNECT_TIMEOUT, 10_000);
        config.property(ClientProperties.READ_TIMEOUT, 30_000);
    }

    @Override
    protected Application configure() {
        return new ResourceConfig(Where.class);
    }

    @Test
    void theFlecheFactoryIsSelected() {
        assertEquals(FlecheTestContainerFactory.class.getName(), System.getProperty(TestProperties.CONTAINER_FACTORY));
        assertInstanceOf(FlecheTestContainerFactory.class, getTestContainerFactory());
        assertTrue(Arrays.stream(ServiceFinder.find(TestContainerFactory.class).toArray())
                .anyMatch(FlecheTestContainerFactory.class::isInstance), "registered as a service");
    }

    @Test
    void portZeroGivesTheBoundPort() {
        assertNotEquals(0, getBaseUri().getPort());
        assertNotEquals(TestProperties.DEFAULT_CONTAINER_PORT, getBaseUri().getPort());
        assertEquals(getBaseUri().getPort(), getPort());
        String thread = target("where").request().get(String.class);
        assertTrue(!thread.startsWith("grizzly"), thread);
    }
}
