package dev.fleche.jersey;

import dev.fleche.jersey.test.FlecheTestContainerFactory;
import jakarta.ws.rs.core.Application;
import org.glassfish.jersey.server.ResourceConfig;
import org.glassfish.jersey.server.ServerProperties;
import org.glassfish.jersey.test.DeploymentContext;
import org.glassfish.jersey.test.JerseyTest;
import org.glassfish.jersey.test.TestProperties;
import org.glassfish.jersey.client.ClientConfig;
import org.glassfish.jersey.client.ClientProperties;
import org.glassfish.jersey.test.spi.TestContainerFactory;

/**
 * Base of this module's JerseyTests: selects {@link FlecheTestContainerFactory} explicitly (whatever else is on
 * the class path or in system properties) and a free port; subclasses give the application and may give a
 * context path.
 */
abstract class FlecheJerseyTest extends JerseyTest {

    @Override
    protected final DeploymentContext configureDeployment() {
        forceSet(TestProperties.CONTAINER_PORT, "0");
        Application application = configure();
        if (application instanceof ResourceConfig) {
            ((ResourceConfig) application).property(ServerProperties.WADL_FEATURE_DISABLE, true);
        }
        return DeploymentContext.builder(application).contextPath(contextPath()).build();
    }

    @Override
    protected abstract Application configure();

    /** The context path (root path) to deploy under; none by default. */
    protected String contextPath() {
        return "";
    }

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
}
