package dev.fleche.jersey.test;

import dev.fleche.jersey.FlecheHttpServer;
import dev.fleche.jersey.FlecheHttpServerFactory;
import jakarta.ws.rs.core.UriBuilder;
import org.glassfish.jersey.client.ClientConfig;
import org.glassfish.jersey.test.DeploymentContext;
import org.glassfish.jersey.test.spi.TestContainer;
import org.glassfish.jersey.test.spi.TestContainerException;
import org.glassfish.jersey.test.spi.TestContainerFactory;

import java.io.IOException;
import java.net.URI;
import java.time.Duration;

/**
 * Runs {@code JerseyTest} on Fleche. {@code JerseyTest} takes the factory named by the system property
 * {@code jersey.config.test.container.factory}; without it, the only {@code TestContainerFactory} registered in
 * {@code META-INF/services}, or Grizzly's when there are several, or the first one found. To be sure, set the
 * property to {@code dev.fleche.jersey.test.FlecheTestContainerFactory} or override
 * {@code JerseyTest.getTestContainerFactory()}.
 *
 * <p>Port 0 ({@code jersey.config.test.container.port=0}) binds a free port, and {@code getBaseUri()} reports
 * the bound one. The deployment's context path becomes the root path. A deployment context carrying an SSL
 * context is refused: Fleche has no TLS yet. Transport settings can be passed with the application property
 * {@code fleche.jersey.serverOptions}.
 */
public final class FlecheTestContainerFactory implements TestContainerFactory {

    @Override
    public TestContainer create(URI baseUri, DeploymentContext context) {
        if (context.getSslContext().isPresent()) {
            throw new TestContainerException("the deployment asks for SSL, but the Fleche transport has no TLS yet");
        }
        return new FlecheTestContainer(baseUri, context);
    }

    private static final class FlecheTestContainer implements TestContainer {
        private final URI configured;
        private final FlecheHttpServer server;
        private volatile URI baseUri;

        FlecheTestContainer(URI baseUri, DeploymentContext context) {
            this.configured = UriBuilder.fromUri(baseUri).path(context.getContextPath()).build();
            this.baseUri = configured;
            this.server = FlecheHttpServerFactory.createServer(configured, context.getResourceConfig(), null, false);
        }

        @Override
        public ClientConfig getClientConfig() {
            return null;
        }

        @Override
        public URI getBaseUri() {
            return baseUri;
        }

        @Override
        public void start() {
            try {
                server.start();
            } catch (IOException e) {
                throw new TestContainerException("cannot start Fleche at " + configured, e);
            }
            baseUri = UriBuilder.fromUri(configured).port(server.port()).build();
        }

        @Override
        public void stop() {
            try {
                server.stop(Duration.ofSeconds(5));
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }
}
