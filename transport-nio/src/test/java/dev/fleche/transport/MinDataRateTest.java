package dev.fleche.transport;

import static java.nio.charset.StandardCharsets.UTF_8;
import static java.util.concurrent.TimeUnit.SECONDS;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Minimum data rates ({@link ServerOptions#minRequestBodyRate()}, {@link ServerOptions#minResponseRate()}) on an
 * injected clock: 100 B/s over 5 s windows (500 bytes a window). Time only moves when the test moves it; a byte sent
 * and counted by the server marks that the reactor has run a turn at the current time.
 */
@Timeout(30)
class MinDataRateTest {
    private static final MinDataRate RATE = new MinDataRate(100, Duration.ofSeconds(5));
    private final AtomicLong clock = new AtomicLong();
    private final CompletableFuture<HttpExchange> held = new CompletableFuture<>();
    private CapturedEvents events;
    private HttpServer server;

    @AfterEach
    void stop() throws Exception {
        if (server != null) {
            server.stop(Duration.ZERO);
        }
        if (events != null) {
            events.close();
        }
    }

    private void start(HttpHandler handler) throws IOException {
        events = new CapturedEvents().start();
        server = HttpServer.create(RawClient.loopback().reactors(1).nanoClock(clock::get)
                .minRequestBodyRate(RATE).minResponseRate(RATE).build(), handler).start();
    }

    private void advance(Duration by) {
        clock.addAndGet(by.toNanos());
    }

    private void awaitRead(long bytes) {
        Await.until("the server read " + bytes + " bytes", () -> server.metrics().bytesRead() == bytes);
    }

    private static HttpHandler echoLength() {
        return exchange -> {
            byte[] text = ("received " + exchange.requestBody().readAllBytes().length + "\n").getBytes(UTF_8);
            exchange.respond(200, new HttpFields(), text);
        };
    }

    @Test
    void aTrickledBodyGets408AtTheEndOfTheGracePeriodNotBefore() throws Exception {
        start(echoLength());
        try (RawClient client = RawClient.connect(server)) {
            String head = "POST /upload HTTP/1.1\r\nHost: test\r\nContent-Length: 2000\r\n\r\n";
            client.send(head + "x".repeat(100));
            long read = head.length() + 100;
            awaitRead(read);
            advance(Duration.ofMillis(4_900));
            client.send("x".repeat(100));
            awaitRead(read += 100);
            advance(Duration.ofMillis(50));
            client.send("x");
            awaitRead(read + 1); // a turn at 4.95 s ran its timers: 201 bytes, but the window is not over
            assertEquals(0, client.available(), "answered before the grace period ended");
            assertEquals(0, server.metrics().timeouts());
            advance(Duration.ofMillis(100)); // 5.05 s: 201 bytes of the 500 the window needs
            String reason = "request body slower than the minimum data rate\n";
            assertEquals("""
                    HTTP/1.1 408 Request Timeout\r
                    Content-Type: text/plain; charset=utf-8\r
                    Date: <date>\r
                    Content-Length: %d\r
                    Connection: close\r
                    \r
                    %s""".formatted(reason.length(), reason), client.readResponse());
        }
        Await.until("the timeout is counted", () -> server.metrics().timeouts() == 1);
        assertTrue(events.events().stream().anyMatch(e -> e.equals(
                "event=reject conn=1 status=408 reason=\"request body slower than the minimum data rate\" "
                        + "rule=BODY_TOO_SLOW")), events.events().toString());
    }

    @Test
    void theRefusalOfAHeadRequestHasTheLengthOfItsTextButNoBody() throws Exception {
        start(echoLength());
        try (RawClient client = RawClient.connect(server)) {
            String head = "HEAD /upload HTTP/1.1\r\nHost: test\r\nContent-Length: 2000\r\n\r\n";
            client.send(head + "x".repeat(100));
            awaitRead(head.length() + 100);
            advance(Duration.ofMillis(5_050)); // 100 bytes of the 500 the window needs
            String reason = "request body slower than the minimum data rate\n";
            // RFC 9112 6.3: a response to HEAD ends with its head; a body here would be read as the next response
            assertEquals("""
                    HTTP/1.1 408 Request Timeout\r
                    Content-Type: text/plain; charset=utf-8\r
                    Date: <date>\r
                    Content-Length: %d\r
                    Connection: close\r
                    \r
                    """.formatted(reason.length()), client.readToEof());
        }
        Await.until("the timeout is counted", () -> server.metrics().timeouts() == 1);
    }

    @Test
    void aBodyAtTheRateIsNeverAffected() throws Exception {
        start(echoLength());
        try (RawClient client = RawClient.connect(server)) {
            String head = "POST /upload HTTP/1.1\r\nHost: test\r\nContent-Length: 1800\r\n\r\n";
            client.send(head);
            long read = head.length();
            awaitRead(read);
            for (int window = 0; window < 3; window++) {
                client.send("x".repeat(600)); // 600 bytes per 5 s window: above the 500 needed
                awaitRead(read += 600);
                if (window < 2) {
                    advance(Duration.ofMillis(5_001));
                    client.send(""); // nothing; the next window's bytes follow
                }
            }
            assertEquals("""
                    HTTP/1.1 200 OK\r
                    Date: <date>\r
                    Content-Length: 14\r
                    \r
                    received 1800
                    """, client.readResponse());
        }
        assertEquals(0, server.metrics().timeouts());
    }

    @Test
    void aReaderThatStopsReadingIsClosedAfterTheGracePeriod() throws Exception {
        byte[] large = new byte[32 * 1024 * 1024];
        start(exchange -> exchange.respond(200, new HttpFields(), large));
        try (RawClient client = RawClient.connect(server)) {
            String request = "GET /large HTTP/1.1\r\nHost: test\r\n\r\n";
            client.send(request); // the socket buffers fill; the rest waits for the client, which reads nothing
            awaitRead(request.length());
            advance(Duration.ofMillis(4_900));
            client.send("G"); // a turn at 4.9 s (the byte starts a next head, which waits its turn)
            awaitRead(request.length() + 1);
            assertEquals(1, server.metrics().openConnections(), "closed before the grace period ended");
            advance(Duration.ofMillis(200));
            Await.until("the slow reader is closed", () -> server.metrics().openConnections() == 0);
        }
        assertEquals(1, server.metrics().timeouts());
        assertTrue(events.events().contains("event=timeout conn=1 phase=response-rate"), events.events().toString());
    }

    @Test
    void aLongPollWithNothingToSendOutlivesManyGracePeriods() throws Exception {
        start(held::complete);
        try (RawClient client = RawClient.connect(server)) {
            String request = "GET /poll HTTP/1.1\r\nHost: test\r\n\r\n";
            client.send(request);
            HttpExchange exchange = held.get(10, SECONDS);
            for (int i = 1; i <= 4; i++) {
                advance(Duration.ofSeconds(6)); // four windows, no byte owed either way
                client.send(" "); // kept for the next request (pipelined): marks a turn at this time
                awaitRead(request.length() + i);
            }
            assertEquals(1, server.metrics().openConnections());
            exchange.respond(200, new HttpFields(), "news\n".getBytes(UTF_8));
            assertEquals("""
                    HTTP/1.1 200 OK\r
                    Date: <date>\r
                    Content-Length: 5\r
                    \r
                    news
                    """, client.readResponse());
        }
        assertEquals(0, server.metrics().timeouts());
    }
}
