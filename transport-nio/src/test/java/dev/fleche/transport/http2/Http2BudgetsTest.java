package dev.fleche.transport.http2;

import dev.fleche.transport.AccessLog;
import dev.fleche.transport.HttpExchange;
import dev.fleche.transport.HttpFields;
import dev.fleche.transport.HttpServer;
import dev.fleche.transport.ServerMetrics;
import dev.fleche.transport.ServerOptions;
import dev.fleche.transport.http2.H2Client.Frame;
import dev.fleche.transport.internal.WorkProbe;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import java.util.function.BooleanSupplier;
import java.util.function.UnaryOperator;

import static dev.fleche.transport.http2.H2Client.*;
import static java.nio.charset.StandardCharsets.UTF_8;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The attacks of issue 36 on HTTP/2, each written as the attacker writes it, with a client that does not read its
 * socket while it attacks: streams beyond {@code MAX_CONCURRENT_STREAMS}, header lists refused with {@code 431},
 * wide-open windows and a stop, SETTINGS frames of thousands of entries, {@code WINDOW_UPDATE}s on stream 0 (and a
 * refusal's DATA against closed windows). Each asserts that the queued-output gauge stays within the budget
 * ({@code http2MaxQueuedOutputBytes}, plus the answer to the one frame being handled), how the connection ends (its
 * {@code GOAWAY} code, or the close of a client that took nothing), that a second connection is served meanwhile, and
 * what the attack cost in work — frames handled, streams pumped, stream windows changed, resets sent — not in time.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class Http2BudgetsTest {
    private static final int ENHANCE_YOUR_CALM = 0xb;
    /** The default queued-output budget. */
    private static final int BUDGET = 256 * 1024;
    /**
     * What the queue may hold beyond the budget (DATA goes only into the room it leaves): the control frames
     * answering the frame being handled when it was reached, and the response heads of streams answering meanwhile
     * (128 of them here; header blocks are not held back).
     */
    private static final int SLACK = 16 * 1024;
    /** The body of {@code /large}, answered whole on the reactor: what waits for the client is the stream's. */
    private static final byte[] LARGE = new byte[256 * 1024];

    private HttpServer server;

    @AfterEach
    void stop() throws Exception {
        if (server != null) {
            server.stop(Duration.ZERO);
        }
    }

    private void handle(HttpExchange exchange) {
        switch (exchange.path()) {
            case "/hello" -> exchange.respond(200, new HttpFields(), "hello".getBytes(UTF_8));
            case "/hang" -> { } // holds its stream, answers never
            case "/wait" -> exchange.respond(200, new HttpFields(), new byte[10_000]); // whole, on the reactor
            case "/large" -> exchange.respond(200, new HttpFields(), LARGE);
            default -> exchange.respond(404, new HttpFields(), new byte[0]);
        }
    }

    private int start(UnaryOperator<ServerOptions.Builder> options) throws IOException {
        server = HttpServer.create(options.apply(ServerOptions.builder().address("127.0.0.1", 0).reactors(1)).build(),
                this::handle).start();
        return server.port();
    }

    // ---------------------------------------------------------------- output without bound, three ways in

    @Test
    void streamsRefusedBeyondTheLimitCountInTheResetBudget(@TempDir Path dir) throws Exception {
        Path log = dir.resolve("access.log");
        int port = start(o -> o.accessLog(AccessLog.builder().format(AccessLog.Format.JSON).file(log).build()));
        assertEquals(BUDGET, server.options().http2MaxQueuedOutputBytes(), "the default");
        try (H2Client attacker = new H2Client(port).blindHandshake()) {
            ByteArrayOutputStream flood = new ByteArrayOutputStream();
            int stream = 1;
            for (int i = 0; i < 128; i++, stream += 2) { // bodiless POSTs holding every slot
                flood.writeBytes(frameBytes(HEADERS, END_HEADERS, stream, attacker.block(":method", "POST",
                        ":scheme", "http", ":authority", "a", ":path", "/hang")));
            }
            for (int i = 0; i < 1000; i++, stream += 2) { // then new streams, each refused
                flood.writeBytes(frameBytes(HEADERS, END_HEADERS | END_STREAM, stream, attacker.block(":method",
                        "GET", ":scheme", "http", ":authority", "a", ":path", "/hello")));
            }
            attacker.send(flood.toByteArray());
            await("the reset budget tripped", () -> server.metrics().refusals("HTTP2_RESETS") == 1);
            assertQueueWithinBudget();
            servedMeanwhile();
            ServerMetrics m = server.metrics();
            assertEquals(201, m.http2StreamsReset(), "refusals stop at the budget (200) and one more");
            assertEquals(128 + 2, m.requests(), "the 128 streams and the second connection's two");
            assertTrue(WorkProbe.http2Frames(server) <= 3 + 128 + 201 + 3, "frames handled: "
                    + WorkProbe.http2Frames(server));

            int[] counts = new int[10];
            Frame goAway = attacker.untilGoAway(counts);
            assertEquals(ENHANCE_YOUR_CALM, goAway.errorCode());
            assertEquals(255, goAway.lastStream(), "the last stream processed: the 128th; the refused ones were not");
            assertEquals(201, counts[RST_STREAM]);
            assertTrue(attacker.closedByServer());
        }
        server.stop(Duration.ofSeconds(5)); // writes every line accepted before it
        server = null;
        List<String> caught = Files.readAllLines(log).stream().filter(l -> l.contains("\"rule\":\"HTTP2_")).toList();
        assertEquals(1, caught.size(), "one access-log line for the client the budget caught: " + caught);
        assertTrue(caught.get(0).contains("\"protocol\":\"HTTP/2\",\"status\":0,")
                && caught.get(0).contains("\"rule\":\"HTTP2_RESETS\""), caught.get(0));
    }

    @Test
    void headerListsRefusedWith431CountInTheResetBudgetAndSendNoDataAgainstAClosedWindow() throws Exception {
        int port = start(o -> o);
        try (H2Client attacker = new H2Client(port).blindHandshake(0x4, 0)) { // INITIAL_WINDOW_SIZE 0
            ByteArrayOutputStream flood = new ByteArrayOutputStream();
            // the first block inserts a 4,000-byte field and refers to it five times: 20 KB decoded, beyond
            // maxHeaderBytes (16 KiB); every later block is the five references alone (8 bytes)
            ByteArrayOutputStream first = new ByteArrayOutputStream();
            first.writeBytes(new byte[] {(byte) 0x82, (byte) 0x86, (byte) 0x84}); // GET, http, /
            first.writeBytes(new byte[] {0x40, 0x01, 'a', 0x7F, (byte) 0xA1, 0x1E}); // a: (4,000 bytes), indexed
            first.writeBytes("y".repeat(4000).getBytes(UTF_8));
            first.writeBytes(new byte[] {(byte) 0xBE, (byte) 0xBE, (byte) 0xBE, (byte) 0xBE, (byte) 0xBE});
            flood.writeBytes(frameBytes(HEADERS, END_HEADERS | END_STREAM, 1, first.toByteArray()));
            byte[] again = {(byte) 0x82, (byte) 0x86, (byte) 0x84, (byte) 0xBE, (byte) 0xBE, (byte) 0xBE, (byte) 0xBE,
                (byte) 0xBE};
            for (int stream = 3; stream < 2000; stream += 2) {
                flood.writeBytes(frameBytes(HEADERS, END_HEADERS | END_STREAM, stream, again));
            }
            attacker.send(flood.toByteArray());
            await("the reset budget tripped", () -> server.metrics().refusals("HTTP2_RESETS") == 1);
            assertQueueWithinBudget();
            servedMeanwhile();
            assertEquals(201, server.metrics().refusals("HEADER_SECTION_TOO_LARGE"), "refusals stop at the budget");
            assertTrue(WorkProbe.http2Frames(server) <= 3 + 201 + 3, "frames handled: "
                    + WorkProbe.http2Frames(server));

            assertEquals(SETTINGS, attacker.next().type(), "the server's SETTINGS, first");
            Frame refusal = attacker.expect(HEADERS);
            assertEquals(":status: 431", attacker.fields(refusal).get(0));
            assertTrue(refusal.has(END_STREAM), "headers only: the client's window for the stream is 0");
            int[] counts = new int[10];
            Frame goAway = attacker.untilGoAway(counts);
            assertEquals(0, counts[DATA], "no DATA beyond the client's window (RFC 9113 6.9.1)");
            assertEquals(200, counts[HEADERS]);
            assertEquals(ENHANCE_YOUR_CALM, goAway.errorCode());
            assertEquals(401, goAway.lastStream(), "the 201st refusal's stream");
        }
    }

    @Test
    void aClientThatOpensItsWindowsAndStopsReadingIsHeldAtTheBudget() throws Exception {
        int port = start(o -> o.writeStallTimeout(Duration.ofSeconds(2)));
        try (H2Client attacker = new H2Client(port).blindHandshake(0x4, Integer.MAX_VALUE)) {
            ByteArrayOutputStream flood = new ByteArrayOutputStream();
            flood.writeBytes(frameBytes(WINDOW_UPDATE, 0, 0, ByteBuffer.allocate(4).putInt(Integer.MAX_VALUE - 65_535)
                    .array()));
            int stream = 1;
            for (int i = 0; i < 128; i++, stream += 2) { // 128 answers of 256 KiB: 32 MiB the windows let through
                flood.writeBytes(frameBytes(HEADERS, END_HEADERS | END_STREAM, stream, attacker.block(":method",
                        "GET", ":scheme", "http", ":authority", "a", ":path", "/large")));
            }
            for (int i = 0; i < 500; i++, stream += 2) { // then more streams, to be refused once the slots are full
                flood.writeBytes(frameBytes(HEADERS, END_HEADERS | END_STREAM, stream, attacker.block(":method",
                        "GET", ":scheme", "http", ":authority", "a", ":path", "/hello")));
            }
            attacker.send(flood.toByteArray());
            await("the output at its budget", () -> server.metrics().queuedOutputBytes() >= BUDGET);
            servedMeanwhile(); // (its two exchanges come after the attacker's bytes were ready to read)
            assertQueueWithinBudget();
            long frames = WorkProbe.http2Frames(server);
            assertTrue(frames < 3 + 628, "reading stopped at the budget: " + frames + " frames handled");
            assertTrue(server.metrics().requests() < 128 + 2, "requests: " + server.metrics().requests());
            assertEquals(0, server.metrics().http2StreamsReset(), "nothing refused: the rest was not read");

            await("closed: the output was not taken", () -> server.metrics().refusals("HTTP2_OUTPUT_NOT_TAKEN") == 1);
            assertTrue(WorkProbe.http2Frames(server) < 3 + 628, "frames handled: " + WorkProbe.http2Frames(server));
            assertEquals(0, server.metrics().http2StreamsReset());
            assertEquals(1, server.metrics().timeouts(), "the write stall");
        }
    }

    // ---------------------------------------------------------------- SETTINGS at constant cost

    @Test
    void settingsFramesOfThousandsOfEntriesCostOnePassEach() throws Exception {
        int port = start(o -> o);
        try (H2Client attacker = new H2Client(port).blindHandshake()) {
            for (int stream = 1; stream <= 255; stream += 2) {
                attacker.get(stream, "/hang"); // 128 open streams
            }
            ByteArrayOutputStream flood = new ByteArrayOutputStream();
            for (int frame = 0; frame < 1001; frame++) { // 16 KiB frames of 2,730 INITIAL_WINDOW_SIZE entries: the
                // 1,001st goes beyond the budget (1,000 in 10 s); nothing after it, so the server reads all it was sent
                ByteBuffer entries = ByteBuffer.allocate(2730 * 6);
                for (int i = 0; i < 2730; i++) {
                    entries.putShort((short) 0x4).putInt(1000 + (frame + i) % 2);
                }
                flood.writeBytes(frameBytes(SETTINGS, 0, 0, entries.array()));
            }
            Thread writer = background(attacker, flood.toByteArray());
            servedMeanwhile();
            await("the control-frame budget tripped", () -> server.metrics().refusals("HTTP2_CONTROL_FRAMES") == 1);
            assertQueueWithinBudget();
            long changed = WorkProbe.http2StreamWindowsChanged(server);
            assertTrue(changed <= 1000L * 128, "one pass over the 128 streams per frame at most, not per entry: "
                    + changed);
            assertTrue(changed >= 128, "the window changes were applied: " + changed);
            int[] counts = new int[10];
            Frame goAway = attacker.untilGoAway(counts);
            assertEquals(ENHANCE_YOUR_CALM, goAway.errorCode());
            assertEquals(255, goAway.lastStream());
            writer.join(10_000);
        }
    }

    // ---------------------------------------------------------------- WINDOW_UPDATE on stream 0

    @Test
    void connectionWindowUpdatesWakeNoStreamThatWaitsForItsOwnWindow() throws Exception {
        int port = start(o -> o);
        try (H2Client attacker = new H2Client(port).blindHandshake(0x4, 0)) { // streams' windows closed
            ByteArrayOutputStream streams = new ByteArrayOutputStream();
            for (int stream = 1; stream <= 255; stream += 2) { // 128 answers waiting on their own windows
                streams.writeBytes(frameBytes(HEADERS, END_HEADERS | END_STREAM, stream, attacker.block(":method",
                        "GET", ":scheme", "http", ":authority", "a", ":path", "/wait")));
            }
            attacker.send(streams.toByteArray());
            servedMeanwhile(); // after it, the attacker's 128 streams were handled (an earlier turn)
            assertEquals(128 + 2, server.metrics().requests());
            long pumped = WorkProbe.http2StreamsPumped(server);
            long frames = WorkProbe.http2Frames(server);
            byte[] update = frameBytes(WINDOW_UPDATE, 0, 0, ByteBuffer.allocate(4).putInt(1).array());
            ByteArrayOutputStream flood = new ByteArrayOutputStream();
            for (int i = 0; i < 100_000; i++) {
                flood.writeBytes(update);
            }
            Thread writer = background(attacker, flood.toByteArray());
            servedMeanwhile();
            await("the 100,000 updates handled", () -> WorkProbe.http2Frames(server) - frames >= 100_000 + 4);
            writer.join(10_000);
            assertEquals(2, WorkProbe.http2StreamsPumped(server) - pumped,
                    "no stream waits for the connection's window: none is pumped (the 2: the second connection's)");
            assertQueueWithinBudget();
            attacker.frame(PING, 0, 0, new byte[8]);
            for (Frame frame = attacker.next(); frame.type() != PING; frame = attacker.next()) {
                assertTrue(frame.type() != GOAWAY, "the connection goes on: no GOAWAY");
            }
        }
    }

    @Test
    void connectionWindowUpdatesWakeOneWaitingStreamEachAndTheOutputIsHeldAtTheBudget() throws Exception {
        int port = start(o -> o.writeStallTimeout(Duration.ofSeconds(2)));
        try (H2Client attacker = new H2Client(port).blindHandshake(0x4, Integer.MAX_VALUE)) { // wide stream windows
            ByteArrayOutputStream streams = new ByteArrayOutputStream();
            for (int stream = 1; stream <= 255; stream += 2) { // 128 answers of 256 KiB: the first one takes the
                streams.writeBytes(frameBytes(HEADERS, END_HEADERS | END_STREAM, stream, attacker.block(":method",
                        "GET", ":scheme", "http", ":authority", "a", ":path", "/large"))); // connection's window
            }
            attacker.send(streams.toByteArray());
            servedMeanwhile(); // after it, the attacker's 128 streams were handled (an earlier turn)
            long pumped = WorkProbe.http2StreamsPumped(server);
            long frames = WorkProbe.http2Frames(server);
            byte[] update = frameBytes(WINDOW_UPDATE, 0, 0, ByteBuffer.allocate(4).putInt(16_384).array());
            ByteArrayOutputStream flood = new ByteArrayOutputStream();
            for (int i = 0; i < 20_000; i++) { // each lets one waiting stream send a frame
                flood.writeBytes(update);
            }
            Thread writer = background(attacker, flood.toByteArray());
            await("the output at its budget", () -> server.metrics().queuedOutputBytes() >= BUDGET);
            assertQueueWithinBudget();
            servedMeanwhile();
            await("closed: the output was not taken", () -> server.metrics().refusals("HTTP2_OUTPUT_NOT_TAKEN") == 1);
            await("dropped with the connection", () -> server.metrics().queuedOutputBytes() == 0);
            long handled = WorkProbe.http2Frames(server) - frames;
            long pumps = WorkProbe.http2StreamsPumped(server) - pumped;
            assertTrue(handled < 20_000, "reading stopped at the budget: " + handled + " frames handled");
            assertTrue(pumps <= handled, "one stream pumped per update at most: " + pumps + " for " + handled);
            writer.join(10_000);
        }
    }

    // ---------------------------------------------------------------- refusals inside flow control

    @Test
    void aRefusalsBodyWaitsForTheWindowsAndTheConnectionWindowCountsOnlyWhatWasSent() throws Exception {
        int port = start(o -> o);
        byte[] bomb = bomb();
        try (H2Client client = new H2Client(port).handshake(0x4, 0)) { // INITIAL_WINDOW_SIZE 0
            client.frame(HEADERS, END_HEADERS | END_STREAM, 1, bomb);
            Frame refusal = client.expect(HEADERS);
            assertEquals(":status: 431", client.fields(refusal).get(0));
            assertTrue(refusal.has(END_STREAM), "headers only");
            assertEquals(65_535, dataUntilPing(client, 3), "the connection's window is whole: nothing was counted");
        }
        try (H2Client client = new H2Client(port).handshake()) { // the default window: the refusal's body fits
            client.frame(HEADERS, END_HEADERS | END_STREAM, 1, bomb);
            Frame refusal = client.expect(HEADERS);
            assertTrue(!refusal.has(END_STREAM));
            int body = client.expect(DATA).payload().length;
            assertTrue(body > 0);
            assertEquals(65_535 - body, dataUntilPing(client, 3), "the refusal's body took from the window");
        }
    }

    /** A header block of 8 KB that decodes to 40 KB: a 4,000-byte field, then ten references to it. */
    private static byte[] bomb() {
        ByteArrayOutputStream block = new ByteArrayOutputStream();
        block.writeBytes(new byte[] {(byte) 0x82, (byte) 0x86, (byte) 0x84});
        block.writeBytes(new byte[] {0x40, 0x01, 'a', 0x7F, (byte) 0xA1, 0x1E});
        block.writeBytes("y".repeat(4000).getBytes(UTF_8));
        for (int i = 0; i < 10; i++) {
            block.write(0xBE);
        }
        return block.toByteArray();
    }

    /**
     * Opens the streams' windows wide, asks {@code /wait}'s 10 KB answers on {@code stream} and the next seven
     * (80 KB: more than a connection window), then a PING: returns the DATA bytes that came before the PING's ack.
     */
    private static int dataUntilPing(H2Client client, int stream) throws IOException {
        client.frame(SETTINGS, 0, 0, ByteBuffer.allocate(6).putShort((short) 0x4).putInt(1 << 20).array());
        for (int i = 0; i < 8; i++) {
            client.get(stream + 2 * i, "/wait");
        }
        client.frame(PING, 0, 0, new byte[8]);
        int data = 0;
        while (true) {
            Frame frame = client.next();
            if (frame.type() == PING) {
                return data;
            }
            if (frame.type() == DATA) {
                data += frame.payload().length;
            }
        }
    }

    // ---------------------------------------------------------------- helpers

    /**
     * A second connection to the same reactor is served: two exchanges one after the other, so that the second
     * comes in a later turn of the reactor than any byte the attacker had sent before the first.
     */
    private void servedMeanwhile() throws IOException {
        try (H2Client other = new H2Client(server.port()).handshake()) {
            other.get(1, "/hello");
            assertEquals(":status: 200|hello", other.response(1));
            other.get(3, "/hello");
            assertEquals(":status: 200|hello", other.response(3));
        }
    }

    /** The queued-output gauge is within the budget (and the answer to the frame being handled when it was hit). */
    private void assertQueueWithinBudget() {
        long queued = server.metrics().queuedOutputBytes();
        assertTrue(queued <= BUDGET + SLACK, "queued output " + queued + " beyond the budget " + BUDGET);
    }

    /** Writes {@code bytes} on another thread (the server may stop reading them); the close of the socket ends it. */
    private static Thread background(H2Client client, byte[] bytes) {
        Thread writer = new Thread(() -> {
            try {
                client.send(bytes);
            } catch (IOException e) {
                // the server closed the connection
            }
        }, "attacker");
        writer.setDaemon(true);
        writer.start();
        return writer;
    }

    /** Polls {@code condition} until it holds; fails after 30 s. */
    private static void await(String what, BooleanSupplier condition) {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (!condition.getAsBoolean()) {
            assertTrue(System.nanoTime() - deadline < 0, "timed out waiting for: " + what);
            LockSupport.parkNanos(1_000_000);
        }
    }
}
