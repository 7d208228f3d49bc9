package dev.fleche.transport;

import static java.nio.charset.StandardCharsets.ISO_8859_1;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.net.BindException;
import java.net.StandardProtocolFamily;
import java.net.UnixDomainSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.Channels;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.HexFormat;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * A listener on a Unix domain socket ({@code ServerOptions.unixSocket}): HTTP/1.1 and h2c over the JDK's
 * {@link SocketChannel} and over {@code curl --unix-socket} (skipped when curl is not installed; CI installs it),
 * the socket file's permissions, its removal at stop, a stale file replaced and a live one left alone, and a PROXY
 * header over the socket (HAProxy and nginx can speak to one). The exchange has no IP addresses there.
 */
@Timeout(60)
class UnixSocketTest {
    @TempDir
    Path dir;
    private HttpServer server;

    @AfterEach
    void stop() throws Exception {
        if (server != null) {
            server.stop(Duration.ZERO);
        }
    }

    private Path start(ServerOptions.Builder options) throws IOException {
        Path socket = dir.resolve("fleche.sock");
        server = HttpServer.create(options.unixSocket(socket).reactors(1).build(), UnixSocketTest::answer).start();
        return socket;
    }

    private static void answer(HttpExchange exchange) {
        String text = exchange.version() + " " + exchange.method() + " " + exchange.target() + " host="
                + exchange.headers().get("Host") + " remote=" + exchange.remoteAddress() + " local="
                + exchange.localAddress() + "\n";
        exchange.respond(200, new HttpFields().add("Content-Type", "text/plain"), text.getBytes(ISO_8859_1));
    }

    private static SocketChannel connect(Path socket) throws IOException {
        return SocketChannel.open(UnixDomainSocketAddress.of(socket));
    }

    @Test
    void http11OverTheJdksSocketChannel() throws Exception {
        Path socket = start(ServerOptions.builder());
        assertEquals(-1, server.port());
        try (SocketChannel channel = connect(socket)) {
            channel.write(ByteBuffer.wrap("GET /a?b=1 HTTP/1.1\r\nHost: localhost\r\n\r\n".getBytes(ISO_8859_1)));
            String body = "HTTP/1.1 GET /a?b=1 host=localhost remote=null local=null\n";
            assertEquals("HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\nDate: <date>\r\nContent-Length: "
                    + body.length() + "\r\n\r\n" + body, RawClient.normalize(ProxyProtocolTest.readResponse(
                    Channels.newInputStream(channel))));
        }
        assertEquals(1, server.metrics().requests());
    }

    @Test
    void h2cByPriorKnowledgeOverTheJdksSocketChannel() throws Exception {
        Path socket = start(ServerOptions.builder());
        try (SocketChannel channel = connect(socket)) {
            var in = Channels.newInputStream(channel);
            // preface, empty SETTINGS, then HEADERS on stream 1 (END_STREAM | END_HEADERS): GET http / with an
            // authority, HPACK static-table indexes 2, 6, 4 and a literal :authority (name index 1)
            byte[] authority = "localhost".getBytes(ISO_8859_1);
            ByteBuffer block = ByteBuffer.allocate(5 + authority.length).put((byte) 0x82).put((byte) 0x86)
                    .put((byte) 0x84).put((byte) 0x01).put((byte) authority.length).put(authority);
            ByteBuffer out = ByteBuffer.allocate(24 + 9 + 9 + block.capacity());
            out.put("PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n".getBytes(ISO_8859_1));
            out.put(new byte[] {0, 0, 0, 4, 0, 0, 0, 0, 0});
            out.put(new byte[] {0, 0, (byte) block.capacity(), 1, 5, 0, 0, 0, 1}).put(block.array());
            channel.write(out.flip());
            String data = null;
            for (int frames = 0; frames < 10 && data == null; frames++) {
                byte[] head = in.readNBytes(9);
                int length = (head[0] & 0xFF) << 16 | (head[1] & 0xFF) << 8 | head[2] & 0xFF;
                byte[] payload = in.readNBytes(length);
                if (head[3] == 0) { // DATA
                    data = new String(payload, ISO_8859_1);
                }
            }
            assertEquals("HTTP/2 GET / host=null remote=null local=null\n", data);
        }
        assertEquals(1, server.metrics().http2Connections());
    }

    @Test
    void curlOverTheSocketHttp11AndH2c() throws Exception {
        assumeTrue(installed("curl"), "curl is not installed");
        Path socket = start(ServerOptions.builder());
        assertEquals("HTTP/1.1 GET /x host=localhost remote=null local=null\n",
                run("curl", "-sS", "--unix-socket", socket.toString(), "http://localhost/x"));
        assertEquals("HTTP/2 GET /y host=null remote=null local=null\n",
                run("curl", "-sS", "--http2-prior-knowledge", "--unix-socket", socket.toString(),
                        "http://localhost/y"));
    }

    @Test
    void theFileGetsItsPermissionsAndGoesAtStop() throws Exception {
        Path socket = start(ServerOptions.builder().unixSocketPermissions("rw-------"));
        assertEquals("rw-------", PosixFilePermissions.toString(Files.getPosixFilePermissions(socket)));
        server.stop(Duration.ZERO);
        server = null;
        assertFalse(Files.exists(socket), "the socket file is deleted at stop");
        Path defaults = start(ServerOptions.builder());
        assertEquals("rw-rw----", PosixFilePermissions.toString(Files.getPosixFilePermissions(defaults)));
    }

    @Test
    void aStaleFileIsReplacedALiveServerIsNot() throws Exception {
        Path path = dir.resolve("fleche.sock");
        try (ServerSocketChannel dead = ServerSocketChannel.open(StandardProtocolFamily.UNIX)) {
            dead.bind(UnixDomainSocketAddress.of(path)); // closed without deleting its file: a crashed server
        }
        assertTrue(Files.exists(path));
        start(ServerOptions.builder());
        try (SocketChannel channel = connect(path)) {
            assertTrue(channel.isConnected());
        }
        BindException live = assertThrows(BindException.class, () -> HttpServer.create(
                ServerOptions.builder().unixSocket(path).reactors(1).build(), UnixSocketTest::answer).start());
        assertTrue(live.getMessage().contains("already listens"), live.getMessage());
        Path file = dir.resolve("not-a-socket");
        Files.writeString(file, "keep me");
        BindException regular = assertThrows(BindException.class, () -> HttpServer.create(
                ServerOptions.builder().unixSocket(file).reactors(1).build(), UnixSocketTest::answer).start());
        assertTrue(regular.getMessage().contains("is not a socket"), regular.getMessage());
        assertEquals("keep me", Files.readString(file));
    }

    @Test
    void aProxyHeaderOverTheSocketGivesTheClientsAddress() throws Exception {
        // no trusted range matches a Unix peer: who may connect is the file's mode
        Path socket = start(ServerOptions.builder().proxyProtocol(ProxyProtocol.builder().trust("192.0.2.1").build()));
        byte[] header = HexFormat.of().parseHex("0d0a0d0a000d0a515549540a" + "21" + "11" + "000c"
                + "cb007105" + "0a000002" + "9c40" + "0050");
        try (SocketChannel channel = connect(socket)) {
            channel.write(ByteBuffer.wrap(ProxyProtocolTest.concat(header,
                    "GET / HTTP/1.1\r\nHost: h\r\n\r\n".getBytes(ISO_8859_1))));
            String response = ProxyProtocolTest.readResponse(Channels.newInputStream(channel));
            assertTrue(response.endsWith("remote=/203.0.113.5:40000 local=/10.0.0.2:80\n"), response);
        }
    }

    static boolean installed(String tool) {
        try {
            return new ProcessBuilder(tool, "--version").redirectErrorStream(true).start().waitFor(10,
                    TimeUnit.SECONDS);
        } catch (IOException e) {
            return false;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }

    static String run(String... command) throws Exception {
        Process process = new ProcessBuilder(List.of(command)).redirectErrorStream(true).start();
        String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(process.waitFor(20, TimeUnit.SECONDS), "ended");
        assertEquals(0, process.exitValue(), output);
        return output;
    }
}
