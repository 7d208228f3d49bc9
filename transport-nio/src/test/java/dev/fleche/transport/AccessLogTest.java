package dev.fleche.transport;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.UnaryOperator;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The access log, line by line, byte for byte: a fixed wall clock and an injected nano clock make every field
 * exact. The handler moves the nano clock by {@link #handlerTakes} nanoseconds, so that the duration (head begun
 * to last byte written) is exact too. Response sizes are those the client received ({@code Date} is 29 bytes).
 */
class AccessLogTest {
    private static final Clock WALL = Clock.fixed(Instant.parse("2026-01-02T03:04:05.678Z"), ZoneOffset.UTC);
    private static final String CLF_TIME = "[02/Jan/2026:03:04:05 +0000]";
    private static final String TRACEPARENT = "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01";

    private final AtomicLong nanos = new AtomicLong(5_000_000_000L);
    private final AtomicLong handlerTakes = new AtomicLong();
    private final CapturedLines lines = new CapturedLines();
    private HttpServer server;

    @AfterEach
    void stop() throws Exception {
        lines.release();
        if (server != null) {
            server.stop(Duration.ZERO);
        }
        lines.close();
    }

    private HttpServer start(AccessLog.Format format, UnaryOperator<ServerOptions.Builder> more,
                             UnaryOperator<AccessLog.Builder> log, HttpHandler handler) throws Exception {
        AccessLog accessLog = log.apply(AccessLog.builder().format(format).logger(lines.name()).clock(WALL)).build();
        server = HttpServer.create(more.apply(RawClient.loopback().reactors(1).nanoClock(nanos::get)
                .accessLog(accessLog)).build(), handler).start();
        return server;
    }

    private HttpServer start(AccessLog.Format format) throws Exception {
        return start(format, b -> b, b -> b, this::hello);
    }

    private void hello(HttpExchange exchange) {
        nanos.addAndGet(handlerTakes.get());
        exchange.respond(200, new HttpFields().add("Content-Type", "text/plain"),
                "hello".getBytes(StandardCharsets.US_ASCII));
    }

    /** The number of bytes the client received for {@code response} ({@code Date} normalised by RawClient). */
    private static int sent(String response) {
        int dates = response.split("<date>", -1).length - 1;
        return response.length() + dates * ("Sat, 01 Jan 2000 00:00:00 GMT".length() - "<date>".length());
    }

    // ---------------------------------------------------------------- one request

    @Test
    void normalRequestAsJson() throws Exception {
        handlerTakes.set(1_500_000);
        start(AccessLog.Format.JSON);
        String response;
        try (RawClient client = RawClient.connect(server)) {
            client.send("GET /hello?x=1 HTTP/1.1\r\nHost: t\r\nUser-Agent: t/1\r\nX-Request-Id: abc-1\r\n"
                    + "traceparent: " + TRACEPARENT + "\r\n\r\n");
            response = client.readResponse();
        }
        assertEquals(List.of("{\"time\":\"2026-01-02T03:04:05.677Z\",\"remote\":\"127.0.0.1\",\"method\":\"GET\","
                + "\"target\":\"/hello?x=1\",\"protocol\":\"HTTP/1.1\",\"status\":200,\"bytesIn\":0,\"bytesOut\":"
                + sent(response) + ",\"durationMicros\":1500,\"connection\":1,\"requestId\":\"abc-1\","
                + "\"traceId\":\"4bf92f3577b34da6a3ce929d0e0e4736\",\"userAgent\":\"t/1\"}"), lines.await(1));
    }

    @Test
    void normalRequestAsCommonLogFormat() throws Exception {
        start(AccessLog.Format.COMMON);
        String response;
        try (RawClient client = RawClient.connect(server)) {
            response = client.send("GET /hello?x=1 HTTP/1.1\r\nHost: t\r\n\r\n").readResponse();
        }
        assertEquals(List.of("127.0.0.1 - - " + CLF_TIME + " \"GET /hello?x=1 HTTP/1.1\" 200 " + sent(response)),
                lines.await(1));
    }

    @Test
    void fieldsSetFromAboveWinOverTheRequestsOwn() throws Exception {
        start(AccessLog.Format.JSON, b -> b, b -> b, exchange -> {
            exchange.accessLogFields("203.0.113.9", "gen-7", null);
            hello(exchange);
        });
        String response;
        try (RawClient client = RawClient.connect(server)) {
            response = client.send("POST /in HTTP/1.1\r\nHost: t\r\nX-Request-Id: abc-1\r\nContent-Length: 3\r\n"
                    + "traceparent: " + TRACEPARENT + "\r\n\r\nabc").readResponse();
        }
        assertEquals(List.of("{\"time\":\"2026-01-02T03:04:05.678Z\",\"remote\":\"203.0.113.9\",\"method\":\"POST\","
                + "\"target\":\"/in\",\"protocol\":\"HTTP/1.1\",\"status\":200,\"bytesIn\":3,\"bytesOut\":"
                + sent(response) + ",\"durationMicros\":0,\"connection\":1,\"requestId\":\"gen-7\","
                + "\"traceId\":\"4bf92f3577b34da6a3ce929d0e0e4736\"}"), lines.await(1));
    }

    // ---------------------------------------------------------------- pipelining

    @Test
    void pipelinedPairInOrder() throws Exception {
        start(AccessLog.Format.COMMON);
        String first;
        String second;
        try (RawClient client = RawClient.connect(server)) {
            client.send("GET /a HTTP/1.1\r\nHost: t\r\n\r\nGET /bb HTTP/1.1\r\nHost: t\r\n\r\n");
            first = client.readResponse();
            second = client.readResponse();
        }
        assertEquals(List.of(
                "127.0.0.1 - - " + CLF_TIME + " \"GET /a HTTP/1.1\" 200 " + sent(first),
                "127.0.0.1 - - " + CLF_TIME + " \"GET /bb HTTP/1.1\" 200 " + sent(second)), lines.await(2));
    }

    // ---------------------------------------------------------------- refusals

    private static final String BIG_HEADER = "GET /big HTTP/1.1\r\nHost: t\r\nX-Big: " + "a".repeat(300) + "\r\n\r\n";

    @Test
    void refusedRequestWithItsRuleAsJson() throws Exception {
        start(AccessLog.Format.JSON, b -> b.maxHeaderBytes(256), b -> b, this::hello);
        String response;
        try (RawClient client = RawClient.connect(server)) {
            response = client.send(BIG_HEADER).readResponse();
        }
        assertTrue(response.startsWith("HTTP/1.1 431 "), response);
        assertEquals(List.of("{\"time\":\"2026-01-02T03:04:05.678Z\",\"remote\":\"127.0.0.1\",\"status\":431,"
                + "\"bytesIn\":0,\"bytesOut\":" + sent(response) + ",\"durationMicros\":0,\"connection\":1,"
                + "\"rule\":\"HEADER_SECTION_TOO_LARGE\"}"), lines.await(1));
    }

    @Test
    void refusedRequestWithItsRuleAsCommonLogFormat() throws Exception {
        start(AccessLog.Format.COMMON, b -> b.maxHeaderBytes(256), b -> b, this::hello);
        String response;
        try (RawClient client = RawClient.connect(server)) {
            response = client.send(BIG_HEADER).readResponse();
        }
        assertEquals(List.of("127.0.0.1 - - " + CLF_TIME + " \"-\" 431 " + sent(response)
                + " rule=HEADER_SECTION_TOO_LARGE"), lines.await(1));
    }

    /** One HTTP/2 frame: its 9-byte header and {@code payload}. */
    private static byte[] frame(int type, int flags, int stream, byte[] payload) {
        return java.nio.ByteBuffer.allocate(9 + payload.length).putInt(payload.length << 8 | type).put((byte) flags)
                .putInt(stream).put(payload).array();
    }

    @Test
    void http2RequestRefusedBeforeItBecameAStreamIsLoggedWithItsRule() throws Exception {
        start(AccessLog.Format.JSON, b -> b.maxHeaderBytes(256), b -> b, this::hello);
        java.io.ByteArrayOutputStream block = new java.io.ByteArrayOutputStream();
        // :method GET, :scheme http, :path /, :authority t, then x-big: 300 bytes (literal, new name), over 256
        block.writeBytes(new byte[] {(byte) 0x82, (byte) 0x86, (byte) 0x84, 0x01, 0x01, 't', 0x00, 0x05});
        block.writeBytes("x-big".getBytes(StandardCharsets.US_ASCII));
        block.writeBytes(new byte[] {0x7F, (byte) 0xAD, 0x01}); // 300 = 127 + 173
        block.writeBytes("a".repeat(300).getBytes(StandardCharsets.US_ASCII));
        int dataBytes;
        try (java.net.Socket socket = new java.net.Socket("127.0.0.1", server.port())) {
            socket.setSoTimeout(10_000);
            java.io.OutputStream out = socket.getOutputStream();
            out.write("PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n".getBytes(StandardCharsets.US_ASCII));
            out.write(frame(4, 0, 0, new byte[0]));
            out.write(frame(1, 0x5, 1, block.toByteArray())); // END_STREAM | END_HEADERS
            out.flush();
            java.io.DataInputStream in = new java.io.DataInputStream(socket.getInputStream());
            while (true) {
                int lengthAndType = in.readInt();
                in.readByte();
                int stream = in.readInt();
                in.skipNBytes(lengthAndType >>> 8);
                if ((lengthAndType & 0xFF) == 0 && stream == 1) {
                    dataBytes = lengthAndType >>> 8; // the 431's body
                    break;
                }
            }
        }
        assertEquals(List.of("{\"time\":\"2026-01-02T03:04:05.678Z\",\"remote\":\"127.0.0.1\",\"protocol\":\"HTTP/2\","
                + "\"status\":431,\"bytesIn\":0,\"bytesOut\":" + dataBytes + ",\"durationMicros\":0,\"connection\":1,"
                + "\"rule\":\"HEADER_SECTION_TOO_LARGE\"}"), lines.await(1));
        ServerMetrics metrics = server.metrics();
        assertEquals(1, metrics.refusals("HEADER_SECTION_TOO_LARGE"));
        assertEquals(1, metrics.responses4xx());
        assertEquals(1, metrics.protocolErrors());
        assertEquals(0, metrics.requests(), "refused before it became a request, as on HTTP/1.1");
    }

    @Test
    void connectionRefusedByTheAcceptorIsLogged() throws Exception {
        start(AccessLog.Format.JSON, b -> b.maxConnections(1), b -> b, this::hello);
        try (RawClient first = RawClient.connect(server)) {
            first.send("GET /a HTTP/1.1\r\nHost: t\r\n\r\n").readResponse(); // adopted: the limit is reached
            lines.await(1);
            try (RawClient second = RawClient.connect(server)) {
                String response = second.readToEof();
                assertTrue(response.startsWith("HTTP/1.1 503 "), response);
                assertEquals("{\"time\":\"2026-01-02T03:04:05.678Z\",\"remote\":\"127.0.0.1\",\"status\":503,"
                        + "\"bytesIn\":0,\"bytesOut\":" + sent(response) + ",\"durationMicros\":0,"
                        + "\"rule\":\"OVERLOADED\"}", lines.await(2).get(1));
            }
        }
    }

    // ---------------------------------------------------------------- a client leaving

    @Test
    void clientLeavingMidResponseIsLoggedAsCut() throws Exception {
        start(AccessLog.Format.JSON, b -> b, b -> b, exchange -> {
            try {
                OutputStream out = exchange.startResponse(200, new HttpFields(), -1);
                out.write("part1".getBytes(StandardCharsets.US_ASCII));
                out.flush(); // the response stays open: the client leaves before its end
            } catch (java.io.IOException e) {
                throw new java.io.UncheckedIOException(e);
            }
        });
        String received;
        try (RawClient client = RawClient.connect(server)) {
            received = client.send("GET /stream HTTP/1.1\r\nHost: t\r\n\r\n").readUntil("part1\r\n");
            client.reset(); // leaves (a FIN after a whole request would be a half-close, still to be answered)
        }
        assertEquals(List.of("{\"time\":\"2026-01-02T03:04:05.678Z\",\"remote\":\"127.0.0.1\",\"method\":\"GET\","
                + "\"target\":\"/stream\",\"protocol\":\"HTTP/1.1\",\"status\":200,\"bytesIn\":0,\"bytesOut\":"
                + sent(received) + ",\"durationMicros\":0,\"connection\":1,\"cut\":true}"), lines.await(1));
        Await.until("exchange ended", () -> server.metrics().exchangesInFlight() == 0);
    }

    // ---------------------------------------------------------------- sanitising

    private static final String HOSTILE = "GET /s HTTP/1.1\r\nHost: t\r\nUser-Agent: a\tb\"c\\d\u00e9\r\n"
            + "Referer: http://x/\u00ff\r\n\r\n";

    @Test
    void headerValuesAreEscapedInJson() throws Exception {
        start(AccessLog.Format.JSON);
        String response;
        try (RawClient client = RawClient.connect(server)) {
            response = client.send(HOSTILE).readResponse();
        }
        assertEquals(List.of("{\"time\":\"2026-01-02T03:04:05.678Z\",\"remote\":\"127.0.0.1\",\"method\":\"GET\","
                + "\"target\":\"/s\",\"protocol\":\"HTTP/1.1\",\"status\":200,\"bytesIn\":0,\"bytesOut\":"
                + sent(response) + ",\"durationMicros\":0,\"connection\":1,"
                + "\"userAgent\":\"a\\tb\\\"c\\\\d\\u00e9\",\"referer\":\"http://x/\\u00ff\"}"), lines.await(1));
    }

    @Test
    void headerValuesAreEscapedInCombinedLogFormat() throws Exception {
        start(AccessLog.Format.COMBINED);
        String response;
        try (RawClient client = RawClient.connect(server)) {
            response = client.send(HOSTILE).readResponse();
        }
        assertEquals(List.of("127.0.0.1 - - " + CLF_TIME + " \"GET /s HTTP/1.1\" 200 " + sent(response)
                + " \"http://x/\\xff\" \"a\\x09b\\\"c\\\\d\\xe9\""), lines.await(1));
    }

    @Test
    void carriageReturnInAHeaderValueIsRefusedAndNothingOfItIsLogged() throws Exception {
        start(AccessLog.Format.COMBINED);
        String response;
        try (RawClient client = RawClient.connect(server)) {
            response = client.send("GET /s HTTP/1.1\r\nHost: t\r\nUser-Agent: a\rinjected\r\n\r\n").readResponse();
        }
        assertTrue(response.startsWith("HTTP/1.1 400 "), response);
        assertEquals(List.of("127.0.0.1 - - " + CLF_TIME + " \"-\" 400 " + sent(response) + " \"-\" \"-\""
                + " rule=FIELD_VALUE_INVALID"), lines.await(1));
    }

    @Test
    void longTargetIsCutWithAMark() throws Exception {
        start(AccessLog.Format.JSON);
        String target = "/" + "a".repeat(2100);
        try (RawClient client = RawClient.connect(server)) {
            client.send("GET " + target + " HTTP/1.1\r\nHost: t\r\n\r\n").readResponse();
        }
        String line = lines.await(1).get(0);
        assertTrue(line.contains("\"target\":\"" + target.substring(0, 2048) + "[...]\""), line);
    }

    // ---------------------------------------------------------------- the queue

    @Test
    void fullQueueDropsAndCounts() throws Exception {
        start(AccessLog.Format.COMMON, b -> b, b -> b.queueCapacity(2), this::hello);
        lines.block();
        try (RawClient client = RawClient.connect(server)) {
            client.send("GET /1 HTTP/1.1\r\nHost: t\r\n\r\n").readResponse();
            lines.awaitBlocked(); // the writer holds line 1: the queue takes 2 more
            for (int i = 2; i <= 5; i++) {
                client.send("GET /" + i + " HTTP/1.1\r\nHost: t\r\n\r\n").readResponse();
            }
            Await.until("2 drops", () -> server.metrics().accessLogDropped() == 2);
            lines.release();
            List<String> written = lines.await(3);
            assertTrue(written.get(0).contains("\"GET /1 "), written.toString());
            assertTrue(written.get(1).contains("\"GET /2 "), written.toString());
            assertTrue(written.get(2).contains("\"GET /3 "), written.toString());
        }
        server.stop(Duration.ofSeconds(5));
        assertEquals(3, lines.lines().size());
        assertEquals(2, server.metrics().accessLogDropped());
    }

    @Test
    void gracefulStopWritesEverythingAccepted() throws Exception {
        start(AccessLog.Format.COMMON, b -> b, b -> b.queueCapacity(100), this::hello);
        lines.block();
        try (RawClient client = RawClient.connect(server)) {
            for (int i = 1; i <= 20; i++) {
                client.send("GET /" + i + " HTTP/1.1\r\nHost: t\r\n\r\n").readResponse();
            }
        }
        lines.awaitBlocked();
        Thread stopper = new Thread(() -> {
            try {
                server.stop(Duration.ofSeconds(5));
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        });
        stopper.start();
        Await.until("stop waiting for the log", () -> Await.awaitingCondition(stopper)
                || stopper.getState() == Thread.State.WAITING);
        lines.release();
        stopper.join();
        assertEquals(20, lines.lines().size(), lines.lines().toString());
        assertTrue(lines.lines().get(19).contains("\"GET /20 "), lines.lines().get(19));
        assertEquals(0, server.metrics().accessLogDropped());
    }

    // ---------------------------------------------------------------- files

    @Test
    void fileRotatesBySizeKeepingTheNewestFiles(@TempDir Path dir) throws Exception {
        Path file = dir.resolve("access.log");
        start(AccessLog.Format.JSON, b -> b, b -> b.file(file).maxFileBytes(1024).keptFiles(2), this::hello);
        String pad = "p".repeat(150);
        try (RawClient client = RawClient.connect(server)) {
            for (int i = 1; i <= 12; i++) {
                client.send(String.format("GET /r/%02d/%s HTTP/1.1\r\nHost: t\r\n\r\n", i, pad)).readResponse();
            }
        }
        server.stop(Duration.ofSeconds(5));
        List<String> current = Files.readAllLines(file);
        int lineBytes = current.get(0).length() + 1;
        assertTrue(3 * lineBytes <= 1024 && 4 * lineBytes > 1024, "3 lines a file, each of " + lineBytes);
        assertEquals(List.of(10, 11, 12), requests(current));
        assertEquals(List.of(7, 8, 9), requests(Files.readAllLines(dir.resolve("access.log.1"))));
        assertEquals(List.of(4, 5, 6), requests(Files.readAllLines(dir.resolve("access.log.2"))));
        assertFalse(Files.exists(dir.resolve("access.log.3")));
        try (var files = Files.list(dir)) {
            assertEquals(3, files.count());
        }
    }

    /** The request numbers of the lines (targets {@code /r/NN/...}). */
    private static List<Integer> requests(List<String> lines) {
        List<Integer> numbers = new ArrayList<>();
        for (String line : lines) {
            int at = line.indexOf("\"target\":\"/r/") + "\"target\":\"/r/".length();
            numbers.add(Integer.parseInt(line.substring(at, at + 2)));
        }
        return numbers;
    }

    @Test
    void fileGetsEveryLineByTheStop(@TempDir Path dir) throws Exception {
        Path file = dir.resolve("logs/access.log");
        start(AccessLog.Format.COMMON, b -> b, b -> b.file(file), this::hello);
        try (RawClient client = RawClient.connect(server)) {
            for (int i = 1; i <= 50; i++) {
                client.send("GET /" + i + " HTTP/1.1\r\nHost: t\r\n\r\n").readResponse();
            }
        }
        server.stop(Duration.ofSeconds(5));
        List<String> written = Files.readAllLines(file);
        assertEquals(50, written.size());
        assertTrue(written.get(49).startsWith("127.0.0.1 - - " + CLF_TIME + " \"GET /50 HTTP/1.1\" 200 "),
                written.get(49));
    }
}
