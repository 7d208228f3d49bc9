package dev.fleche.transport.http2;

import dev.fleche.transport.HttpExchange;
import dev.fleche.transport.HttpFields;
import dev.fleche.transport.HttpServer;
import dev.fleche.transport.ServerOptions;
import dev.fleche.transport.http2.H2Client.Frame;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.UnaryOperator;

import static dev.fleche.transport.http2.H2Client.*;
import static java.nio.charset.StandardCharsets.UTF_8;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * HTTP/2 by prior knowledge with raw frames: exchanges, and every refusal with its exact frame (RFC 9113 sections 5,
 * 6 and 8), and the attacks each bounded by a named limit (rapid reset, CONTINUATION flood, HPACK bomb, SETTINGS,
 * PING and empty-frame floods, zero-window stall, stream-id regression, too many streams).
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class Http2RawTest {
    /** The error codes of RFC 9113 section 7 that the tests expect. */
    private static final int NO_ERROR = 0, PROTOCOL_ERROR = 1, FLOW_CONTROL_ERROR = 3, STREAM_CLOSED = 5,
            REFUSED_STREAM = 7, CANCEL = 8, COMPRESSION_ERROR = 9, ENHANCE_YOUR_CALM = 0xb;

    private final ExecutorService workers = Executors.newCachedThreadPool();
    private final CountDownLatch disconnected = new CountDownLatch(1);
    private final CountDownLatch writerFailed = new CountDownLatch(1);
    private final AtomicReference<String> seen = new AtomicReference<>();
    private HttpServer server;

    @AfterEach
    void stop() throws Exception {
        if (server != null) {
            server.stop(Duration.ZERO);
        }
        workers.shutdownNow();
    }

    private void handle(HttpExchange exchange) {
        switch (exchange.path()) {
            case "/hello" -> exchange.respond(200, new HttpFields().add("X-Version", exchange.version()),
                    "hello".getBytes(UTF_8));
            case "/hang" -> exchange.onDisconnect(disconnected::countDown);
            case "/head" -> exchange.respond(200, new HttpFields().add("Content-Length", "1234"), new byte[0]);
            case "/noread" -> { } // holds its body unread, answers never
            case "/echo" -> workers.execute(() -> {
                try (InputStream in = exchange.requestBody()) {
                    byte[] body = in.readAllBytes();
                    seen.set("trailers=" + exchange.trailers().get("x-checksum"));
                    exchange.respond(200, new HttpFields(), body);
                } catch (IOException e) {
                    exchange.abort();
                }
            });
            case "/big" -> workers.execute(() -> {
                try (OutputStream out = exchange.startResponse(200, new HttpFields(), -1)) {
                    out.write(new byte[1024 * 1024]);
                } catch (IOException e) {
                    writerFailed.countDown();
                }
            });
            default -> exchange.respond(404, new HttpFields(), new byte[0]);
        }
    }

    private int start(UnaryOperator<ServerOptions.Builder> options) throws IOException {
        server = HttpServer.create(options.apply(ServerOptions.builder().address("127.0.0.1", 0).reactors(1)).build(),
                this::handle).start();
        return server.port();
    }

    private H2Client client(UnaryOperator<ServerOptions.Builder> options, int... settings) throws IOException {
        return new H2Client(start(options)).handshake(settings);
    }

    private H2Client client() throws IOException {
        return client(o -> o);
    }

    private static void goAway(H2Client client, int lastStream, int code) throws IOException {
        Frame goAway = client.expect(GOAWAY);
        assertEquals(code, goAway.errorCode(), new String(goAway.payload(), 8, goAway.payload().length - 8, UTF_8));
        assertEquals(lastStream, goAway.lastStream());
        assertTrue(client.closedByServer(), "closed after GOAWAY");
    }

    private static void reset(H2Client client, int stream, int code) throws IOException {
        Frame rst = client.expect(RST_STREAM);
        assertEquals(String.format("00000403000%07x%08x", stream, code), rst.hex());
    }

    // ---------------------------------------------------------------- exchanges

    @Test
    void serverSettingsThenAnswer() throws Exception {
        try (H2Client client = client()) {
            // MAX_CONCURRENT_STREAMS 128, INITIAL_WINDOW_SIZE 65536, MAX_FRAME_SIZE 16384,
            // MAX_HEADER_LIST_SIZE 16384, HEADER_TABLE_SIZE 4096, ENABLE_PUSH 0
            assertEquals("000024040000000000" + "000300000080" + "000400010000" + "000500004000" + "000600004000"
                    + "000100001000" + "000200000000", client.serverSettings.hex());
            client.get(1, "/hello");
            Frame head = client.expect(HEADERS);
            assertEquals(1, head.stream());
            assertEquals(END_HEADERS, head.flags());
            List<String> fields = client.fields(head);
            assertEquals(":status: 200", fields.get(0));
            assertTrue(fields.contains("x-version: HTTP/2"), fields.toString());
            assertTrue(fields.contains("content-length: 5"), fields.toString());
            assertEquals("000005000100000001" + "68656c6c6f", client.expect(DATA).hex());
            client.get(3, "/nothing");
            assertEquals(":status: 404", client.response(3));
        }
    }

    @Test
    void headKeepsTheLengthTheHandlerAnnounced() throws Exception {
        try (H2Client client = client()) {
            client.headers(1, true, ":method", "HEAD", ":scheme", "http", ":authority", "localhost", ":path", "/head");
            Frame head = client.expect(HEADERS);
            assertEquals(END_HEADERS | END_STREAM, head.flags());
            List<String> fields = client.fields(head);
            assertEquals(":status: 200", fields.get(0));
            assertTrue(fields.contains("content-length: 1234"), fields.toString());
            assertEquals(1, fields.stream().filter(f -> f.startsWith("content-length")).count(), fields.toString());
            client.get(3, "/head"); // GET: the length of the body sent (none)
            assertTrue(client.fields(client.expect(HEADERS)).contains("content-length: 0"));
        }
    }

    @Test
    void upgradeToH2cAnswers101ThenStreamOne() throws Exception {
        try (H2Client client = new H2Client(start(o -> o))) {
            // HTTP2-Settings: INITIAL_WINDOW_SIZE 1000, base64url without padding
            client.send(("GET /hello HTTP/1.1\r\nHost: localhost\r\nConnection: Upgrade, HTTP2-Settings\r\n"
                    + "Upgrade: h2c\r\nHTTP2-Settings: AAQAAAPo\r\n\r\n").getBytes(UTF_8));
            byte[] head = new byte[71];
            new java.io.DataInputStream(client.input()).readFully(head);
            assertEquals("HTTP/1.1 101 Switching Protocols\r\nConnection: Upgrade\r\nUpgrade: h2c\r\n\r\n",
                    new String(head, UTF_8));
            assertEquals(SETTINGS, client.next().type());
            client.send(PREFACE);
            client.frame(SETTINGS, 0, 0, new byte[0]);
            Frame response = client.expect(HEADERS);
            assertEquals(1, response.stream());
            assertTrue(client.fields(response).contains("x-version: HTTP/2"), "the upgraded request is stream 1");
            assertEquals("hello", new String(client.expect(DATA).payload(), UTF_8));
            client.get(3, "/hello");
            assertTrue(client.response(3).startsWith(":status: 200"));
        }
    }

    @Test
    void pingIsAnswered() throws Exception {
        try (H2Client client = client()) {
            client.frame(PING, 0, 0, new byte[] {1, 2, 3, 4, 5, 6, 7, 8});
            assertEquals("000008060100000000" + "0102030405060708", client.expect(PING).hex());
        }
    }

    @Test
    void bodyWithTrailersAndContinue() throws Exception {
        try (H2Client client = client()) {
            client.headers(1, false, ":method", "POST", ":scheme", "http", ":authority", "a", ":path", "/echo",
                    "expect", "100-continue");
            Frame interim = client.expect(HEADERS);
            assertEquals(List.of(":status: 100"), client.fields(interim));
            client.data(1, false, "abc".getBytes(UTF_8));
            client.headers(1, true, "x-checksum", "42");
            assertEquals(":status: 200|abc", client.response(1));
            assertEquals("trailers=42", seen.get());
        }
    }

    @Test
    void clientResetReachesTheExchangesDisconnect() throws Exception {
        try (H2Client client = client()) {
            client.get(1, "/hang");
            client.frame(PING, 0, 0, new byte[8]);
            client.expect(PING); // the handler has registered its callback by now (a task ran before the ping)
            client.rst(1, CANCEL);
            assertTrue(disconnected.await(10, TimeUnit.SECONDS), "onDisconnect ran");
            client.get(3, "/hello");
            assertTrue(client.response(3).startsWith(":status: 200"));
        }
    }

    @Test
    void drainFinishesTheStreamInFlightRefusesNewOnesThenSendsGoAway() throws Exception {
        try (H2Client client = client()) {
            client.headers(1, false, ":method", "POST", ":scheme", "http", ":authority", "a", ":path", "/echo");
            client.frame(PING, 0, 0, new byte[8]);
            client.expect(PING);
            Thread stopper = new Thread(() -> {
                try {
                    server.stop(Duration.ofSeconds(10));
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            });
            stopper.start();
            int stream = 3;
            while (true) { // served until the drain reaches the connection, then refused (safe to retry)
                assertTrue(stream < 2001, "no stream refused");
                client.get(stream, "/hello");
                Frame answer = client.next();
                while (answer.type() == DATA || answer.type() == WINDOW_UPDATE) {
                    answer = client.next();
                }
                if (answer.type() == RST_STREAM) {
                    assertEquals(String.format("00000403000%07x%08x", stream, REFUSED_STREAM), answer.hex());
                    break;
                }
                assertEquals(HEADERS, answer.type());
                stream += 2;
            }
            client.data(1, true, "late".getBytes(UTF_8));
            assertEquals(":status: 200|late", client.response(1));
            Frame goAway = client.expect(GOAWAY); // once the last stream is done; its last: the last one served
            assertEquals(String.format("000008070000000000%08x00000000", stream - 2), goAway.hex());
            assertTrue(client.closedByServer());
            stopper.join();
            server = null;
        }
    }

    @Test
    void accessLogLinesCarryTheProtocol(@org.junit.jupiter.api.io.TempDir java.nio.file.Path dir) throws Exception {
        java.nio.file.Path file = dir.resolve("access.log");
        try (H2Client client = client(o -> o.accessLog(dev.fleche.transport.AccessLog.builder()
                .format(dev.fleche.transport.AccessLog.Format.JSON).file(file).build()))) {
            client.headers(1, false, ":method", "POST", ":scheme", "http", ":path", "/echo", "user-agent", "raw");
            client.data(1, true, "abc".getBytes(UTF_8));
            assertEquals(":status: 200|abc", client.response(1));
            client.get(3, "/hang");
            client.rst(3, CANCEL);
            assertTrue(disconnected.await(10, TimeUnit.SECONDS));
        }
        server.stop(Duration.ofSeconds(5)); // writes every line accepted before it
        server = null;
        List<String> lines = java.nio.file.Files.readAllLines(file);
        assertEquals(2, lines.size(), lines.toString());
        String echo = lines.stream().filter(l -> l.contains("/echo")).findFirst().orElseThrow();
        assertTrue(echo.contains("\"method\":\"POST\",\"target\":\"/echo\",\"protocol\":\"HTTP/2\",\"status\":200,"
                + "\"bytesIn\":3,\"bytesOut\":3,"), echo);
        assertTrue(echo.contains("\"userAgent\":\"raw\""), echo);
        String hang = lines.stream().filter(l -> l.contains("/hang")).findFirst().orElseThrow();
        assertTrue(hang.contains("\"protocol\":\"HTTP/2\"") && hang.endsWith(",\"cut\":true}"), hang);
    }

    @Test
    void metricsCountRequestsByProtocol() throws Exception {
        try (H2Client client = client()) {
            client.get(1, "/hello");
            assertTrue(client.response(1).startsWith(":status: 200"));
            client.get(3, "/hang");
            client.rst(3, CANCEL);
            assertTrue(disconnected.await(10, TimeUnit.SECONDS));
        }
        try (java.net.Socket socket = new java.net.Socket("127.0.0.1", server.port())) {
            socket.setSoTimeout(10_000);
            socket.getOutputStream().write("GET /hello HTTP/1.1\r\nHost: t\r\nConnection: close\r\n\r\n"
                    .getBytes(UTF_8));
            assertTrue(new String(socket.getInputStream().readAllBytes(), UTF_8).startsWith("HTTP/1.1 200 "));
        }
        dev.fleche.transport.ServerMetrics m = server.metrics();
        assertEquals(java.util.Map.of("HTTP/1.0", 0L, "HTTP/1.1", 1L, "HTTP/2", 2L), m.requestsByProtocol());
        assertEquals(List.of("HTTP/1.0", "HTTP/1.1", "HTTP/2"), List.copyOf(m.requestsByProtocol().keySet()));
        assertEquals(3, m.requests());
        assertEquals(2, m.requests("HTTP/2"));
        assertEquals(1, m.http2Connections());
        assertEquals(1, m.http2StreamsReset(), "the client's reset of stream 3");
    }

    // ---------------------------------------------------------------- malformed requests: RST_STREAM PROTOCOL_ERROR

    @Test
    void malformedRequestsAreResetAndTheConnectionGoesOn() throws Exception {
        try (H2Client client = client()) {
            client.frame(HEADERS, END_HEADERS | END_STREAM, 1, concat(client.block(":method", "GET", ":scheme",
                    "http", ":path", "/hello"), H2Client.literal("X-Upper", "1"))); // uppercase name
            reset(client, 1, PROTOCOL_ERROR);
            String[][] malformed = {
                {":method", "GET", ":scheme", "http", "x-a", "1", ":path", "/hello"},               // pseudo after
                {":method", "GET", ":scheme", "http", ":path", "/hello", "connection", "close"},     // connection-specific
                {":method", "GET", ":scheme", "http", ":path", "/hello", "te", "gzip"},             // te not trailers
                {":method", "GET", ":scheme", "http"},                                              // no :path
                {":method", "GET", ":scheme", "http", ":path", "/hello", ":status", "200"},         // response pseudo
                {":method", "GET", ":method", "GET", ":scheme", "http", ":path", "/hello"},         // repeated pseudo
                {":method", "GET", ":scheme", "http", ":path", "/a b"},                             // bad path
                {":method", "GET", ":scheme", "http", ":path", "/", ":authority", "a/b@c"},         // bad authority
            };
            int stream = 3;
            for (String[] fields : malformed) {
                client.headers(stream, true, fields);
                reset(client, stream, PROTOCOL_ERROR);
                stream += 2;
            }
            client.get(stream, "/hello");
            assertTrue(client.response(stream).startsWith(":status: 200"));
        }
    }

    private static byte[] concat(byte[] a, byte[] b) {
        byte[] both = java.util.Arrays.copyOf(a, a.length + b.length);
        System.arraycopy(b, 0, both, a.length, b.length);
        return both;
    }

    @Test
    void contentLengthDisagreeingWithDataIsMalformed() throws Exception {
        try (H2Client client = client()) {
            client.headers(1, false, ":method", "POST", ":scheme", "http", ":path", "/echo", "content-length", "2");
            client.data(1, true, "abc".getBytes(UTF_8));
            reset(client, 1, PROTOCOL_ERROR);
            client.headers(3, true, ":method", "POST", ":scheme", "http", ":path", "/echo", "content-length", "2");
            reset(client, 3, PROTOCOL_ERROR);
        }
    }

    // ---------------------------------------------------------------- connection errors: GOAWAY

    @Test
    void dataOnStreamZeroIsAConnectionError() throws Exception {
        try (H2Client client = client()) {
            client.data(0, true, new byte[0]);
            goAway(client, 0, PROTOCOL_ERROR);
        }
    }

    @Test
    void pushPromiseFromTheClientIsAConnectionError() throws Exception {
        try (H2Client client = client()) {
            client.frame(PUSH_PROMISE, END_HEADERS, 1, new byte[4]);
            goAway(client, 0, PROTOCOL_ERROR);
        }
    }

    @Test
    void streamIdRegressionAndEvenIdsAreConnectionErrors() throws Exception {
        try (H2Client client = client()) {
            client.get(5, "/hello");
            client.response(5);
            client.get(3, "/hello");
            goAway(client, 5, PROTOCOL_ERROR);
        }
        try (H2Client client = new H2Client(server.port()).handshake()) {
            client.get(2, "/hello");
            goAway(client, 0, PROTOCOL_ERROR);
        }
    }

    @Test
    void aFirstFrameOtherThanSettingsIsAConnectionError() throws Exception {
        try (H2Client client = new H2Client(start(o -> o))) {
            client.send(PREFACE);
            client.frame(PING, 0, 0, new byte[8]);
            client.expect(SETTINGS);
            goAway(client, 0, PROTOCOL_ERROR);
        }
    }

    @Test
    void aWrongPrefaceAfterItsFirstLineIsAConnectionError() throws Exception {
        try (H2Client client = new H2Client(start(o -> o))) {
            client.send("PRI * HTTP/2.0\r\n\r\nSM\r\n\rQ".getBytes(UTF_8)); // the last byte wrong
            client.expect(SETTINGS);
            goAway(client, 0, PROTOCOL_ERROR);
        }
    }

    @Test
    void withPriorKnowledgeOffThePrefaceIsAnHttp11VersionNotServed() throws Exception {
        try (H2Client client = new H2Client(start(o -> o.http2PriorKnowledge(false)))) {
            client.send(PREFACE);
            byte[] head = new byte[12];
            new java.io.DataInputStream(client.input()).readFully(head);
            assertEquals("HTTP/1.1 505", new String(head, UTF_8));
        }
    }

    @Test
    void badHpackIsACompressionError() throws Exception {
        try (H2Client client = client()) {
            client.frame(HEADERS, END_HEADERS | END_STREAM, 1, new byte[] {(byte) 0xFF, (byte) 0xFF, (byte) 0xFF,
                    (byte) 0xFF, (byte) 0xFF, 0x0F}); // an index far beyond any table
            goAway(client, 0, COMPRESSION_ERROR); // stream 1 was never processed
        }
    }

    // ---------------------------------------------------------------- flow control

    @Test
    void windowOverflowIsAFlowControlError() throws Exception {
        try (H2Client client = client()) {
            client.get(1, "/hang");
            client.windowUpdate(1, Integer.MAX_VALUE);
            reset(client, 1, FLOW_CONTROL_ERROR);
            client.windowUpdate(0, Integer.MAX_VALUE);
            goAway(client, 1, FLOW_CONTROL_ERROR);
        }
    }

    @Test
    void dataBeyondTheStreamWindowIsAFlowControlError() throws Exception {
        try (H2Client client = client(o -> o.inboundWindowBytes(1024))) {
            client.headers(1, false, ":method", "POST", ":scheme", "http", ":path", "/noread");
            byte[] chunk = new byte[16_384];
            for (int i = 0; i < 4; i++) {
                client.data(1, false, chunk); // 64 KiB: the handler reads none, so no credit comes back
            }
            client.data(1, false, new byte[1024]);
            reset(client, 1, FLOW_CONTROL_ERROR);
        }
    }

    @Test
    void responsesWaitForTheClientsWindow() throws Exception {
        try (H2Client client = client(o -> o, 0x4, 100)) { // INITIAL_WINDOW_SIZE 100
            client.get(1, "/hello");
            client.expect(HEADERS);
            client.get(3, "/big");
            client.expect(DATA); // /hello's 5 bytes
            client.expect(HEADERS);
            Frame first = client.expect(DATA);
            assertEquals(100, first.payload().length);
            client.windowUpdate(3, 50);
            assertEquals(50, client.expect(DATA).payload().length);
        }
    }

    @Test
    void initialWindowChangeAppliesToOpenStreams() throws Exception {
        try (H2Client client = client(o -> o, 0x4, 0)) { // INITIAL_WINDOW_SIZE 0: nothing may be sent
            client.get(1, "/big");
            client.expect(HEADERS);
            client.frame(SETTINGS, 0, 0, ByteBuffer.allocate(6).putShort((short) 4).putInt(10).array());
            Frame data = client.expect(DATA);
            assertEquals(10, data.payload().length);
        }
    }

    // ---------------------------------------------------------------- attacks, each bounded by a named limit

    @Test
    void rapidResetIsCalmedAfterMaxResets() throws Exception {
        try (H2Client client = client(o -> o.http2MaxResets(10))) {
            for (int stream = 1; stream <= 21; stream += 2) {
                client.get(stream, "/hang");
                client.rst(stream, CANCEL);
            }
            goAway(client, 21, ENHANCE_YOUR_CALM);
        }
    }

    @Test
    void provokedResetsCountAgainstTheSameBudget() throws Exception {
        try (H2Client client = client(o -> o.http2MaxResets(10))) {
            for (int stream = 1; stream <= 21; stream += 2) { // malformed: each one reset by the server
                client.headers(stream, true, ":method", "GET", ":scheme", "http", ":path", "/hello", "te", "gzip");
            }
            for (int stream = 1; stream <= 19; stream += 2) {
                reset(client, stream, PROTOCOL_ERROR);
            }
            client.expect(RST_STREAM);
            goAway(client, 21, ENHANCE_YOUR_CALM);
        }
        awaitRefusals("HTTP2_RESETS", 1);
    }

    @Test
    void continuationFloodIsCalmedBeforeDecoding() throws Exception {
        try (H2Client client = client(o -> o.http2MaxContinuationFrames(16))) {
            client.frame(HEADERS, 0, 1, client.block(":method", "GET"));
            for (int i = 0; i < 17; i++) {
                client.frame(CONTINUATION, 0, 1, new byte[0]);
            }
            goAway(client, 0, ENHANCE_YOUR_CALM);
        }
        try (H2Client client = new H2Client(server.port()).handshake()) {
            client.frame(HEADERS, 0, 1, new byte[16_384]);
            client.frame(CONTINUATION, 0, 1, new byte[16_384]); // 32 KiB: maxHeaderBytes × 2
            client.frame(CONTINUATION, 0, 1, new byte[1]);
            goAway(client, 0, ENHANCE_YOUR_CALM);
        }
        awaitRefusals("HTTP2_CONTINUATIONS", 1); // each budget counted under its rule
        awaitRefusals("HTTP2_HEADER_BLOCK", 1);
    }

    /** Waits for the reactor's count of refusals by {@code rule} to reach {@code n} (read racily from here). */
    private void awaitRefusals(String rule, long n) {
        long deadline = System.nanoTime() + 10_000_000_000L;
        while (server.metrics().refusals(rule) != n && System.nanoTime() - deadline < 0) {
            Thread.onSpinWait();
        }
        assertEquals(n, server.metrics().refusals(rule), rule);
    }

    @Test
    void aTargetLongerThanTheRequestLineLimitIsAnsweredWith414AsOnHttp1() throws Exception {
        try (H2Client client = client()) {
            // maxRequestLineBytes is 8 KiB: "GET " + the path + " HTTP/1.1" over it, as HTTP/1.1 would count it
            client.headers(1, true, ":method", "GET", ":scheme", "http", ":path", "/hello?q=" + "x".repeat(8200));
            assertTrue(client.response(1).startsWith(":status: 414"));
            client.get(3, "/hello");
            assertTrue(client.response(3).startsWith(":status: 200"), "the connection goes on");
        }
        long deadline = System.nanoTime() + 5_000_000_000L; // counted on the reactor, read here
        while (server.metrics().refusals("REQUEST_LINE_TOO_LONG") != 1 && System.nanoTime() - deadline < 0) {
            Thread.onSpinWait();
        }
        assertEquals(1L, server.metrics().refusals("REQUEST_LINE_TOO_LONG"), "counted as the client's mistake");
    }

    @Test
    void hpackBombIsAnsweredWith431() throws Exception {
        try (H2Client client = client()) {
            String big = "x".repeat(3000);
            // 18 KB of fields, more than maxHeaderBytes (16 KiB, SETTINGS_MAX_HEADER_LIST_SIZE)
            client.headers(1, true, ":method", "GET", ":scheme", "http", ":path", "/hello", "a", big, "b", big,
                    "c", big, "d", big, "e", big, "f", big);
            assertTrue(client.response(1).startsWith(":status: 431"));
            client.get(3, "/hello");
            assertTrue(client.response(3).startsWith(":status: 200"), "the table stayed in sync");
        }
        try (H2Client client = new H2Client(server.port()).handshake()) {
            // the bomb: a 4 KB field inserted once (literal with incremental indexing), then referenced ten times
            // (index 62, one byte each): a block of 4 KB that decodes to 40 KB
            java.io.ByteArrayOutputStream block = new java.io.ByteArrayOutputStream();
            block.writeBytes(client.block(":method", "GET", ":scheme", "http", ":path", "/hello"));
            block.writeBytes(new byte[] {0x40, 0x01, 'a', 0x7F, (byte) 0xA1, 0x1E}); // value length 4000
            block.writeBytes("y".repeat(4000).getBytes(UTF_8));
            for (int i = 0; i < 10; i++) {
                block.write(0xBE);
            }
            client.frame(HEADERS, END_HEADERS | END_STREAM, 1, block.toByteArray());
            assertTrue(client.response(1).startsWith(":status: 431"));
        }
    }

    @Test
    void settingsPingAndEmptyFrameFloodsAreCalmed() throws Exception {
        try (H2Client client = client(o -> o.http2MaxControlFrames(20))) {
            for (int i = 0; i < 21; i++) {
                client.frame(SETTINGS, 0, 0, new byte[0]);
            }
            goAway(client, 0, ENHANCE_YOUR_CALM);
        }
        try (H2Client client = new H2Client(server.port()).handshake()) {
            for (int i = 0; i < 21; i++) {
                client.frame(PING, 0, 0, new byte[8]);
            }
            goAway(client, 0, ENHANCE_YOUR_CALM);
        }
        try (H2Client client = new H2Client(server.port()).handshake()) {
            client.headers(1, false, ":method", "POST", ":scheme", "http", ":path", "/noread");
            for (int i = 0; i < 21; i++) {
                client.data(1, false, new byte[0]);
            }
            goAway(client, 1, ENHANCE_YOUR_CALM);
        }
        awaitRefusals("HTTP2_CONTROL_FRAMES", 3);
    }

    @Test
    void zeroWindowStallResetsTheStreamOnTheWriteStallTimeout() throws Exception {
        try (H2Client client = client(o -> o.writeStallTimeout(Duration.ofMillis(300)), 0x4, 0)) {
            client.get(1, "/big");
            client.expect(HEADERS);
            reset(client, 1, CANCEL);
            assertTrue(writerFailed.await(10, TimeUnit.SECONDS), "the blocked writer failed");
            client.get(3, "/hello");
            client.windowUpdate(3, 100);
            assertTrue(client.response(3).startsWith(":status: 200"), "the connection goes on");
        }
    }

    @Test
    void aBodyThatStopsComingIsAnswered408ThenTheStreamIsReset() throws Exception {
        try (H2Client client = client(o -> o.bodyTimeout(Duration.ofMillis(300)))) {
            client.headers(1, false, ":method", "POST", ":scheme", "http", ":path", "/echo");
            client.data(1, false, "ab".getBytes(UTF_8));
            assertTrue(client.response(1).startsWith(":status: 408"));
            reset(client, 1, CANCEL); // the rest never came either: the stream does not hold its slot for ever
            client.get(3, "/hello");
            assertTrue(client.response(3).startsWith(":status: 200"), "the connection goes on");
        }
    }

    @Test
    void aStreamWaitingFor100ContinueThatTheHandlerNeverReadsTimesOut() throws Exception {
        // as HTTP/1.1's EXPECTING_CONTINUE: the body timeout runs while the client waits, so a handler that never
        // reads (found by ConnectionFuzzTest: crash-d76f9376…) does not hold the stream and the connection for ever
        try (H2Client client = client(o -> o.bodyTimeout(Duration.ofMillis(300)))) {
            client.headers(1, false, ":method", "POST", ":scheme", "http", ":path", "/noread",
                    "expect", "100-continue");
            assertTrue(client.response(1).startsWith(":status: 408"));
            reset(client, 1, NO_ERROR); // no 100 Continue was sent: the client is told to keep its body
            client.get(3, "/hello");
            assertTrue(client.response(3).startsWith(":status: 200"), "the connection goes on");
        }
        assertEquals(1, server.metrics().refusals("BODY_TIMEOUT"));
    }

    @Test
    void aBodySlowerThanTheMinimumRateIsAnswered408() throws Exception {
        // 1,000 B/s over 300 ms windows: the 2 bytes sent are short of the 300 the first window needs; the body
        // timeout (default) is far away, so the rate is what refuses
        try (H2Client client = client(o -> o.minRequestBodyRate(
                new dev.fleche.transport.MinDataRate(1000, Duration.ofMillis(300))))) {
            client.headers(1, false, ":method", "POST", ":scheme", "http", ":path", "/echo");
            client.data(1, false, "ab".getBytes(UTF_8));
            String response = client.response(1);
            assertTrue(response.startsWith(":status: 408") && response.endsWith(
                    "|request body slower than the minimum data rate\n"), response);
            reset(client, 1, CANCEL); // the rest of the body, owed after the response, did not come at the rate either
            client.get(3, "/hello");
            assertTrue(client.response(3).startsWith(":status: 200"), "the connection goes on");
        }
        dev.fleche.transport.ServerMetrics m = server.metrics();
        assertEquals(1, m.refusals("BODY_TOO_SLOW"), "the 408; the reset after it is no second refusal");
        assertEquals(2, m.timeouts());
    }

    @Test
    void aResponseTakenSlowerThanTheMinimumRateIsReset() throws Exception {
        // the client's window for each stream is 100 bytes and it never opens it: the response waits on the stream's
        // window, and 0 bytes in a 300-ms window is short of 1,000 B/s; the write stall (default) is far away
        try (H2Client client = client(o -> o.minResponseRate(
                new dev.fleche.transport.MinDataRate(1000, Duration.ofMillis(300))), 0x4, 100)) {
            client.get(1, "/big");
            client.expect(HEADERS);
            assertEquals(100, client.expect(DATA).payload().length);
            reset(client, 1, CANCEL);
            assertTrue(writerFailed.await(10, TimeUnit.SECONDS), "the blocked writer failed");
            client.get(3, "/hello");
            client.windowUpdate(3, 100);
            assertTrue(client.response(3).startsWith(":status: 200"), "the connection goes on");
        }
        dev.fleche.transport.ServerMetrics m = server.metrics();
        assertEquals(1, m.timeouts());
        assertEquals(1, m.http2StreamsReset());
    }

    @Test
    void streamsBeyondMaxConcurrentAreRefused() throws Exception {
        try (H2Client client = client(o -> o.http2MaxConcurrentStreams(2))) {
            client.get(1, "/hang");
            client.get(3, "/hang");
            client.get(5, "/hang");
            reset(client, 5, REFUSED_STREAM);
            client.rst(1, CANCEL);
            client.get(7, "/hello");
            assertTrue(client.response(7).startsWith(":status: 200"));
        }
    }

    @Test
    void aBodyBeyondMaxBodyBytesIsAnswered413() throws Exception {
        try (H2Client client = client(o -> o.maxBodyBytes(10))) {
            client.headers(1, false, ":method", "POST", ":scheme", "http", ":path", "/echo", "content-length", "100");
            assertTrue(client.response(1).startsWith(":status: 413"));
            client.headers(3, false, ":method", "POST", ":scheme", "http", ":path", "/echo");
            client.data(3, false, new byte[11]);
            assertTrue(client.response(3).startsWith(":status: 413"));
        }
    }

    @Test
    void frameOnAClosedStream() throws Exception {
        try (H2Client client = client()) {
            client.get(1, "/hello");
            client.response(1);
            client.data(1, true, new byte[1]);
            reset(client, 1, STREAM_CLOSED);
            client.get(1, "/hello");
            goAway(client, 1, STREAM_CLOSED);
        }
    }

    @Test
    void aBodyLeftUnreadIsDroppedUpToMaxDiscardBytesThenReset() throws Exception {
        try (H2Client client = client()) {
            client.headers(1, false, ":method", "POST", ":scheme", "http", ":path", "/hello");
            assertTrue(client.response(1).startsWith(":status: 200"));
            client.data(1, true, new byte[1000]); // dropped; the stream ends quietly
            client.headers(3, false, ":method", "POST", ":scheme", "http", ":path", "/hello", "content-length",
                    "100000"); // more than maxDiscardBytes (64 KiB) to come: reset as soon as the response is out
            assertTrue(client.response(3).startsWith(":status: 200"));
            reset(client, 3, NO_ERROR);
            client.headers(5, false, ":method", "POST", ":scheme", "http", ":path", "/hello");
            assertTrue(client.response(5).startsWith(":status: 200"));
            for (int i = 0; i < 5; i++) {
                client.data(5, false, new byte[16_384]);
            }
            reset(client, 5, NO_ERROR);
        }
    }
}
