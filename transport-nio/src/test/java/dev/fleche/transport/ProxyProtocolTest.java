package dev.fleche.transport;

import static java.nio.charset.StandardCharsets.ISO_8859_1;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.fleche.transport.testing.TestCertificates;
import dev.fleche.transport.testing.TestCertificates.ServerKey;

import java.io.IOException;
import java.io.InputStream;
import java.net.InetAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.UnaryOperator;
import javax.net.ssl.SSLSocket;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The PROXY protocol on a listener, over real sockets with exact bytes: the client's address the header carries is
 * the exchange's, the access log's and the events'; a connection from an untrusted address, without a header, with
 * a malformed, truncated or slow one is closed without a byte and counted by its rule; it works in front of TLS and
 * of HTTP/2 (h2c, {@code http2.ProxyHttp2Test}). The header bytes are written out as the specification lays them out;
 * the parser's own corpus is {@code internal.ProxyHeaderParserTest}, a real sender (HAProxy) {@code HaproxyIT}.
 */
@Timeout(60)
class ProxyProtocolTest {
    private static final HexFormat HEX = HexFormat.of();
    /** v2 PROXY TCP over IPv4: 203.0.113.5:40000 to 10.0.0.2:8443, with ALPN "http/1.1" and AUTHORITY "api.test". */
    private static final byte[] V2_IPV4 = HEX.parseHex("0d0a0d0a000d0a515549540a" + "21" + "11" + "0022"
            + "cb007105" + "0a000002" + "9c40" + "20fb"
            + "01" + "0008" + HEX.formatHex("http/1.1".getBytes(ISO_8859_1))
            + "02" + "0008" + HEX.formatHex("api.test".getBytes(ISO_8859_1)));
    /** v2 PROXY TCP over IPv6: [2001:db8::1]:1234 to [2001:db8::2]:443. */
    private static final byte[] V2_IPV6 = HEX.parseHex("0d0a0d0a000d0a515549540a" + "21" + "21" + "0024"
            + "20010db8000000000000000000000001" + "20010db8000000000000000000000002" + "04d2" + "01bb");
    /** v2 LOCAL, AF_UNSPEC: a proxy's own health check. */
    private static final byte[] V2_LOCAL = HEX.parseHex("0d0a0d0a000d0a515549540a" + "20" + "00" + "0000");
    private static final String GET = "GET /who HTTP/1.1\r\nHost: t\r\n\r\n";

    private final AtomicLong nanos = new AtomicLong();
    private HttpServer server;

    @AfterEach
    void stop() throws Exception {
        if (server != null) {
            server.stop(Duration.ZERO);
        }
    }

    private void start(String trusted, UnaryOperator<ServerOptions.Builder> more) throws IOException {
        ServerOptions options = more.apply(RawClient.loopback().reactors(1).nanoClock(nanos::get)
                .proxyProtocol(ProxyProtocol.builder().trust(trusted).build())).build();
        server = HttpServer.create(options, ProxyProtocolTest::who).start();
    }

    private void start() throws IOException {
        start("127.0.0.0/8", b -> b);
    }

    /** Answers with what the exchange knows of its connection's ends. */
    static void who(HttpExchange exchange) {
        ProxyInfo proxy = exchange.proxy();
        String text = "remote=" + exchange.remoteAddress() + " local=" + exchange.localAddress() + " proxy="
                + (proxy == null ? "none" : "v" + proxy.version() + (proxy.local() ? " local" : "") + " alpn="
                + proxy.alpn() + " authority=" + proxy.authority() + " tls=" + proxy.clientTls())
                + " secure=" + exchange.isSecure() + "\n";
        exchange.respond(200, new HttpFields().add("Content-Type", "text/plain"),
                text.getBytes(StandardCharsets.US_ASCII));
    }

    private static String answer(String body) {
        return "HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\nDate: <date>\r\nContent-Length: " + body.length()
                + "\r\n\r\n" + body;
    }

    // ---------------------------------------------------------------- headers taken

    @Test
    void v1GivesTheClientsAddressToTheExchange() throws Exception {
        start();
        try (RawClient client = RawClient.connect(server)) {
            client.send("PROXY TCP4 192.0.2.10 198.51.100.1 56324 443\r\n" + GET);
            assertEquals(answer("remote=/192.0.2.10:56324 local=/198.51.100.1:443 proxy=v1 alpn=null "
                    + "authority=null tls=false secure=false\n"), client.readResponse());
            client.send(GET); // the same connection, the same client
            assertEquals(answer("remote=/192.0.2.10:56324 local=/198.51.100.1:443 proxy=v1 alpn=null "
                    + "authority=null tls=false secure=false\n"), client.readResponse());
        }
    }

    @Test
    void v2Ipv4WithItsTlvs() throws Exception {
        start();
        try (RawClient client = RawClient.connect(server)) {
            client.send(V2_IPV4).send(GET);
            assertEquals(answer("remote=/203.0.113.5:40000 local=/10.0.0.2:8443 proxy=v2 alpn=http/1.1 "
                    + "authority=api.test tls=false secure=false\n"), client.readResponse());
        }
    }

    @Test
    void v2Ipv6() throws Exception {
        start();
        try (RawClient client = RawClient.connect(server)) {
            client.send(concat(V2_IPV6, GET.getBytes(ISO_8859_1)));
            assertEquals(answer("remote=/[2001:db8:0:0:0:0:0:1]:1234 local=/[2001:db8:0:0:0:0:0:2]:443 proxy=v2 "
                    + "alpn=null authority=null tls=false secure=false\n"), client.readResponse());
        }
    }

    @Test
    void localAndUnknownKeepTheSocketsAddresses() throws Exception {
        start();
        for (byte[] header : List.of(V2_LOCAL, "PROXY UNKNOWN\r\n".getBytes(ISO_8859_1))) {
            try (Socket socket = new Socket(InetAddress.getLoopbackAddress(), server.port())) {
                socket.setSoTimeout(RawClient.TIMEOUT_MILLIS);
                socket.getOutputStream().write(concat(header, GET.getBytes(ISO_8859_1)));
                String response = RawClient.normalize(readResponse(socket.getInputStream()));
                String version = header == V2_LOCAL ? "v2" : "v1";
                assertEquals(answer("remote=/127.0.0.1:" + socket.getLocalPort() + " local=/127.0.0.1:"
                        + server.port() + " proxy=" + version + " local alpn=null authority=null tls=false "
                        + "secure=false\n"), response);
            }
        }
    }

    @Test
    void aHeaderSentInPiecesIsWaitedFor() throws Exception {
        start();
        try (RawClient client = RawClient.connect(server)) {
            client.send(slice(V2_IPV4, 0, 5));
            awaitRead(5);
            client.send(slice(V2_IPV4, 5, 14));
            awaitRead(14);
            client.send(concat(slice(V2_IPV4, 14, V2_IPV4.length), "GET /who HTTP/1.1\r\n".getBytes(ISO_8859_1)));
            awaitRead(V2_IPV4.length + 19);
            client.send("Host: t\r\n\r\n");
            assertTrue(client.readResponse().contains("remote=/203.0.113.5:40000"));
        }
        assertEquals(0, server.metrics().refusalsByRule().size());
    }

    // ---------------------------------------------------------------- refusals

    @Test
    void anUntrustedSourceIsClosedBeforeAByteIsRead() throws Exception {
        start("10.0.0.0/8", b -> b);
        try (RawClient client = RawClient.connect(server)) {
            client.send("PROXY TCP4 192.0.2.10 198.51.100.1 56324 443\r\n" + GET);
            client.assertEof();
        }
        awaitRefused("PROXY_SOURCE_UNTRUSTED");
        assertEquals(0, server.metrics().bytesRead());
        assertEquals(0, server.metrics().requests());
    }

    @Test
    void noHeaderMalformedOrTruncatedIsClosedWithoutAByte() throws Exception {
        start();
        List<String> sent = List.of(GET, "PROXY TCP4 192.0.2.10 198.51.100.1 56324 99999\r\n" + GET);
        List<String> rules = List.of("PROXY_HEADER_MISSING", "PROXY_V1_MALFORMED");
        for (int i = 0; i < sent.size(); i++) {
            try (RawClient client = RawClient.connect(server)) {
                client.send(sent.get(i));
                client.assertEof();
            }
            awaitRefused(rules.get(i));
        }
        try (RawClient client = RawClient.connect(server)) {
            client.send(slice(V2_IPV4, 0, 20)); // the address block cut short
            client.shutdownOutput();
            client.assertEof();
        }
        awaitRefused("PROXY_HEADER_TRUNCATED");
        try (RawClient client = RawClient.connect(server)) {
            byte[] huge = V2_IPV4.clone();
            huge[14] = (byte) 0xff; // length 65311: beyond maxHeaderBytes, refused from the 16 fixed bytes
            client.send(huge);
            client.assertEof();
        }
        awaitRefused("PROXY_HEADER_TOO_LONG");
        assertEquals(4, server.metrics().protocolErrors());
        assertEquals(0, server.metrics().requests());
    }

    @Test
    void aSlowHeaderIsClosedAtTheHeaderTimeout() throws Exception {
        start();
        try (RawClient client = RawClient.connect(server)) {
            client.send("PROXY TCP4 192.0");
            awaitRead(16);
            nanos.addAndGet(Duration.ofSeconds(19).toNanos());
            assertTrue(client.readsNothing(), "still within the 20 s header timeout");
            nanos.addAndGet(Duration.ofSeconds(2).toNanos());
            client.assertEof();
        }
        awaitRefused("PROXY_HEADER_TIMEOUT");
        assertEquals(1, server.metrics().timeouts());
        Await.until("the connection closed", () -> server.metrics().openConnections() == 0);
    }

    @Test
    void aRefusalIsAccessLoggedWithItsRuleAndATakenHeaderGivesTheLogItsClient() throws Exception {
        CapturedLines lines = new CapturedLines();
        try {
            start("127.0.0.1", b -> b.accessLog(AccessLog.builder().format(AccessLog.Format.JSON)
                    .logger(lines.name()).build()));
            try (RawClient client = RawClient.connect(server)) {
                client.send(V2_IPV4).send(GET);
                client.readResponse();
            }
            try (RawClient client = RawClient.connect(server)) {
                client.send(GET);
                client.assertEof();
            }
            List<String> logged = lines.await(2);
            assertTrue(logged.get(0).contains("\"remote\":\"203.0.113.5\""), logged.get(0));
            assertTrue(logged.get(1).contains("\"remote\":\"127.0.0.1\"") && logged.get(1).contains(
                    "\"rule\":\"PROXY_HEADER_MISSING\"") && logged.get(1).contains("\"status\":0"), logged.get(1));
        } finally {
            lines.release();
            stop();
            server = null;
            lines.close();
        }
    }

    // ---------------------------------------------------------------- in front of TLS

    @Test
    void theHeaderComesBeforeTheTlsHandshake() throws Exception {
        TestCertificates certificates = TestCertificates.get();
        start("127.0.0.1", b -> b.tls(TlsOptions.builder(certificates.serverContext(ServerKey.EC_P256)).build()));
        try (Socket plain = new Socket(InetAddress.getLoopbackAddress(), server.port())) {
            plain.setSoTimeout(RawClient.TIMEOUT_MILLIS);
            plain.getOutputStream().write(V2_IPV4); // then the ClientHello, maybe in the same segment
            try (SSLSocket tls = (SSLSocket) certificates.clientContext().getSocketFactory()
                    .createSocket(plain, "localhost", server.port(), true)) {
                tls.getOutputStream().write(GET.getBytes(ISO_8859_1));
                assertEquals(answer("remote=/203.0.113.5:40000 local=/10.0.0.2:8443 proxy=v2 alpn=http/1.1 "
                        + "authority=api.test tls=false secure=true\n"),
                        RawClient.normalize(readResponse(tls.getInputStream())));
            } catch (IOException e) {
                throw new AssertionError("the server's metrics: " + server.metrics(), e);
            }
        }
        // a TLS client without the header: refused before the handshake, not a TLS error
        try (SSLSocket tls = (SSLSocket) certificates.clientContext().getSocketFactory()
                .createSocket(InetAddress.getLoopbackAddress(), server.port())) {
            tls.setSoTimeout(RawClient.TIMEOUT_MILLIS);
            assertThrows(IOException.class, tls::startHandshake);
        }
        awaitRefused("PROXY_HEADER_MISSING");
    }

    // ---------------------------------------------------------------- helpers

    private void awaitRead(long bytes) {
        Await.until("the server read " + bytes + " bytes", () -> server.metrics().bytesRead() == bytes);
    }

    private void awaitRefused(String rule) {
        Await.until("a refusal by " + rule, () -> server.metrics().refusals(rule) == 1);
    }

    /** One response (Content-Length framing) from a blocking stream, as text. */
    static String readResponse(InputStream in) throws IOException {
        StringBuilder head = new StringBuilder();
        while (!head.toString().endsWith("\r\n\r\n")) {
            int b = in.read();
            if (b < 0) {
                throw new IOException("EOF in the head: " + head);
            }
            head.append((char) b);
        }
        int at = head.indexOf("Content-Length: ") + "Content-Length: ".length();
        int length = Integer.parseInt(head.substring(at, head.indexOf("\r\n", at)));
        return head + new String(in.readNBytes(length), ISO_8859_1);
    }

    static byte[] slice(byte[] bytes, int from, int to) {
        return Arrays.copyOfRange(bytes, from, to);
    }

    static byte[] concat(byte[] a, byte[] b) {
        byte[] both = new byte[a.length + b.length];
        System.arraycopy(a, 0, both, 0, a.length);
        System.arraycopy(b, 0, both, a.length, b.length);
        return both;
    }
}
