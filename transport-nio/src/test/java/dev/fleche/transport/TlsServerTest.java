package dev.fleche.transport;

import static java.nio.charset.StandardCharsets.ISO_8859_1;
import static java.nio.charset.StandardCharsets.UTF_8;
import static java.util.concurrent.TimeUnit.SECONDS;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import dev.fleche.transport.TlsOptions.ClientAuth;
import dev.fleche.transport.testing.TestCertificates;
import dev.fleche.transport.testing.TestCertificates.ServerKey;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLParameters;
import javax.net.ssl.SSLSocket;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * HTTPS end to end: {@link HttpServer} with {@link ServerOptions#tls()} against real clients — the JDK
 * {@code HttpClient}, {@code SSLSocket}, raw sockets and {@code openssl s_client} (skipped where it is not
 * installed; {@code .ci/run} installs it). Certificates are made at test time by {@link TestCertificates}.
 */
@Timeout(value = 120, unit = SECONDS)
class TlsServerTest {
    private static TestCertificates certificates;

    private final ExecutorService workers = Executors.newCachedThreadPool();
    private final CapturedEvents captured = new CapturedEvents();
    private final List<String> events = captured.events();
    private HttpServer server;

    @BeforeAll
    static void makeCertificates() {
        certificates = TestCertificates.get();
    }

    @BeforeEach
    void listen() {
        captured.start();
    }

    @AfterEach
    void stop() throws Exception {
        if (server != null) {
            server.stop(Duration.ZERO);
        }
        workers.shutdownNow();
        captured.close();
    }

    // ---------------------------------------------------------------- helpers

    private static TlsOptions.Builder tls() {
        return TlsOptions.builder(certificates.serverContext(ServerKey.EC_P256));
    }

    /** A server answering with what the exchange knows of its TLS connection. */
    private HttpServer start(TlsOptions tls) throws IOException {
        return start(RawClient.loopback().tls(tls).build(), TlsServerTest::describe);
    }

    private HttpServer start(ServerOptions options, HttpHandler handler) throws IOException {
        server = HttpServer.create(options, handler).start();
        return server;
    }

    private static void describe(HttpExchange exchange) {
        TlsInfo tls = exchange.tls();
        String text = tls == null ? "secure=" + exchange.isSecure() + "\n"
                : "secure=" + exchange.isSecure() + " protocol=" + tls.protocol() + " cipher=" + tls.cipherSuite()
                        + " alpn=" + tls.applicationProtocol() + " sni=" + tls.sniHostName() + " clientCerts="
                        + tls.peerCertificates().size() + (tls.peerCertificates().isEmpty() ? ""
                        : " subject=" + tls.peerCertificates().get(0).getSubjectX500Principal().getName()) + "\n";
        exchange.respond(200, new HttpFields().add("Content-Type", "text/plain"), text.getBytes(UTF_8));
    }

    private static HttpClient httpClient(SSLContext context, String protocol) {
        SSLParameters parameters = new SSLParameters();
        parameters.setProtocols(new String[] {protocol});
        return HttpClient.newBuilder().sslContext(context).sslParameters(parameters)
                .version(HttpClient.Version.HTTP_1_1).connectTimeout(Duration.ofSeconds(10)).build();
    }

    private HttpResponse<String> get(HttpClient client, String path) throws Exception {
        HttpRequest request = HttpRequest.newBuilder(URI.create("https://localhost:" + server.port() + path))
                .timeout(Duration.ofSeconds(20)).build();
        return client.send(request, HttpResponse.BodyHandlers.ofString());
    }

    private SSLSocket connect(SSLContext context) throws IOException {
        SSLSocket socket = (SSLSocket) context.getSocketFactory().createSocket(InetAddress.getLoopbackAddress(),
                server.port());
        socket.setSoTimeout(20_000);
        return socket;
    }

    /** Reads one response with a {@code Content-Length} body from {@code in}; returns head and body as text. */
    private static String readResponse(InputStream in) throws IOException {
        ByteArrayOutputStream head = new ByteArrayOutputStream();
        int matched = 0;
        while (matched < 4) {
            int b = in.read();
            if (b < 0) {
                fail("EOF in a response head: " + head.toString(ISO_8859_1));
            }
            head.write(b);
            matched = (b == (matched % 2 == 0 ? '\r' : '\n')) ? matched + 1 : (b == '\r' ? 1 : 0);
        }
        String text = head.toString(ISO_8859_1);
        int at = text.toLowerCase().indexOf("content-length: ");
        int length = Integer.parseInt(text.substring(at + 16, text.indexOf('\r', at)).trim());
        byte[] body = in.readNBytes(length);
        assertEquals(length, body.length, "body of " + text);
        return text + new String(body, ISO_8859_1);
    }

    private boolean eventSeen(String prefix) {
        return events.stream().anyMatch(e -> e.startsWith(prefix));
    }

    // ---------------------------------------------------------------- real clients

    @ParameterizedTest
    @CsvSource({"TLSv1.3, EC_P256", "TLSv1.2, EC_P256", "TLSv1.3, RSA_2048", "TLSv1.2, RSA_2048"})
    void httpClientOverTls(String protocol, ServerKey key) throws Exception {
        start(TlsOptions.builder(certificates.serverContext(key)).build());
        HttpClient client = httpClient(certificates.clientContext(), protocol);
        for (int i = 0; i < 3; i++) { // keep-alive: one connection, three requests
            HttpResponse<String> response = get(client, "/hello");
            assertEquals(200, response.statusCode());
            String cipher = response.sslSession().orElseThrow().getCipherSuite();
            assertEquals("secure=true protocol=" + protocol + " cipher=" + cipher
                    + " alpn=null sni=localhost clientCerts=0\n", response.body()); // HttpClient: ALPN for h2 only
        }
        assertEquals(1, server.metrics().acceptedConnections());
        assertTrue(eventSeen("event=tls-handshake conn=1 protocol=" + protocol), events.toString());
    }

    @Test
    void plainServerReportsNoTls() throws Exception {
        start(RawClient.loopback().build(), TlsServerTest::describe);
        try (RawClient client = RawClient.connect(server)) {
            client.send("GET / HTTP/1.1\r\nHost: x\r\n\r\n");
            assertTrue(client.readResponse().endsWith("secure=false\n"));
        }
    }

    @ParameterizedTest
    @CsvSource({
        "NONE, false, ok",   "NONE, true, ok",
        "WANT, false, ok",   "WANT, true, cert",
        "NEED, false, fail", "NEED, true, cert"})
    void clientAuthentication(ClientAuth auth, boolean clientHasCertificate, String outcome) throws Exception {
        start(tls().clientAuth(auth).build());
        SSLContext context = clientHasCertificate ? certificates.clientContextWithCertificate()
                : certificates.clientContext();
        for (String protocol : List.of("TLSv1.3", "TLSv1.2")) {
            HttpClient client = httpClient(context, protocol);
            switch (outcome) {
                case "ok" -> assertTrue(get(client, "/").body().endsWith(" clientCerts=0\n"), protocol);
                case "cert" -> assertTrue(get(client, "/").body()
                        .endsWith(" clientCerts=2 subject=CN=Fleche Test Client\n"), protocol);
                default -> assertThrows(IOException.class, () -> get(client, "/"), protocol);
            }
        }
        if (outcome.equals("fail")) {
            // (the JDK client may retry a failed handshake once: at least one failure per protocol)
            Await.until("the failed handshakes are told", () -> events.stream()
                    .filter(e -> e.startsWith("event=tls-error")).count() >= 2);
            assertTrue(events.stream().filter(e -> e.startsWith("event=tls-error"))
                    .allMatch(e -> e.endsWith("Empty client certificate chain\"")), events.toString());
            assertEquals(0, server.metrics().requests());
        }
    }

    // ---------------------------------------------------------------- refusals

    @Test
    void plainHttpOnTheTlsPortGetsAPlaintext400() throws Exception {
        start(tls().build());
        try (RawClient client = RawClient.connect(server)) {
            client.send("GET / HTTP/1.1\r\nHost: x\r\n\r\n");
            assertEquals("""
                    HTTP/1.1 400 Bad Request\r
                    Date: <date>\r
                    Content-Type: text/plain; charset=us-ascii\r
                    Content-Length: 24\r
                    Connection: close\r
                    \r
                    This port speaks HTTPS.
                    """, client.readToEof());
        }
        Await.until("the refusal is told", () -> eventSeen("event=reject conn=1 status=400"));
        Await.until("the connection closes", () -> server.metrics().closedConnections() == 1);
        assertEquals(1, server.metrics().protocolErrors());
    }

    @Test
    void overloadOnTheTlsPortClosesWithoutPlaintext() throws Exception {
        start(RawClient.loopback().maxConnections(1).tls(tls().build()).build(), TlsServerTest::describe);
        try (SSLSocket first = connect(certificates.clientContext())) {
            first.getOutputStream().write("GET / HTTP/1.1\r\nHost: x\r\n\r\n".getBytes(ISO_8859_1));
            assertTrue(readResponse(first.getInputStream()).startsWith("HTTP/1.1 200 "));
            try (RawClient second = RawClient.connect(server)) { // over the limit: no 503 in clear, just the end
                assertEquals("", second.readToEof());
            }
            assertEquals(1, server.metrics().refusedConnections());
        }
    }

    @Test
    void garbageBeforeTheHandshakeClosesWithAnEvent() throws Exception {
        start(tls().build());
        try (Socket socket = new Socket(InetAddress.getLoopbackAddress(), server.port())) {
            socket.setSoTimeout(10_000);
            socket.getOutputStream().write(new byte[] {0x01, 0x02, 0x03, 0x04, 0x05, 0x06});
            socket.getInputStream().readAllBytes(); // whatever alert the engine sent, then EOF
        }
        Await.until("the failure is told", () -> eventSeen("event=tls-error conn=1"));
        assertTrue(events.stream().noneMatch(e -> e.startsWith("event=connection-error")), events.toString());
    }

    @Test
    void handshakeTimeoutClosesAClientThatSendsNothing() throws Exception {
        start(RawClient.loopback().idleTimeout(Duration.ofMinutes(5))
                .tls(tls().handshakeTimeout(Duration.ofMillis(300)).build()).build(), TlsServerTest::describe);
        try (Socket socket = new Socket(InetAddress.getLoopbackAddress(), server.port())) {
            socket.setSoTimeout(20_000);
            byte[] sent = socket.getInputStream().readAllBytes(); // until the server closes
            assertTrue(sent.length == 0 || sent[0] == 0x15, "at most an alert record before the close");
        }
        Await.until("the timeout is counted", () -> server.metrics().timeouts() == 1);
        assertTrue(eventSeen("event=timeout conn=1 phase=handshake"), events.toString());
    }

    // ---------------------------------------------------------------- HTTP/1.1 over TLS behaves as over plain TCP

    @Test
    void pipelinedRequestsAreAnsweredInOrder() throws Exception {
        start(RawClient.loopback().tls(tls().build()).build(), exchange -> exchange.respond(200, new HttpFields(),
                ("path=" + exchange.target() + "\n").getBytes(UTF_8)));
        try (SSLSocket socket = connect(certificates.clientContext())) {
            StringBuilder requests = new StringBuilder();
            for (int i = 1; i <= 10; i++) {
                requests.append("GET /").append(i).append(" HTTP/1.1\r\nHost: x\r\n\r\n");
            }
            OutputStream out = socket.getOutputStream();
            out.write(requests.toString().getBytes(ISO_8859_1)); // one write: the requests arrive in few records
            out.flush();
            InputStream in = socket.getInputStream();
            for (int i = 1; i <= 10; i++) {
                assertTrue(readResponse(in).endsWith("\r\n\r\npath=/" + i + "\n"), "response " + i);
            }
        }
    }

    @Test
    void expectContinueOverTls() throws Exception {
        start(RawClient.loopback().tls(tls().build()).build(), exchange -> workers.execute(() -> {
            try {
                byte[] body = exchange.requestBody().readAllBytes();
                exchange.respond(200, new HttpFields(), ("got " + body.length + "\n").getBytes(UTF_8));
            } catch (IOException e) {
                exchange.abort();
            }
        }));
        try (SSLSocket socket = connect(certificates.clientContext())) {
            OutputStream out = socket.getOutputStream();
            out.write("PUT /u HTTP/1.1\r\nHost: x\r\nContent-Length: 5\r\nExpect: 100-continue\r\n\r\n"
                    .getBytes(ISO_8859_1));
            out.flush();
            InputStream in = socket.getInputStream();
            byte[] interim = in.readNBytes("HTTP/1.1 100 Continue\r\n\r\n".length());
            assertEquals("HTTP/1.1 100 Continue\r\n\r\n", new String(interim, ISO_8859_1));
            out.write("hello".getBytes(ISO_8859_1));
            out.flush();
            assertTrue(readResponse(in).endsWith("got 5\n"));
        }
    }

    @Test
    void afterTheHandshakeTheIdleTimeoutApplies() throws Exception {
        start(RawClient.loopback().idleTimeout(Duration.ofMillis(300))
                .tls(tls().handshakeTimeout(Duration.ofMinutes(5)).build()).build(), TlsServerTest::describe);
        try (SSLSocket socket = connect(certificates.clientContext())) {
            socket.startHandshake();
            assertEquals(-1, socket.getInputStream().read(), "close_notify, then EOF");
        }
        Await.until("the timeout is counted", () -> server.metrics().timeouts() == 1);
        assertTrue(eventSeen("event=timeout conn=1 phase=idle"), events.toString());
    }

    @Test
    void headerTimeoutAndBodyLimitAnswerOverTls() throws Exception {
        start(RawClient.loopback().headerTimeout(Duration.ofMillis(300)).maxBodyBytes(10)
                .tls(tls().build()).build(), TlsServerTest::describe);
        try (SSLSocket socket = connect(certificates.clientContext())) {
            socket.getOutputStream().write("GET / HTTP/1.1\r\n".getBytes(ISO_8859_1)); // and no more
            socket.getOutputStream().flush();
            assertTrue(readResponse(socket.getInputStream()).startsWith("HTTP/1.1 408 Request Timeout\r\n"));
            assertEquals(-1, socket.getInputStream().read());
        }
        try (SSLSocket socket = connect(certificates.clientContext())) {
            socket.getOutputStream().write("PUT / HTTP/1.1\r\nHost: x\r\nContent-Length: 100\r\n\r\n"
                    .getBytes(ISO_8859_1));
            socket.getOutputStream().flush();
            assertTrue(readResponse(socket.getInputStream()).startsWith("HTTP/1.1 413 Content Too Large\r\n"));
        }
    }

    @Test
    void slowReaderOfA256MiBResponseBlocksTheWriter() throws Exception {
        long total = 256L << 20;
        int block = 64 * 1024;
        byte[] pattern = new byte[block + 251];
        for (int i = 0; i < pattern.length; i++) {
            pattern[i] = (byte) (i % 251);
        }
        AtomicLong written = new AtomicLong();
        AtomicReference<Thread> writer = new AtomicReference<>();
        CompletableFuture<Void> done = new CompletableFuture<>();
        start(RawClient.loopback().tls(tls().build()).build(), exchange -> workers.execute(() -> {
            writer.set(Thread.currentThread());
            try (OutputStream body = exchange.startResponse(200, new HttpFields(), total)) {
                for (long at = 0; at < total; at += block) {
                    body.write(pattern, (int) (at % 251), block);
                    written.addAndGet(block);
                }
                done.complete(null);
            } catch (Throwable t) {
                done.completeExceptionally(t);
            }
        }));
        try (SSLSocket socket = connect(certificates.clientContext())) {
            socket.getOutputStream().write("GET /big HTTP/1.1\r\nHost: x\r\n\r\n".getBytes(ISO_8859_1));
            socket.getOutputStream().flush();
            Await.until("the handler starts writing", () -> writer.get() != null);
            Await.writerBlocked(writer.get(), written::get, () -> server.metrics().bytesWritten());
            long bound = 16L << 20;
            assertTrue(written.get() < bound,
                    "the writer got " + written.get() + " bytes out to a client that reads nothing");
            assertFalse(done.isDone());
            System.gc(); // informational: what the server retains while its writer is blocked
            Runtime runtime = Runtime.getRuntime();
            System.out.printf("TLS writer blocked after %,d bytes; heap used after GC %,d%n", written.get(),
                    runtime.totalMemory() - runtime.freeMemory());

            InputStream in = socket.getInputStream();
            ByteArrayOutputStream head = new ByteArrayOutputStream();
            while (!head.toString(ISO_8859_1).endsWith("\r\n\r\n")) {
                head.write(in.read());
            }
            assertTrue(head.toString(ISO_8859_1).startsWith("HTTP/1.1 200 OK\r\n"));
            assertTrue(head.toString(ISO_8859_1).contains("Content-Length: 268435456\r\n"));
            byte[] buffer = new byte[1 << 16];
            long position = 0;
            while (position < total) {
                int n = in.read(buffer);
                if (n < 0) {
                    fail("EOF after " + position + " body bytes");
                }
                for (int i = 0; i < n; i++) {
                    if (buffer[i] != (byte) ((position + i) % 251)) {
                        fail("body byte " + (position + i) + " is wrong");
                    }
                }
                position += n;
            }
            assertEquals(total, position);
        }
        done.get(20, SECONDS);
    }

    @Test
    void aThousandConcurrentTlsConnections() throws Exception {
        int count = 1_000;
        start(RawClient.loopback().tls(tls().build()).build(), exchange -> exchange.respond(200, new HttpFields(),
                ("conn=" + exchange.connectionId() + "\n").getBytes(UTF_8)));
        SSLContext context = certificates.clientContext();
        List<SSLSocket> sockets = new ArrayList<>(count);
        try {
            for (int i = 0; i < count; i++) {
                SSLSocket socket = connect(context);
                socket.startHandshake();
                sockets.add(socket);
            }
            Await.until("all are open", Duration.ofSeconds(30),
                    () -> server.metrics().openConnections() == count);
            for (SSLSocket socket : sockets) {
                socket.getOutputStream().write("GET / HTTP/1.1\r\nHost: x\r\n\r\n".getBytes(ISO_8859_1));
                socket.getOutputStream().flush();
            }
            for (SSLSocket socket : sockets) {
                assertTrue(readResponse(socket.getInputStream()).contains("\r\n\r\nconn="));
            }
            assertEquals(count, server.metrics().requests());
            assertEquals(count, server.metrics().openConnections());
        } finally {
            for (SSLSocket socket : sockets) {
                socket.close();
            }
        }
    }

    @Test
    void gracefulStopLetsAnExchangeInFlightFinish() throws Exception {
        CompletableFuture<HttpExchange> held = new CompletableFuture<>();
        start(RawClient.loopback().tls(tls().build()).build(), held::complete);
        try (SSLSocket socket = connect(certificates.clientContext())) {
            socket.getOutputStream().write("GET / HTTP/1.1\r\nHost: x\r\n\r\n".getBytes(ISO_8859_1));
            socket.getOutputStream().flush();
            HttpExchange exchange = held.get(10, SECONDS);
            CompletableFuture<Boolean> stopped = CompletableFuture.supplyAsync(() -> {
                try {
                    return server.stop(Duration.ofSeconds(20));
                } catch (InterruptedException e) {
                    throw new IllegalStateException(e);
                }
            }, workers);
            exchange.respond(200, new HttpFields(), "bye\n".getBytes(UTF_8));
            String response = readResponse(socket.getInputStream());
            assertTrue(response.endsWith("bye\n"));
            assertEquals(-1, socket.getInputStream().read(), "close_notify, then EOF");
            assertTrue(stopped.get(20, SECONDS));
        }
    }

    // ---------------------------------------------------------------- openssl s_client

    /** Whether Debian's {@code openssl} is on the PATH ({@code .ci/run} installs it; the tests skip without it). */
    private static boolean opensslOnPath() {
        for (String dir : System.getenv().getOrDefault("PATH", "").split(java.io.File.pathSeparator)) {
            if (java.nio.file.Files.isExecutable(java.nio.file.Path.of(dir, "openssl"))) {
                return true;
            }
        }
        return false;
    }

    /** {@code openssl s_client} to the server with {@code args}; stdout and stderr together. */
    private Process sClient(String... args) throws IOException {
        org.junit.jupiter.api.Assumptions.assumeTrue(opensslOnPath(), "openssl is not on the PATH");
        List<String> command = new ArrayList<>(List.of("openssl", "s_client", "-connect",
                "127.0.0.1:" + server.port(), "-servername", "localhost"));
        command.addAll(List.of(args));
        return new ProcessBuilder(command).redirectErrorStream(true).start();
    }

    /** Waits for {@code process} to end by itself (bounded) and returns its output. */
    private static String outputOf(Process process) throws Exception {
        CompletableFuture<String> output = CompletableFuture.supplyAsync(() -> {
            try {
                return new String(process.getInputStream().readAllBytes(), UTF_8);
            } catch (IOException e) {
                return e.toString();
            }
        });
        if (!process.waitFor(30, SECONDS)) {
            process.destroyForcibly();
            fail("openssl s_client did not end: " + output.getNow("(no output yet)"));
        }
        return output.get(10, SECONDS);
    }

    private static final String REQUEST_WITH_CLOSE = "GET / HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n";

    @Test
    void opensslOfferingOnlyH2FailsTheHandshakeCleanlyWhenHttp2IsOff() throws Exception {
        start(RawClient.loopback().http2Alpn(false).tls(tls().build()).build(), TlsServerTest::describe);
        Process client = sClient("-alpn", "h2");
        client.getOutputStream().close();
        String output = outputOf(client);
        assertTrue(output.contains("no application protocol"), output);
        assertTrue(client.exitValue() != 0, output);
        Await.until("the failure is told", () -> eventSeen("event=tls-error conn=1"));
        assertEquals(0, server.metrics().requests());
    }

    @Test
    void opensslOfferingH2GetsH2() throws Exception {
        start(tls().build());
        Process client = sClient("-alpn", "h2,http/1.1");
        client.getOutputStream().close();
        String output = outputOf(client);
        assertTrue(output.contains("ALPN protocol: h2"), output);
    }

    @Test
    void opensslOfferingHttp11IsServedAndClosedWithCloseNotify() throws Exception {
        start(tls().build());
        Process client = sClient("-alpn", "http/1.1", "-ign_eof", "-msg");
        client.getOutputStream().write(REQUEST_WITH_CLOSE.getBytes(ISO_8859_1));
        client.getOutputStream().close();
        String output = outputOf(client); // ends because the server closes: close_notify, then FIN
        assertTrue(output.contains("ALPN protocol: http/1.1"), output);
        assertTrue(output.contains("HTTP/1.1 200 OK\r\n"), output);
        assertTrue(output.contains("secure=true protocol=TLSv1.3"), output);
        assertTrue(output.contains("alpn=http/1.1 sni=localhost clientCerts=0"), output);
        assertTrue(output.lines().anyMatch(line -> line.startsWith("<<< ") && line.contains("close_notify")),
                "the server sent close_notify: " + output);
    }

    @Test
    void aClientsCloseNotifyEndsTheConnectionCleanly() throws Exception {
        start(tls().build());
        try (SSLSocket socket = connect(certificates.clientContext())) {
            SSLParameters parameters = socket.getSSLParameters();
            parameters.setProtocols(new String[] {"TLSv1.3"});
            socket.setSSLParameters(parameters);
            socket.getOutputStream().write("GET / HTTP/1.1\r\nHost: x\r\n\r\n".getBytes(ISO_8859_1));
            socket.getOutputStream().flush();
            assertTrue(readResponse(socket.getInputStream()).endsWith("clientCerts=0\n"));
            socket.shutdownOutput(); // TLS 1.3 half-close: close_notify, then FIN
            assertEquals(-1, socket.getInputStream().read(), "the server answers with its close_notify");
        }
        Await.until("the connection closes", () -> eventSeen("event=close conn=1 reason=eof"));
        assertTrue(events.stream().noneMatch(e -> e.startsWith("event=tls-error")), events.toString());
    }

    @Test
    void opensslRenegotiationIsRefused() throws Exception {
        start(tls().build());
        Process client = sClient("-tls1_2");
        OutputStream in = client.getOutputStream();
        in.write("R\n".getBytes(ISO_8859_1)); // s_client's command: renegotiate
        in.flush();
        Await.until("the refusal is told", Duration.ofSeconds(20),
                () -> eventSeen(
                        "event=tls-error conn=1 state=IDLE message=\"client-initiated renegotiation refused\""));
        Await.until("the connection closes", () -> server.metrics().closedConnections() == 1);
        in.close();
        String output = outputOf(client);
        assertTrue(output.contains("RENEGOTIATING"), output);
        assertEquals(0, server.metrics().requests());
    }
}
