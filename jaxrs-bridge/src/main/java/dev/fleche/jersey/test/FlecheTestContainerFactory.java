package dev.fleche.jersey.test;

import dev.fleche.jersey.FlecheHttpServer;
import dev.fleche.jersey.FlecheHttpServerFactory;
import dev.fleche.jersey.internal.ServerAddress;
import dev.fleche.transport.ServerOptions;
import dev.fleche.transport.TlsOptions;
import jakarta.ws.rs.core.UriBuilder;
import org.glassfish.jersey.client.ClientConfig;
import org.glassfish.jersey.test.DeploymentContext;
import org.glassfish.jersey.test.spi.TestContainer;
import org.glassfish.jersey.test.spi.TestContainerException;
import org.glassfish.jersey.test.spi.TestContainerFactory;

import java.io.IOException;
import java.net.URI;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import javax.net.ssl.SSLContext;

/**
 * Runs {@code JerseyTest} on Fleche. {@code JerseyTest} takes the factory named by the system property
 * {@code jersey.config.test.container.factory}; without it, the only {@code TestContainerFactory} registered in
 * {@code META-INF/services}, or Grizzly's when there are several, or the first one found. To be sure, set the
 * property to {@code dev.fleche.jersey.test.FlecheTestContainerFactory} or override
 * {@code JerseyTest.getTestContainerFactory()}.
 *
 * <p>Port 0 ({@code jersey.config.test.container.port=0}) binds a free port, and {@code getBaseUri()} reports
 * the bound one. The deployment's context path becomes the root path. A deployment context carrying an SSL
 * context ({@code DeploymentContext.builder(app).sslContext(context)}) serves HTTPS with it, and the base URI's
 * scheme is {@code https}; the test's client must then trust the server's certificate (override
 * {@code JerseyTest.configureClient} and set its SSL context). Client authentication and other TLS settings can
 * come from {@code ServerOptions.tls} in the application property {@code fleche.jersey.serverOptions}, which also
 * passes any other transport setting.
 */
public final class FlecheTestContainerFactory implements TestContainerFactory {

    /** Called by JerseyTest (by service lookup, or by name from {@code jersey.config.test.container.factory}). */
    public FlecheTestContainerFactory() {
    }

    @Override
    public TestContainer create(URI baseUri, DeploymentContext context) {
        return new FlecheTestContainer(baseUri, context);
    }

    private static final class FlecheTestContainer implements TestContainer {
        private final URI configured;
        private final FlecheHttpServer server;
        private volatile URI baseUri;

        FlecheTestContainer(URI baseUri, DeploymentContext context) {
            SSLContext ssl = context.getSslContext().orElse(null);
            UriBuilder uri = UriBuilder.fromUri(baseUri).path(context.getContextPath());
            this.configured = (ssl == null ? uri : uri.scheme("https")).build();
            this.baseUri = configured;
            this.server = FlecheHttpServerFactory.createServer(configured, context.getResourceConfig(),
                    ssl == null ? null : httpsOptions(context, ssl), false);
        }

        /** The application's transport settings with TLS over {@code ssl}, keeping its own TLS settings if any. */
        private static ServerOptions httpsOptions(DeploymentContext context, SSLContext ssl) {
            ServerOptions options = ServerAddress.optionsFrom(null, context.getResourceConfig().getProperties());
            TlsOptions own = options.tls();
            TlsOptions.Builder tls = TlsOptions.builder(ssl);
            if (own != null) {
                tls.clientAuth(own.clientAuth()).protocols(own.protocols()).cipherSuites(own.cipherSuites())
                        .handshakeTimeout(own.handshakeTimeout());
            }
            return options.toBuilder().tls(tls.build()).build();
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

        /**
         * Stops at once once no request is in flight (up to {@value #STOP_GRACE_SECONDS} s for those that are): a
         * test client's idle keep-alive connections are closed without the second a production server gives them
         * for a request already on its way, so a JerseyTest method ends as fast as on Grizzly.
         */
        @Override
        public void stop() {
            try {
                long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(STOP_GRACE_SECONDS);
                while (server.isRunning() && server.transport().metrics().exchangesInFlight() > 0
                        && System.nanoTime() < deadline) {
                    LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(1));
                }
                server.stop(Duration.ZERO);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }

        private static final int STOP_GRACE_SECONDS = 5;
    }
}
