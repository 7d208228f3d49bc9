package dev.fleche.examples.service;

import static java.nio.charset.StandardCharsets.ISO_8859_1;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.fleche.examples.todo.TodoStore;
import dev.fleche.jersey.FlecheHttpServer;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.net.InetAddress;
import java.net.Socket;
import java.net.URI;
import java.net.UnixDomainSocketAddress;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.ByteBuffer;
import java.nio.channels.Channels;
import java.nio.channels.SocketChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyStore;
import java.security.PrivateKey;
import java.security.cert.X509Certificate;
import java.util.Base64;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import javax.net.ssl.SSLContext;
import javax.net.ssl.TrustManagerFactory;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The service's edges from the environment ({@link ListenerConfig}): {@code BIND_PATH} (a Unix domain socket),
 * {@code TLS_CERT_FILE} / {@code TLS_KEY_FILE} (HTTPS from PEM files; a certificate made here with the JDK's
 * keytool) with {@code TLS_MIN_VALID_DAYS} in readiness, and {@code PROXY_PROTOCOL}.
 */
@Timeout(90)
class ListenerConfigTest {
    @TempDir
    Path dir;
    private TodoStore store;
    private FlecheHttpServer server;

    @AfterEach
    void close() {
        if (server != null) {
            server.close();
        }
        if (store != null) {
            store.close();
        }
    }

    private FlecheHttpServer start(Map<String, String> env) {
        store = new TodoStore("jdbc:h2:mem:edges-" + System.nanoTime() + ";DB_CLOSE_DELAY=-1");
        Map<String, String> all = new HashMap<>(env);
        all.putIfAbsent("BIND_HOST", "127.0.0.1");
        server = TodoService.start(ServiceConfig.from(new String[] {"0"}, all), store);
        return server;
    }

    @Test
    void bindPathServesOnAUnixSocket() throws Exception {
        Path socket = dir.resolve("todo.sock");
        start(Map.of("BIND_PATH", socket.toString()));
        assertEquals("READY unix:" + socket, TodoService.ready(server));
        try (SocketChannel channel = SocketChannel.open(UnixDomainSocketAddress.of(socket))) {
            channel.write(ByteBuffer.wrap(("GET /health/ready HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n")
                    .getBytes(ISO_8859_1)));
            String response = readAll(Channels.newInputStream(channel));
            assertTrue(response.startsWith("HTTP/1.1 200 "), response);
        }
        server.close();
        server = null;
        assertTrue(Files.notExists(socket), "the socket file goes at stop");
    }

    @Test
    void tlsFromPemFilesWithTheCertificateInReadiness() throws Exception {
        X509Certificate certificate = makePemFiles();
        Map<String, String> env = Map.of("TLS_CERT_FILE", dir.resolve("tls.crt").toString(),
                "TLS_KEY_FILE", dir.resolve("tls.key").toString(), "TLS_MIN_VALID_DAYS", "1");
        start(env);
        HttpClient client = HttpClient.newBuilder().sslContext(trusting(certificate)).build();
        URI ready = URI.create("https://localhost:" + server.port() + "/health/ready");
        HttpResponse<String> up = client.send(HttpRequest.newBuilder(ready).build(),
                HttpResponse.BodyHandlers.ofString());
        assertEquals(200, up.statusCode(), up.body());
        assertTrue(up.body().contains("\"certificate\":{\"status\":\"UP\""), up.body());
        server.close();
        store.close();
        // the certificate lives 2 days: a 3-day margin is not met
        Map<String, String> strict = new HashMap<>(env);
        strict.put("TLS_MIN_VALID_DAYS", "3");
        start(strict);
        HttpResponse<String> down = client.send(HttpRequest.newBuilder(URI.create("https://localhost:"
                + server.port() + "/health/ready")).build(), HttpResponse.BodyHandlers.ofString());
        assertEquals(503, down.statusCode(), down.body());
        assertTrue(down.body().contains("\"certificate\":{\"status\":\"DOWN\""), down.body());
    }

    @Test
    void proxyProtocolFromItsTrustedSources() throws Exception {
        start(Map.of("PROXY_PROTOCOL", "127.0.0.1, ::1"));
        try (Socket socket = new Socket(InetAddress.getLoopbackAddress(), server.port())) {
            socket.setSoTimeout(10_000);
            socket.getOutputStream().write(("PROXY TCP4 198.51.100.7 10.0.0.1 40000 8080\r\n"
                    + "GET /health/live HTTP/1.1\r\nHost: t\r\nConnection: close\r\n\r\n").getBytes(ISO_8859_1));
            assertTrue(readAll(socket.getInputStream()).startsWith("HTTP/1.1 200 "));
        }
        try (Socket socket = new Socket(InetAddress.getLoopbackAddress(), server.port())) {
            socket.setSoTimeout(10_000);
            socket.getOutputStream().write("GET /health/live HTTP/1.1\r\nHost: t\r\n\r\n".getBytes(ISO_8859_1));
            assertEquals(-1, socket.getInputStream().read(), "no header: closed");
        }
    }

    @Test
    void settingsThatDoNotGoTogetherAreRefused() {
        assertThrows(IllegalArgumentException.class, () -> ListenerConfig.from(Map.of("TLS_CERT_FILE", "a.crt")));
        assertThrows(IllegalArgumentException.class, () -> ListenerConfig.from(Map.of("TLS_CA_FILE", "ca.crt")));
        assertThrows(IllegalArgumentException.class, () -> ListenerConfig.from(Map.of("PROXY_PROTOCOL", "10.0.0.0/33")));
        assertThrows(IllegalArgumentException.class, () -> ListenerConfig.from(Map.of("TLS_RELOAD_SECONDS", "x")));
        ListenerConfig none = ListenerConfig.from(Map.of());
        assertEquals(URI.create("http://0.0.0.0:8080/"), none.uri("0.0.0.0", 8080));
        assertEquals(URI.create("http+unix://%2Frun%2Ftodo.sock/"),
                ListenerConfig.from(Map.of("BIND_PATH", "/run/todo.sock")).uri("0.0.0.0", 8080));
    }

    // ---------------------------------------------------------------- helpers

    /** A self-signed localhost certificate made by keytool, written as tls.crt and tls.key (PKCS#8). */
    private X509Certificate makePemFiles() throws Exception {
        Path store = dir.resolve("server.p12");
        Process keytool = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "keytool").toString(),
                "-genkeypair", "-alias", "server", "-keyalg", "EC", "-groupname", "secp256r1", "-dname",
                "CN=localhost", "-ext", "SAN=dns:localhost,ip:127.0.0.1", "-validity", "2", "-storetype", "PKCS12",
                "-keystore", store.toString(), "-storepass", "changeit", "-keypass", "changeit")
                .redirectErrorStream(true).start();
        String output = new String(keytool.getInputStream().readAllBytes(), ISO_8859_1);
        assertTrue(keytool.waitFor(60, TimeUnit.SECONDS) && keytool.exitValue() == 0, output);
        KeyStore keys = KeyStore.getInstance("PKCS12");
        try (InputStream in = Files.newInputStream(store)) {
            keys.load(in, "changeit".toCharArray());
        }
        X509Certificate certificate = (X509Certificate) keys.getCertificate("server");
        PrivateKey key = (PrivateKey) keys.getKey("server", "changeit".toCharArray());
        Files.writeString(dir.resolve("tls.crt"), pem("CERTIFICATE", certificate.getEncoded()));
        Files.writeString(dir.resolve("tls.key"), pem("PRIVATE KEY", key.getEncoded()));
        return certificate;
    }

    private static String pem(String label, byte[] der) {
        return "-----BEGIN " + label + "-----\n" + Base64.getMimeEncoder(64, new byte[] {'\n'}).encodeToString(der)
                + "\n-----END " + label + "-----\n";
    }

    private static SSLContext trusting(X509Certificate certificate) throws Exception {
        KeyStore trust = KeyStore.getInstance("PKCS12");
        trust.load(null, null);
        trust.setCertificateEntry("server", certificate);
        TrustManagerFactory factory = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
        factory.init(trust);
        SSLContext context = SSLContext.getInstance("TLS");
        context.init(null, factory.getTrustManagers(), null);
        return context;
    }

    private static String readAll(InputStream in) throws IOException {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        in.transferTo(bytes);
        return bytes.toString(ISO_8859_1);
    }
}
