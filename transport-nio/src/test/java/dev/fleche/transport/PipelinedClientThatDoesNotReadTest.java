package dev.fleche.transport;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.io.BufferedInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.net.InetAddress;
import java.net.Socket;
import java.time.Duration;
import java.util.Arrays;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import java.util.function.BooleanSupplier;

import static java.nio.charset.StandardCharsets.US_ASCII;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * HTTP/1.1's backpressure on a client that pipelines and does not read: once the responses waiting for it reach
 * {@code outboundHighWaterBytes}, the next pipelined request waits (and the socket is not read) until the client has
 * taken them down to half; so what the server holds stays bounded however many requests the client sends, a second
 * connection is served meanwhile, and every answer still comes, in order, once the client reads. (Before, a
 * pipelined request was served as soon as the previous answer was queued: 200,000 answers queued in memory.)
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class PipelinedClientThatDoesNotReadTest {
    private static final int REQUESTS = 20_000;
    private static final int BODY = 1000;
    private static final int HIGH_WATER = 64 * 1024; // the default outboundHighWaterBytes

    private HttpServer server;

    @AfterEach
    void stop() throws Exception {
        if (server != null) {
            server.stop(Duration.ZERO);
        }
    }

    @Test
    void pipelinedRequestsWaitWhileTheAnswersAboveTheMarkAreNotTaken() throws Exception {
        server = HttpServer.create(RawClient.loopback().reactors(1).build(), exchange -> { // one: turns in order
            byte[] body = new byte[BODY];
            Arrays.fill(body, (byte) 'x');
            exchange.respond(200, new HttpFields().add("X-Seq", exchange.path().substring(1)), body);
        }).start();
        assertEquals(HIGH_WATER, server.options().outboundHighWaterBytes());
        try (Socket client = new Socket(InetAddress.getLoopbackAddress(), server.port())) {
            client.setSoTimeout(10_000);
            ByteArrayOutputStream requests = new ByteArrayOutputStream();
            for (int i = 0; i < REQUESTS; i++) {
                requests.writeBytes(("GET /" + i + " HTTP/1.1\r\nHost: t\r\n\r\n").getBytes(US_ASCII));
            }
            Thread writer = new Thread(() -> {
                try {
                    client.getOutputStream().write(requests.toByteArray()); // blocks once the server stops reading
                } catch (IOException e) {
                    // closed at the end
                }
            }, "pipeliner");
            writer.setDaemon(true);
            writer.start();

            await("the answers at the mark", () -> server.metrics().queuedOutputBytes() >= HIGH_WATER);
            servedMeanwhile();
            long held = server.metrics().requests();
            long queued = server.metrics().queuedOutputBytes();
            assertTrue(queued <= HIGH_WATER + 2 * 1024, "queued " + queued + ": the mark and one answer at most");
            assertTrue(held - 2 < REQUESTS, "requests served while the client does not read: " + (held - 2));
            servedMeanwhile();
            assertEquals(held + 2, server.metrics().requests(), "no more of the pipelined requests was served");

            InputStream in = new BufferedInputStream(client.getInputStream(), 65_536);
            for (int i = 0; i < REQUESTS; i++) { // the client reads now: every answer, in order
                assertEquals(String.valueOf(i), readResponse(in), "answer " + i);
            }
            writer.join(10_000);
        }
    }

    /** Reads one response; returns its {@code X-Seq}. */
    private static String readResponse(InputStream in) throws IOException {
        String seq = null;
        int length = -1;
        String line = line(in);
        assertTrue(line.startsWith("HTTP/1.1 200 "), line);
        while (!(line = line(in)).isEmpty()) {
            int colon = line.indexOf(':');
            String name = line.substring(0, colon).trim();
            String value = line.substring(colon + 1).trim();
            if (name.equalsIgnoreCase("X-Seq")) {
                seq = value;
            } else if (name.equalsIgnoreCase("Content-Length")) {
                length = Integer.parseInt(value);
            }
        }
        assertEquals(BODY, length);
        assertEquals(BODY, in.readNBytes(length).length);
        return seq;
    }

    private static String line(InputStream in) throws IOException {
        StringBuilder line = new StringBuilder();
        int b;
        while ((b = in.read()) != '\n') {
            if (b < 0) {
                throw new IOException("end of stream in a response head");
            }
            if (b != '\r') {
                line.append((char) b);
            }
        }
        return line.toString();
    }

    /** A second connection is served: one exchange, answered. */
    private void servedMeanwhile() throws IOException {
        try (Socket other = new Socket(InetAddress.getLoopbackAddress(), server.port())) {
            other.setSoTimeout(10_000);
            other.getOutputStream().write("GET /other HTTP/1.1\r\nHost: t\r\n\r\nGET /again HTTP/1.1\r\nHost: t\r\n\r\n"
                    .getBytes(US_ASCII));
            InputStream in = new BufferedInputStream(other.getInputStream());
            assertEquals("other", readResponse(in));
            assertEquals("again", readResponse(in));
        }
    }

    private static void await(String what, BooleanSupplier condition) {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (!condition.getAsBoolean()) {
            assertTrue(System.nanoTime() - deadline < 0, "timed out waiting for: " + what);
            LockSupport.parkNanos(1_000_000);
        }
    }
}
