package dev.fleche.jersey;

import dev.fleche.transport.ServerOptions;
import dev.fleche.transport.TlsOptions;
import dev.fleche.transport.testing.TestCertificates;
import dev.fleche.transport.testing.TestCertificates.ServerKey;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.ProcessingException;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.SeBootstrap;
import jakarta.ws.rs.SeBootstrap.Configuration.SSLClientAuthentication;
import jakarta.ws.rs.client.Client;
import jakarta.ws.rs.client.ClientBuilder;
import jakarta.ws.rs.container.ContainerRequestContext;
import jakarta.ws.rs.core.Application;
import jakarta.ws.rs.core.Context;
import jakarta.ws.rs.core.SecurityContext;
import jakarta.ws.rs.core.UriInfo;
import org.glassfish.jersey.server.ResourceConfig;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.net.URI;
import java.security.cert.X509Certificate;
import java.time.Duration;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import javax.net.ssl.SSLContext;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * HTTPS through the bridge's entry points — {@link FlecheHttpServerFactory} with an {@code SSLContext} or with
 * {@code ServerOptions.tls}, and {@code SeBootstrap} with {@code HTTPS} — against the Jersey client. Certificates
 * are made at test time ({@link TestCertificates}).
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class HttpsTest {
    private static TestCertificates certificates;

    @BeforeAll
    static void makeCertificates() {
        certificates = TestCertificates.get();
    }

    /** What the request knows of its security: scheme, SecurityContext, the client-certificate property. */
    @Path("whoami")
    public static class WhoAmI {
        @GET
        public String get(@Context UriInfo uri, @Context SecurityContext security,
                          @Context ContainerRequestContext request) {
            Object chain = request.getProperty(FlecheProperties.CLIENT_CERTIFICATES);
            String certificates = chain == null ? "none" : ((X509Certificate[]) chain).length + " "
                    + ((X509Certificate[]) chain)[0].getSubjectX500Principal().getName();
            return "scheme=" + uri.getBaseUri().getScheme() + " requestScheme=" + uri.getRequestUri().getScheme()
                    + " secure=" + security.isSecure() + " certs=" + certificates;
        }

        @GET
        @Path("principal")
        public String principal(@Context SecurityContext security) {
            return "principal=" + security.getUserPrincipal() + " scheme=" + security.getAuthenticationScheme();
        }
    }

    public static class App extends Application {
        @Override
        public Set<Class<?>> getClasses() {
            return Set.of(WhoAmI.class);
        }
    }

    private static Client client(SSLContext context) {
        return ClientBuilder.newBuilder().sslContext(context).build();
    }

    @Test
    void factoryWithAnSslContextServesHttps() throws Exception {
        FlecheHttpServer server = FlecheHttpServerFactory.createServer(URI.create("https://localhost:0/"),
                new ResourceConfig(WhoAmI.class), certificates.serverContext(ServerKey.EC_P256));
        Client client = client(certificates.clientContext());
        try {
            URI base = server.baseUri();
            assertEquals("https", base.getScheme());
            assertEquals("scheme=https requestScheme=https secure=true certs=none",
                    client.target(base).path("whoami").request().get(String.class));
        } finally {
            client.close();
            server.stop(Duration.ofSeconds(1));
        }
    }

    @Test
    void factoryWithTlsOptionsAsksForAClientCertificate() throws Exception {
        ServerOptions options = ServerOptions.builder().tls(TlsOptions.builder(
                certificates.serverContext(ServerKey.RSA_2048)).clientAuth(TlsOptions.ClientAuth.WANT).build()).build();
        FlecheHttpServer server = FlecheHttpServerFactory.createServer(URI.create("https://localhost:0/api/"),
                new ResourceConfig(WhoAmI.class), options);
        Client withCertificate = client(certificates.clientContextWithCertificate());
        Client without = client(certificates.clientContext());
        try {
            assertEquals("scheme=https requestScheme=https secure=true certs=2 CN=Fleche Test Client",
                    withCertificate.target(server.baseUri()).path("whoami").request().get(String.class));
            assertEquals("scheme=https requestScheme=https secure=true certs=none",
                    without.target(server.baseUri()).path("whoami").request().get(String.class));
        } finally {
            withCertificate.close();
            without.close();
            server.stop(Duration.ofSeconds(1));
        }
    }

    @Test
    void aClientCertificateIsTheUserPrincipal() throws Exception {
        ServerOptions options = ServerOptions.builder().tls(TlsOptions.builder(
                certificates.serverContext(ServerKey.EC_P256)).clientAuth(TlsOptions.ClientAuth.NEED).build()).build();
        FlecheHttpServer server = FlecheHttpServerFactory.createServer(URI.create("https://localhost:0/"),
                new ResourceConfig(WhoAmI.class), options);
        Client client = client(certificates.clientContextWithCertificate());
        try {
            assertEquals("principal=CN=Fleche Test Client scheme=CLIENT_CERT",
                    client.target(server.baseUri()).path("whoami/principal").request().get(String.class));
        } finally {
            client.close();
            server.stop(Duration.ofSeconds(1));
        }
    }

    @Test
    void anSslContextForAnHttpUriIsRefused() {
        IllegalArgumentException error = assertThrows(IllegalArgumentException.class,
                () -> FlecheHttpServerFactory.createServer(URI.create("http://localhost:0/"),
                        new ResourceConfig(WhoAmI.class), certificates.serverContext(ServerKey.EC_P256)));
        assertTrue(error.getMessage().contains("use an https URI"), error.getMessage());
    }

    @Test
    void seBootstrapServesHttpsWithOptionalClientAuthentication() throws Exception {
        SSLContext serverContext = certificates.serverContext(ServerKey.EC_P256);
        SeBootstrap.Configuration config = SeBootstrap.Configuration.builder().protocol("HTTPS").host("localhost")
                .port(SeBootstrap.Configuration.FREE_PORT).sslContext(serverContext)
                .sslClientAuthentication(SSLClientAuthentication.OPTIONAL).build();
        SeBootstrap.Instance instance = SeBootstrap.start(new App(), config).toCompletableFuture()
                .get(30, TimeUnit.SECONDS);
        Client withCertificate = client(certificates.clientContextWithCertificate());
        Client without = client(certificates.clientContext());
        try {
            SeBootstrap.Configuration running = instance.configuration();
            assertEquals("HTTPS", running.protocol());
            assertSame(serverContext, running.sslContext());
            assertEquals(SSLClientAuthentication.OPTIONAL, running.sslClientAuthentication());
            assertTrue(running.port() > 0);
            URI base = running.baseUri();
            assertEquals("https", base.getScheme());
            assertEquals("scheme=https requestScheme=https secure=true certs=2 CN=Fleche Test Client",
                    withCertificate.target(base).path("whoami").request().get(String.class));
            assertEquals("scheme=https requestScheme=https secure=true certs=none",
                    without.target(base).path("whoami").request().get(String.class));
            FlecheHttpServer server = instance.unwrap(FlecheHttpServer.class);
            assertEquals(TlsOptions.ClientAuth.WANT, server.transport().options().tls().clientAuth());
        } finally {
            withCertificate.close();
            without.close();
            instance.stop().toCompletableFuture().get(30, TimeUnit.SECONDS);
        }
    }

    @Test
    void seBootstrapMandatoryClientAuthenticationRefusesAClientWithoutCertificate() throws Exception {
        SeBootstrap.Configuration config = SeBootstrap.Configuration.builder().protocol("HTTPS").host("localhost")
                .port(SeBootstrap.Configuration.FREE_PORT).sslContext(certificates.serverContext(ServerKey.EC_P256))
                .sslClientAuthentication(SSLClientAuthentication.MANDATORY).build();
        SeBootstrap.Instance instance = SeBootstrap.start(new App(), config).toCompletableFuture()
                .get(30, TimeUnit.SECONDS);
        Client withCertificate = client(certificates.clientContextWithCertificate());
        Client without = client(certificates.clientContext());
        try {
            URI base = instance.configuration().baseUri();
            assertEquals("scheme=https requestScheme=https secure=true certs=2 CN=Fleche Test Client",
                    withCertificate.target(base).path("whoami").request().get(String.class));
            assertThrows(ProcessingException.class, () -> without.target(base).path("whoami").request()
                    .get(String.class));
        } finally {
            withCertificate.close();
            without.close();
            instance.stop().toCompletableFuture().get(30, TimeUnit.SECONDS);
        }
    }
}
