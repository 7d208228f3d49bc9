package dev.fleche.jersey;

import dev.fleche.jersey.test.FlecheTestContainerFactory;
import dev.fleche.transport.testing.TestCertificates;
import dev.fleche.transport.testing.TestCertificates.ServerKey;
import jakarta.ws.rs.client.Client;
import jakarta.ws.rs.client.ClientBuilder;
import org.glassfish.jersey.server.ResourceConfig;
import org.glassfish.jersey.server.ServerProperties;
import org.glassfish.jersey.test.DeploymentContext;
import org.glassfish.jersey.test.JerseyTest;
import org.glassfish.jersey.test.TestProperties;
import org.glassfish.jersey.test.spi.TestContainerFactory;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * {@code JerseyTest} over HTTPS: a deployment context carrying an SSL context makes {@link FlecheTestContainerFactory}
 * serve HTTPS on a free port, and the base URI is {@code https}; the test's client trusts the test certificate.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class HttpsJerseyTest extends JerseyTest {

    @Override
    protected DeploymentContext configureDeployment() {
        forceSet(TestProperties.CONTAINER_PORT, "0");
        ResourceConfig app = new ResourceConfig(HttpsTest.WhoAmI.class)
                .property(ServerProperties.WADL_FEATURE_DISABLE, true);
        return DeploymentContext.builder(app)
                .ssl(TestCertificates.get().serverContext(ServerKey.EC_P256), new javax.net.ssl.SSLParameters())
                .build();
    }

    @Override
    protected TestContainerFactory getTestContainerFactory() {
        return new FlecheTestContainerFactory();
    }

    @Override
    protected Client getClient() {
        return ClientBuilder.newBuilder().sslContext(TestCertificates.get().clientContext()).build();
    }

    @Test
    void servesHttpsOnAFreePort() {
        assertEquals("https", getBaseUri().getScheme());
        assertEquals("https", target().getUri().getScheme());
        assertEquals("scheme=https requestScheme=https secure=true certs=none",
                target("whoami").request().get(String.class));
    }
}
