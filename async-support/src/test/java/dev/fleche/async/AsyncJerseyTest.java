package dev.fleche.async;

import dev.fleche.jersey.FlecheContainer;
import dev.fleche.jersey.test.FlecheTestContainerFactory;
import jakarta.ws.rs.core.Application;
import org.glassfish.jersey.server.ResourceConfig;
import org.glassfish.jersey.server.ServerProperties;
import org.glassfish.jersey.server.spi.AbstractContainerLifecycleListener;
import org.glassfish.jersey.server.spi.Container;
import org.glassfish.jersey.test.DeploymentContext;
import org.glassfish.jersey.test.JerseyTest;
import org.glassfish.jersey.test.TestProperties;
import org.glassfish.jersey.client.ClientConfig;
import org.glassfish.jersey.client.ClientProperties;
import org.glassfish.jersey.test.spi.TestContainerFactory;

import java.util.concurrent.atomic.AtomicReference;

import static org.junit.jupiter.api.Assertions.assertNotNull;

/**
 * Base of this module's JerseyTests: Fleche's test container on a free port, no WADL, and the
 * {@link FlecheContainer} at hand (its armed timer count proves that no timer leaks).
 */
abstract class AsyncJerseyTest extends JerseyTest {
    private final AtomicReference<Container> container = new AtomicReference<>();

    @Override
    protected final DeploymentContext configureDeployment() {
        forceSet(TestProperties.CONTAINER_PORT, "0");
        ResourceConfig config = application();
        config.property(ServerProperties.WADL_FEATURE_DISABLE, true);
        config.register(new AbstractContainerLifecycleListener() {
            @Override
            public void onStartup(Container started) {
                container.set(started);
            }
        });
        return DeploymentContext.builder(config).build();
    }

    @Override
    protected final Application configure() {
        throw new UnsupportedOperationException("configureDeployment() is used");
    }

    /** The application under test. */
    protected abstract ResourceConfig application();

    /** The test client gives up instead of hanging: 10 s to connect, 30 s for a response. */
    @Override
    protected void configureClient(ClientConfig config) {
        config.property(ClientProperties.CONNECT_TIMEOUT, 10_000);
        config.property(ClientProperties.READ_TIMEOUT, 30_000);
    }

    @Override
    protected final TestContainerFactory getTestContainerFactory() {
        return new FlecheTestContainerFactory();
    }

    /** The running container. */
    protected final FlecheContainer container() {
        Container started = container.get();
        assertNotNull(started, "onStartup was called");
        return (FlecheContainer) started;
    }

    /** The bound port. */
    protected final int port() {
        return getBaseUri().getPort();
    }
}
