package dev.fleche.jersey;

import static java.nio.charset.StandardCharsets.ISO_8859_1;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.fleche.transport.PemFiles;
import dev.fleche.transport.ProxyInfo;
import dev.fleche.transport.testing.TestCertificates;
import dev.fleche.transport.testing.TestCertificates.ServerKey;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.ProcessingException;
import jakarta.ws.rs.SeBootstrap;
import jakarta.ws.rs.container.ContainerRequestContext;
import jakarta.ws.rs.core.Application;
import jakarta.ws.rs.core.Context;
import jakarta.ws.rs.core.UriInfo;
import org.glassfish.jersey.server.ResourceConfig;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.net.InetAddress;
import java.net.Socket;
import java.net.URI;
import java.net.URLEncoder;
import java.net.UnixDomainSocketAddress;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.ByteBuffer;
import java.nio.channels.Channels;
import java.nio.channels.SocketChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.security.cert.X509Certificate;
import java.time.Clock;
import java.time.Duration;
import java.time.ZoneOffset;
import java.util.Base64;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLSession;

/**
 * The edges of a deployment through the Jersey container: a Unix domain socket ({@code SeBootstrap} property and
 * {@code http+unix} factory URI; the base URI still right), HTTPS from PEM files ({@code SeBootstrap} properties;
 * rotated; its meters and the readiness check on its expiry), and the PROXY protocol (the client address it carries
 * is Jersey's remote address, and the header is a request property).
 */
@Timeout(120)
class DeploymentEdgesTest {
    @TempDir
    java.nio.file.Path dir;
    private SeBootstrap.Instance instance;
    private FlecheHttpServer server;

    @AfterEach
    void stop() throws Exception {
        if (instance != null) {
            instance.stop().toCompletableFuture().get(30, TimeUnit.SECONDS);
        }
        if (server != null) {
            server.stop(Duration.ZERO);
        }
    }

    @Path("who")
    public static class Who {
        @GET
        public String who(@Context UriInfo uri, @Context ContainerRequestContext request) {
            ProxyInfo proxy = (ProxyInfo) request.getProperty(FlecheProperties.PROXY);
            return "base=" + uri.getBaseUri() + " request=" + uri.getRequestUri() + " remote="
                    + request.getProperty(FlecheProperties.REMOTE_ADDRESS) + " proxy="
                    + (proxy == null ? "none" : "v" + proxy.version()) + " secure="
                    + request.getSecurityContext().isSecure();
        }
    }

    public static class App extends Application {
        @Override
        public Set<Class<?>> getClasses() {
            return Set.of(Who.class);
        }
    }

    private SeBootstrap.Instance bootstrap(SeBootstrap.Configuration.Builder configuration) throws Exception {
        instance = SeBootstrap.start(new App(), configuration.rootPath("/api").build()).toCompletableFuture()
                .get(30, TimeUnit.SECONDS);
        return instance;
    }

    // ---------------------------------------------------------------- Unix domain sockets

    @Test
    void seBootstrapOnAUnixSocket() throws Exception {
        java.nio.file.Path socket = dir.resolve("api.sock");
        bootstrap(SeBootstrap.Configuration.builder().property(FlecheProperties.UNIX_SOCKET, socket.toString()));
        assertEquals("base=http://localhost/api/ request=http://localhost/api/who?x=1 remote=null proxy=none "
                + "secure=false", body(overSocket(socket, "GET /api/who?x=1 HTTP/1.1\r\nHost: localhost\r\n"
                + "Connection: close\r\n\r\n")));
        // HTTP/1.0 without a Host: the base URI falls back to localhost, as a Unix socket is local
        assertTrue(overSocket(socket, "GET /api/who HTTP/1.0\r\n\r\n").contains("base=http://localhost/api/"));
        instance.stop().toCompletableFuture().get(30, TimeUnit.SECONDS);
        instance = null;
        assertFalse(Files.exists(socket), "the socket file goes at stop");
    }

    @Test
    void theFactoryTakesAnHttpUnixUri() throws Exception {
        java.nio.file.Path socket = dir.resolve("factory.sock");
        URI uri = URI.create("http+unix://" + URLEncoder.encode(socket.toString(), StandardCharsets.UTF_8) + "/root/");
        server = FlecheHttpServerFactory.createServer(uri, new ResourceConfig(Who.class));
        assertEquals(URI.create("http://localhost/root/"), server.baseUri());
        assertEquals("base=http://app.example/root/ request=http://app.example/root/who remote=null proxy=none "
                + "secure=false", body(overSocket(socket, "GET /root/who HTTP/1.1\r\nHost: app.example\r\n"
                + "Connection: close\r\n\r\n")));
        assertThrows(IllegalArgumentException.class, () -> FlecheHttpServerFactory.createServer(
                URI.create("http+unix:///root/"), new ResourceConfig(Who.class)));
    }

    // ---------------------------------------------------------------- PEM files

    @Test
    void seBootstrapServesPemFilesAndRotatesThem() throws Exception {
        TestCertificates certificates = TestCertificates.get();
        java.nio.file.Path crt = dir.resolve("tls.crt");
        java.nio.file.Path key = dir.resolve("tls.key");
        Files.writeString(crt, certificates.serverCertificatePem(ServerKey.EC_P256));
        Files.writeString(key, pkcs8(certificates, ServerKey.EC_P256));
        bootstrap(SeBootstrap.Configuration.builder().protocol("HTTPS").host("127.0.0.1")
                .port(SeBootstrap.Configuration.FREE_PORT)
                .property(FlecheProperties.TLS_CERTIFICATE_FILE, crt.toString())
                .property(FlecheProperties.TLS_PRIVATE_KEY_FILE, key)
                .property(FlecheProperties.TLS_RELOAD_SECONDS, 0));
        FlecheHttpServer running = instance.unwrap(FlecheHttpServer.class);
        PemFiles pem = running.transport().options().tls().pem();
        assertEquals(Duration.ZERO, pem.reloadInterval());
        SimpleMeterRegistry registry = new SimpleMeterRegistry();
        dev.fleche.jersey.internal.TransportMeters.bind(registry, running.transport(),
                dev.fleche.jersey.internal.Workers.from(java.util.Map.of()), () -> 0, () -> 0);

        X509Certificate ec = TestCertificates.parsePem(certificates.serverCertificatePem(ServerKey.EC_P256));
        assertEquals(ec, served(certificates, instance.configuration().port()));
        assertEquals(ec.getNotAfter().toInstant().getEpochSecond(),
                registry.get("fleche.tls.certificate.expiry").gauge().value());

        Files.writeString(crt, certificates.serverCertificatePem(ServerKey.RSA_2048));
        Files.writeString(key, pkcs8(certificates, ServerKey.RSA_2048));
        assertTrue(pem.reload());
        X509Certificate rsa = TestCertificates.parsePem(certificates.serverCertificatePem(ServerKey.RSA_2048));
        assertEquals(rsa, served(certificates, instance.configuration().port()));
        assertEquals(1.0, registry.get("fleche.tls.reloads").functionCounter().count());
        assertEquals(0.0, registry.get("fleche.tls.reload.failures").functionCounter().count());
        Gauge expiry = registry.get("fleche.tls.certificate.expiry").gauge();
        assertEquals(rsa.getNotAfter().toInstant().getEpochSecond(), expiry.value());
    }

    @Test
    void pemPropertiesNeedHttpsAndAKey() {
        ProcessingException http = assertThrows(ProcessingException.class, () -> dev.fleche.jersey.internal
                .BootstrapSettings.from(SeBootstrap.Configuration.builder()
                        .property(FlecheProperties.TLS_CERTIFICATE_FILE, "tls.crt").build()));
        assertTrue(http.getMessage().contains("HTTPS"), http.getMessage());
        ProcessingException noKey = assertThrows(ProcessingException.class, () -> dev.fleche.jersey.internal
                .BootstrapSettings.from(SeBootstrap.Configuration.builder().protocol("HTTPS")
                        .property(FlecheProperties.TLS_CERTIFICATE_FILE, "tls.crt").build()));
        assertTrue(noKey.getMessage().contains(FlecheProperties.TLS_PRIVATE_KEY_FILE), noKey.getMessage());
    }

    @Test
    void aReadinessCheckOnTheCertificatesExpiry() throws Exception {
        TestCertificates certificates = TestCertificates.get();
        java.nio.file.Path crt = dir.resolve("tls.crt");
        java.nio.file.Path key = dir.resolve("tls.key");
        Files.writeString(crt, certificates.serverCertificatePem(ServerKey.EC_P256));
        Files.writeString(key, pkcs8(certificates, ServerKey.EC_P256));
        X509Certificate ec = TestCertificates.parsePem(certificates.serverCertificatePem(ServerKey.EC_P256));
        // the test certificates live two days: 3 days before their end, and 1 day before
        PemFiles early = PemFiles.builder(crt, key).clock(Clock.fixed(ec.getNotAfter().toInstant()
                .minus(Duration.ofDays(3)), ZoneOffset.UTC)).build();
        HealthCheck.Result up = HealthCheck.certificateExpiry(early, Duration.ofDays(2)).check();
        assertTrue(up.up(), up.detail());
        PemFiles late = PemFiles.builder(crt, key).clock(Clock.fixed(ec.getNotAfter().toInstant()
                .minus(Duration.ofDays(1)), ZoneOffset.UTC)).build();
        HealthCheck.Result down = HealthCheck.certificateExpiry(late, Duration.ofDays(2)).check();
        assertFalse(down.up());
        assertTrue(down.detail().contains("expires " + ec.getNotAfter().toInstant() + ", within 2 days"),
                down.detail());
    }

    // ---------------------------------------------------------------- PROXY protocol

    @Test
    void theProxiedClientIsJerseysRemoteAddress() throws Exception {
        bootstrap(SeBootstrap.Configuration.builder().host("127.0.0.1").port(SeBootstrap.Configuration.FREE_PORT)
                .property(FlecheProperties.PROXY_PROTOCOL, "127.0.0.0/8, ::1"));
        int port = instance.configuration().port();
        try (Socket socket = new Socket(InetAddress.getLoopbackAddress(), port)) {
            socket.setSoTimeout(10_000);
            socket.getOutputStream().write(("PROXY TCP4 192.0.2.44 10.1.2.3 50123 443\r\n"
                    + "GET /api/who HTTP/1.1\r\nHost: app.example\r\nConnection: close\r\n\r\n").getBytes(ISO_8859_1));
            assertEquals("base=http://app.example/api/ request=http://app.example/api/who "
                    + "remote=/192.0.2.44:50123 proxy=v1 secure=false", body(readAll(socket.getInputStream())));
        }
        try (Socket socket = new Socket(InetAddress.getLoopbackAddress(), port)) {
            socket.setSoTimeout(10_000);
            socket.getOutputStream().write("GET /api/who HTTP/1.1\r\nHost: a\r\n\r\n".getBytes(ISO_8859_1));
            assertEquals(-1, socket.getInputStream().read(), "no header: closed without a byte");
        }
        assertEquals(1, instance.unwrap(FlecheHttpServer.class).transport().metrics()
                .refusals("PROXY_HEADER_MISSING"));
    }

    // ---------------------------------------------------------------- helpers

    private static String overSocket(java.nio.file.Path socket, String request) throws IOException {
        try (SocketChannel channel = SocketChannel.open(UnixDomainSocketAddress.of(socket))) {
            channel.write(ByteBuffer.wrap(request.getBytes(ISO_8859_1)));
            return readAll(Channels.newInputStream(channel));
        }
    }

    private static String readAll(InputStream in) throws IOException {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        in.transferTo(bytes);
        return bytes.toString(ISO_8859_1);
    }

    private static String body(String response) {
        assertTrue(response.startsWith("HTTP/1.1 200") || response.startsWith("HTTP/1.0 200"), response);
        return response.substring(response.indexOf("\r\n\r\n") + 4);
    }

    private static String pkcs8(TestCertificates certificates, ServerKey key) {
        return "-----BEGIN PRIVATE KEY-----\n" + Base64.getMimeEncoder(64, new byte[] {'\n'})
                .encodeToString(certificates.serverPrivateKey(key).getEncoded()) + "\n-----END PRIVATE KEY-----\n";
    }

    /** The certificate a new HTTPS request is shown (the test CA's trust store trusts both server certificates). */
    private static X509Certificate served(TestCertificates certificates, int port) throws Exception {
        SSLContext context = certificates.clientContext();
        HttpClient client = HttpClient.newBuilder().sslContext(context).connectTimeout(Duration.ofSeconds(10)).build();
        HttpResponse<String> response = client.send(HttpRequest.newBuilder(URI.create("https://localhost:" + port
                + "/api/who")).timeout(Duration.ofSeconds(10)).build(), HttpResponse.BodyHandlers.ofString());
        assertEquals(200, response.statusCode());
        assertTrue(response.body().endsWith("secure=true"), response.body());
        SSLSession session = response.sslSession().orElseThrow();
        return (X509Certificate) session.getPeerCertificates()[0];
    }
}
