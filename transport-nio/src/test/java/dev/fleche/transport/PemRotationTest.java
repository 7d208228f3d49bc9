package dev.fleche.transport;

import static java.nio.charset.StandardCharsets.ISO_8859_1;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.fleche.transport.testing.TestCertificates;
import dev.fleche.transport.testing.TestCertificates.ServerKey;

import java.io.IOException;
import java.net.InetAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.security.cert.CertificateException;
import java.security.cert.X509Certificate;
import java.time.Duration;
import java.util.List;
import java.util.Queue;
import java.util.Set;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CopyOnWriteArraySet;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLSocket;
import javax.net.ssl.TrustManager;
import javax.net.ssl.X509TrustManager;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Certificates rotated under load, without a restart, as they are in production: a Kubernetes-style mount whose
 * {@code ..data} link is swapped (kubelet's atomic writer), and an editor writing the two files in place. Real
 * clients pin the two certificates (a trust manager that takes exactly those): a JDK {@link HttpClient} holding its
 * HTTP/2 connection across the rotation, and threads opening a new TLS connection per request. Every request
 * succeeds; new connections see the new certificate within the reload interval (the server's own watch thread,
 * awaited, never slept on); a broken pair is refused and the served certificate stays; the metrics say so.
 */
@Timeout(120)
class PemRotationTest {
    private static final Duration INTERVAL = Duration.ofMillis(250);
    /** What a loaded 2-core machine may add to the interval before a new connection sees the new certificate. */
    private static final Duration SLACK = Duration.ofSeconds(5);

    @TempDir
    Path dir;
    private final TestCertificates certificates = TestCertificates.get();
    private X509Certificate ec;
    private X509Certificate rsa;
    private SSLContext pinned;
    private HttpServer server;
    private Load load;

    @BeforeEach
    void pin() throws Exception {
        ec = TestCertificates.parsePem(certificates.serverCertificatePem(ServerKey.EC_P256));
        rsa = TestCertificates.parsePem(certificates.serverCertificatePem(ServerKey.RSA_2048));
        pinned = SSLContext.getInstance("TLS");
        pinned.init(null, new TrustManager[] {new Pinned(Set.of(ec, rsa))}, null);
    }

    @AfterEach
    void stop() throws Exception {
        if (load != null) {
            load.stop();
        }
        if (server != null) {
            server.stop(Duration.ZERO);
        }
    }

    @Test
    void aKubernetesSecretRotatesUnderLoad() throws Exception {
        Mount mount = new Mount(dir.resolve("tls"));
        mount.publish(certificates.serverCertificatePem(ServerKey.EC_P256), key(ServerKey.EC_P256));
        PemFiles pem = PemFiles.builder(mount.path("tls.crt"), mount.path("tls.key")).reloadInterval(INTERVAL)
                .build();
        start(pem);
        assertEquals(ec, fresh());
        load.awaitRequests(20);

        long started = System.nanoTime();
        mount.publish(certificates.serverCertificatePem(ServerKey.RSA_2048), key(ServerKey.RSA_2048));
        Await.until("a new connection sees the new certificate", INTERVAL.plus(SLACK), () -> rsa.equals(freshQuietly()));
        Duration seen = Duration.ofNanos(System.nanoTime() - started);
        load.awaitRequests(load.requests() + 20);
        assertEquals(1, server.metrics().tlsReloads(), "seen after " + seen.toMillis() + " ms");

        // a broken pair (the old certificate with the new key): refused, the served certificate stays
        mount.publish(certificates.serverCertificatePem(ServerKey.EC_P256), key(ServerKey.RSA_2048));
        Await.until("the broken pair refused", INTERVAL.plus(SLACK), () -> server.metrics().tlsReloadFailures() == 1);
        assertEquals(rsa, fresh());
        load.awaitRequests(load.requests() + 20);

        // a good pair again
        mount.publish(certificates.serverCertificatePem(ServerKey.EC_P256), key(ServerKey.EC_P256));
        Await.until("back to the first certificate", INTERVAL.plus(SLACK), () -> ec.equals(freshQuietly()));
        load.awaitRequests(load.requests() + 20);
        load.stop();

        assertEquals(List.of(), List.copyOf(load.failures), "every request under load succeeded");
        assertEquals(Set.of(ec, rsa), load.freshSaw, "new connections under load saw both certificates");
        ServerMetrics metrics = server.metrics();
        assertEquals(2, metrics.tlsReloads());
        assertEquals(1, metrics.tlsReloadFailures());
        assertEquals(ec.getNotAfter().toInstant(), metrics.tlsCertificateNotAfter());
    }

    @Test
    void anEditorWritingTheFilesInPlace() throws Exception {
        Path crt = dir.resolve("server.crt");
        Path key = dir.resolve("server.key");
        Files.writeString(crt, certificates.serverCertificatePem(ServerKey.EC_P256));
        Files.writeString(key, key(ServerKey.EC_P256));
        start(PemFiles.builder(crt, key).reloadInterval(INTERVAL).build());
        load.awaitRequests(10);
        Files.writeString(crt, certificates.serverCertificatePem(ServerKey.RSA_2048)); // for a moment: not a pair
        Files.writeString(key, key(ServerKey.RSA_2048));
        Await.until("a new connection sees the new certificate", INTERVAL.plus(SLACK), () -> rsa.equals(freshQuietly()));
        load.awaitRequests(load.requests() + 20);
        load.stop();
        assertEquals(List.of(), List.copyOf(load.failures), "every request under load succeeded");
        assertEquals(1, server.metrics().tlsReloads());
        assertTrue(server.metrics().tlsReloadFailures() <= 1, "at most the moment between the two writes");
    }

    // ---------------------------------------------------------------- the server and its clients

    private void start(PemFiles pem) throws IOException {
        server = HttpServer.create(RawClient.loopback().tls(TlsOptions.builder(pem).build()).build(),
                exchange -> exchange.respond(200, new HttpFields().add("Content-Type", "text/plain"),
                        "ok\n".getBytes(ISO_8859_1))).start();
        load = new Load();
        load.start();
    }

    private String key(ServerKey key) {
        return PemFilesTest.pkcs8(certificates.serverPrivateKey(key));
    }

    /** The certificate a new TLS connection is shown, after a whole request on it. */
    private X509Certificate fresh() throws IOException {
        try (SSLSocket socket = (SSLSocket) pinned.getSocketFactory().createSocket(InetAddress.getLoopbackAddress(),
                server.port())) {
            socket.setSoTimeout(10_000);
            socket.getOutputStream().write("GET / HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n"
                    .getBytes(ISO_8859_1));
            String response = new String(socket.getInputStream().readAllBytes(), ISO_8859_1);
            if (!response.startsWith("HTTP/1.1 200 ")) {
                throw new IOException("not a 200: " + response);
            }
            return (X509Certificate) socket.getSession().getPeerCertificates()[0];
        }
    }

    private X509Certificate freshQuietly() {
        try {
            return fresh();
        } catch (IOException e) {
            throw new AssertionError("a new connection failed", e);
        }
    }

    /**
     * Two kinds of client until stopped: one {@link HttpClient} on its HTTP/2 connection (kept across every
     * rotation), and two threads each opening a new TLS connection per request.
     */
    private final class Load {
        final Queue<String> failures = new ConcurrentLinkedQueue<>();
        final Set<X509Certificate> freshSaw = new CopyOnWriteArraySet<>();
        private final AtomicLong requests = new AtomicLong();
        private final AtomicBoolean running = new AtomicBoolean(true);
        private final List<Thread> threads = List.of(new Thread(this::keepAlive, "load-keep-alive"),
                new Thread(this::newConnections, "load-fresh-1"), new Thread(this::newConnections, "load-fresh-2"));

        void start() {
            threads.forEach(Thread::start);
        }

        long requests() {
            return requests.get();
        }

        void awaitRequests(long n) {
            Await.until(n + " requests under load", Duration.ofSeconds(30), () -> requests.get() >= n
                    || !failures.isEmpty());
            assertEquals(List.of(), List.copyOf(failures), "every request under load succeeded");
        }

        void stop() throws InterruptedException {
            running.set(false);
            for (Thread thread : threads) {
                thread.join(30_000);
            }
        }

        private void keepAlive() {
            HttpClient client = HttpClient.newBuilder().sslContext(pinned).connectTimeout(Duration.ofSeconds(10))
                    .build();
            HttpRequest request = HttpRequest.newBuilder(URI.create("https://localhost:" + server.port() + "/"))
                    .timeout(Duration.ofSeconds(10)).build();
            while (running.get()) {
                try {
                    HttpResponse<String> response = client.send(request, HttpResponse.BodyHandlers.ofString());
                    if (response.statusCode() != 200 || !response.body().equals("ok\n")) {
                        failures.add("keep-alive: " + response.statusCode() + " " + response.body());
                    }
                    requests.incrementAndGet();
                } catch (IOException | InterruptedException e) {
                    failures.add("keep-alive: " + e);
                    return;
                }
            }
        }

        private void newConnections() {
            while (running.get()) {
                try {
                    freshSaw.add(fresh());
                    requests.incrementAndGet();
                } catch (IOException e) {
                    failures.add("new connection: " + e);
                    return;
                }
            }
        }
    }

    /** Takes exactly the pinned certificates, whoever signed them. */
    private record Pinned(Set<X509Certificate> certificates) implements X509TrustManager {
        @Override
        public void checkClientTrusted(X509Certificate[] chain, String authType) throws CertificateException {
            throw new CertificateException("a server's trust manager");
        }

        @Override
        public void checkServerTrusted(X509Certificate[] chain, String authType) throws CertificateException {
            if (!certificates.contains(chain[0])) {
                throw new CertificateException("not a pinned certificate: " + chain[0].getSubjectX500Principal());
            }
        }

        @Override
        public X509Certificate[] getAcceptedIssuers() {
            return new X509Certificate[0];
        }
    }

    /**
     * A directory laid out as the kubelet mounts a Secret: each version in its own {@code ..<timestamp>} directory,
     * {@code ..data} a link to the current one, each file a link through {@code ..data}. A new version is published
     * as kubelet's atomic writer does: written whole in a new directory, then {@code ..data} replaced by a rename of
     * a new link over it, then the old directory removed.
     */
    static final class Mount {
        private final Path root;
        private int version;
        private Path current;

        Mount(Path root) throws IOException {
            this.root = Files.createDirectories(root);
        }

        Path path(String file) {
            return root.resolve(file);
        }

        void publish(String certificate, String key) throws IOException {
            Path next = root.resolve("..2026_01_02_03_04_05." + (++version));
            Files.createDirectory(next);
            Files.writeString(next.resolve("tls.crt"), certificate);
            Files.writeString(next.resolve("tls.key"), key);
            Path link = root.resolve("..data_tmp");
            Files.createSymbolicLink(link, next.getFileName());
            Files.move(link, root.resolve("..data"), StandardCopyOption.ATOMIC_MOVE,
                    StandardCopyOption.REPLACE_EXISTING);
            for (String file : List.of("tls.crt", "tls.key")) {
                if (!Files.isSymbolicLink(root.resolve(file))) {
                    Files.createSymbolicLink(root.resolve(file), Path.of("..data", file));
                }
            }
            if (current != null) {
                Files.delete(current.resolve("tls.crt"));
                Files.delete(current.resolve("tls.key"));
                Files.delete(current);
            }
            current = next;
        }
    }
}
