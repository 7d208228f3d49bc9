package dev.fleche.transport;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.fleche.transport.testing.TestCertificates;
import dev.fleche.transport.testing.TestCertificates.ServerKey;

import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * A real PROXY protocol sender: HAProxy (Debian's package) in front of Fleche with {@code send-proxy-v2}, and curl
 * as the client, bound to {@code 127.0.0.2} so that the client's address differs from the proxy's
 * ({@code 127.0.0.1}). Three paths: HAProxy in TCP mode to a plain listener (HTTP/1.1 and h2c), in TCP mode passing
 * TLS through to a TLS listener (h2 and HTTP/1.1 by ALPN with Fleche), and terminating TLS itself (ALPN {@code h2})
 * with {@code proxy-v2-options ssl,authority,crc32c}, so that the header carries TLVs (ALPN, authority, the SSL
 * client bit) and a checksum. HAProxy's health checks ({@code check-send-proxy}) send {@code LOCAL} headers
 * meanwhile. No connection may be refused.
 *
 * <p>Skipped where haproxy or curl is not installed, unless {@code -Dfleche.requireRealProxies=true}, which CI's
 * stage ({@code .ci/real-proxies.sh}: it installs both with apt-get) sets, so that it cannot skip there.
 */
@Timeout(120)
class HaproxyTest {
    /** The client's source address: any 127/8 address is local on Linux. */
    private static final String CLIENT = "127.0.0.2";

    @TempDir
    Path dir;
    private final List<HttpServer> servers = new ArrayList<>();
    private Process haproxy;

    @AfterEach
    void stop() throws Exception {
        if (haproxy != null) {
            haproxy.destroy();
            if (!haproxy.waitFor(10, TimeUnit.SECONDS)) {
                haproxy.destroyForcibly();
            }
        }
        for (HttpServer server : servers) {
            server.stop(Duration.ZERO);
        }
    }

    /** Skips without the tools, unless CI requires them. */
    static void requireTools(String... tools) {
        boolean required = Boolean.getBoolean("fleche.requireRealProxies");
        for (String tool : tools) {
            boolean present = UnixSocketTest.installed(tool);
            if (required) {
                assertTrue(present, tool + " is required (-Dfleche.requireRealProxies=true) but not installed");
            }
            assumeTrue(present, tool + " is not installed");
        }
    }

    private HttpServer start(ServerOptions.Builder options) throws IOException {
        HttpServer server = HttpServer.create(options.address("127.0.0.1", 0).reactors(1)
                .proxyProtocol(ProxyProtocol.builder().trust("127.0.0.1").build()).build(), HaproxyTest::who).start();
        servers.add(server);
        return server;
    }

    static void who(HttpExchange exchange) {
        ProxyInfo proxy = exchange.proxy();
        String text = exchange.version() + " remote=" + exchange.remoteAddress().getAddress().getHostAddress()
                + " local=" + exchange.localAddress() + " proxy=v" + proxy.version() + " alpn=" + proxy.alpn()
                + " authority=" + proxy.authority() + " clientTls=" + proxy.clientTls() + " secure="
                + exchange.isSecure() + "\n";
        exchange.respond(200, new HttpFields().add("Content-Type", "text/plain"),
                text.getBytes(StandardCharsets.US_ASCII));
    }

    @Test
    void haproxySendsProxyV2InFrontOfPlainTlsAndItsOwnTls() throws Exception {
        requireTools("haproxy", "curl");
        TestCertificates certificates = TestCertificates.get();
        HttpServer plain = start(ServerOptions.builder());
        HttpServer tls = start(ServerOptions.builder()
                .tls(TlsOptions.builder(certificates.serverContext(ServerKey.EC_P256)).build()));
        Path pem = dir.resolve("haproxy.pem");
        Files.writeString(pem, certificates.serverCertificatePem(ServerKey.EC_P256)
                + PemFilesTest.pkcs8(certificates.serverPrivateKey(ServerKey.EC_P256)));
        int tcp = freePort();
        int passthrough = freePort();
        int terminating = freePort();
        Path config = dir.resolve("haproxy.cfg");
        Files.writeString(config, String.join("\n",
                "global",
                "    maxconn 200",
                "defaults",
                "    mode tcp",
                "    timeout connect 5s",
                "    timeout client 30s",
                "    timeout server 30s",
                "frontend tcp",
                "    bind 127.0.0.1:" + tcp,
                "    default_backend fleche_plain",
                "frontend passthrough",
                "    bind 127.0.0.1:" + passthrough,
                "    default_backend fleche_tls",
                "frontend terminating",
                "    bind 127.0.0.1:" + terminating + " ssl crt " + pem + " alpn h2,http/1.1",
                "    default_backend fleche_plain_tlvs",
                "backend fleche_plain",
                "    server fleche 127.0.0.1:" + plain.port() + " send-proxy-v2 check check-send-proxy inter 200ms",
                "backend fleche_tls",
                "    server fleche 127.0.0.1:" + tls.port() + " send-proxy-v2",
                "backend fleche_plain_tlvs",
                "    server fleche 127.0.0.1:" + plain.port() + " send-proxy-v2 proxy-v2-options ssl,authority,crc32c",
                ""));
        haproxy = new ProcessBuilder("haproxy", "-db", "-f", config.toString())
                .redirectErrorStream(true).redirectOutput(dir.resolve("haproxy.log").toFile()).start();
        for (int port : new int[] {tcp, passthrough, terminating}) {
            awaitListening(port);
        }

        assertEquals("HTTP/1.1 remote=127.0.0.2 local=/127.0.0.1:" + tcp + " proxy=v2 alpn=null authority=null "
                + "clientTls=false secure=false\n", curl("http://127.0.0.1:" + tcp + "/a"));
        assertEquals("HTTP/2 remote=127.0.0.2 local=/127.0.0.1:" + tcp + " proxy=v2 alpn=null authority=null "
                + "clientTls=false secure=false\n", curl("--http2-prior-knowledge", "http://127.0.0.1:" + tcp + "/b"));
        assertEquals("HTTP/2 remote=127.0.0.2 local=/127.0.0.1:" + passthrough + " proxy=v2 alpn=null "
                + "authority=null clientTls=false secure=true\n", curl("-k", "--http2", "https://localhost:"
                + passthrough + "/c"));
        assertEquals("HTTP/1.1 remote=127.0.0.2 local=/127.0.0.1:" + passthrough + " proxy=v2 alpn=null "
                + "authority=null clientTls=false secure=true\n", curl("-k", "--http1.1", "https://localhost:"
                + passthrough + "/d"));
        assertEquals("HTTP/2 remote=127.0.0.2 local=/127.0.0.1:" + terminating + " proxy=v2 alpn=h2 "
                + "authority=localhost clientTls=true secure=false\n", curl("-k", "--http2", "https://localhost:"
                + terminating + "/e"));

        Await.until("HAProxy's health checks (LOCAL headers) reached Fleche", Duration.ofSeconds(30),
                () -> plain.metrics().closedConnections() >= 8);
        for (HttpServer server : servers) {
            assertEquals(Map.of(), server.metrics().refusalsByRule(), "nothing refused: " + log());
        }
    }

    private String curl(String... arguments) throws Exception {
        List<String> command = new ArrayList<>(List.of("curl", "-sS", "--max-time", "20", "--interface", CLIENT));
        command.addAll(List.of(arguments));
        Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
        String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(process.waitFor(30, TimeUnit.SECONDS), "curl ended");
        assertEquals(0, process.exitValue(), command + ": " + output + "\nhaproxy: " + log());
        return output;
    }

    private String log() {
        try {
            return Files.readString(dir.resolve("haproxy.log"));
        } catch (IOException e) {
            return "(no log: " + e + ")";
        }
    }

    /** A port free now (HAProxy binds it a moment later). */
    static int freePort() throws IOException {
        try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getByName("127.0.0.1"))) {
            return socket.getLocalPort();
        }
    }

    /** Waits until something accepts on {@code port} of 127.0.0.1 (the proxy started). */
    void awaitListening(int port) {
        Await.until("the proxy listens on " + port, Duration.ofSeconds(30), () -> {
            if (haproxy != null && !haproxy.isAlive()) {
                throw new AssertionError("haproxy ended: " + log());
            }
            try (Socket socket = new Socket(InetAddress.getByName("127.0.0.1"), port)) {
                return true;
            } catch (IOException e) {
                return false;
            }
        });
    }
}
