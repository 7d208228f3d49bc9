package dev.fleche.transport;

import static java.nio.charset.StandardCharsets.UTF_8;
import static java.util.concurrent.TimeUnit.SECONDS;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.LinkedBlockingQueue;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A client that sends whole requests and then ends its direction (TCP FIN, {@code shutdownOutput()}, as curl and
 * load balancers do) still gets every answer, then the server closes (RFC 9112 9.6). The handler holds each exchange
 * until the test has seen the server read the FIN, so the FIN arrives while the request is in flight. A FIN in the
 * middle of a request is still the client leaving, and so is one while the exchange watches for the client's
 * departure ({@code onDisconnect}: a long-poll), as on Jersey's other containers.
 */
@Timeout(20)
class HalfCloseTest {
    private final BlockingQueue<HttpExchange> held = new LinkedBlockingQueue<>();
    private CapturedEvents events;
    private HttpServer server;

    @BeforeEach
    void start() throws Exception {
        events = new CapturedEvents().start();
        server = HttpServer.create(RawClient.loopback().reactors(1).build(), held::add).start();
    }

    @AfterEach
    void stop() throws Exception {
        server.stop(Duration.ZERO);
        events.close();
    }

    private static void answer(HttpExchange exchange) {
        exchange.respond(200, new HttpFields().add("Content-Type", "text/plain"),
                (exchange.method() + " " + exchange.target() + "\n").getBytes(UTF_8));
    }

    private static String answered(String text) {
        return """
                HTTP/1.1 200 OK\r
                Content-Type: text/plain\r
                Date: <date>\r
                Content-Length: %d\r
                \r
                %s""".formatted(text.length(), text);
    }

    private void awaitEvent(String event) {
        Await.until(event, () -> events.events().stream().anyMatch(e -> e.startsWith(event)));
    }

    private HttpExchange next() throws InterruptedException {
        HttpExchange exchange = held.poll(10, SECONDS);
        assertTrue(exchange != null, "no request reached the handler");
        return exchange;
    }

    @Test
    void aRequestFollowedByFinIsAnsweredThenClosed() throws Exception {
        try (RawClient client = RawClient.connect(server)) {
            client.send("GET /one HTTP/1.1\r\nHost: test\r\n\r\n");
            HttpExchange exchange = next();
            client.shutdownOutput();
            awaitEvent("event=half-close conn=1");
            assertTrue(exchange.isOpen(), "a half-close is not a departure");
            answer(exchange);
            assertEquals(answered("GET /one\n"), client.readResponse());
            client.assertEof();
        }
        awaitEvent("event=close conn=1 reason=done");
        assertTrue(events.events().stream().noneMatch(e -> e.startsWith("event=disconnect")), events.events().toString());
    }

    @Test
    void aPipelinedPairFollowedByFinGetsBothAnswers() throws Exception {
        try (RawClient client = RawClient.connect(server)) {
            client.send("GET /one HTTP/1.1\r\nHost: test\r\n\r\nGET /two HTTP/1.1\r\nHost: test\r\n\r\n");
            HttpExchange first = next();
            client.shutdownOutput();
            awaitEvent("event=half-close conn=1");
            assertFalse(server.metrics().requests() > 1, "the second request waits for the first answer");
            answer(first);
            HttpExchange second = next();
            assertEquals("/two", second.target());
            answer(second);
            assertEquals(answered("GET /one\n") + answered("GET /two\n"), client.readResponse() + client.readResponse());
            client.assertEof();
        }
        assertEquals(2, server.metrics().requests());
    }

    @Test
    void finInTheMiddleOfABodyIsADisconnect() throws Exception {
        try (RawClient client = RawClient.connect(server)) {
            client.send("POST /upload HTTP/1.1\r\nHost: test\r\nContent-Length: 10\r\n\r\nabc");
            client.shutdownOutput();
            client.assertEof(); // no answer: the client left before its request was whole
        }
        awaitEvent("event=disconnect conn=1");
        awaitEvent("event=close conn=1 reason=eof");
        assertTrue(held.isEmpty(), "a small body is dispatched only when whole");
    }

    @Test
    void finInTheMiddleOfAPipelinedHeadAfterAHeldRequestClosesAfterTheAnswer() throws Exception {
        try (RawClient client = RawClient.connect(server)) {
            client.send("GET /one HTTP/1.1\r\nHost: test\r\n\r\nGET /tw");
            HttpExchange first = next();
            client.shutdownOutput();
            awaitEvent("event=half-close conn=1");
            answer(first);
            assertEquals(answered("GET /one\n"), client.readResponse());
            client.assertEof();
        }
        awaitEvent("event=disconnect conn=1");
        assertEquals(1, server.metrics().requests());
    }

    @Test
    void finWhileTheExchangeWatchesForDepartureIsTheClientLeaving() throws Exception {
        CountDownLatch left = new CountDownLatch(1);
        try (RawClient client = RawClient.connect(server)) {
            client.send("GET /poll HTTP/1.1\r\nHost: test\r\n\r\n");
            HttpExchange exchange = next();
            exchange.onDisconnect(left::countDown); // a long-poll: it waits, and wants to know if the client leaves
            client.shutdownOutput();
            assertTrue(left.await(10, SECONDS), "the departure callback did not run");
            assertFalse(exchange.isOpen());
            client.assertEof(); // nothing is answered to a client that left
        }
        awaitEvent("event=disconnect conn=1");
        awaitEvent("event=close conn=1 reason=eof");
    }

    @Test
    void aWatchRegisteredAfterTheFinStillSeesTheDeparture() throws Exception {
        CountDownLatch left = new CountDownLatch(1);
        try (RawClient client = RawClient.connect(server)) {
            client.send("GET /poll HTTP/1.1\r\nHost: test\r\n\r\n");
            HttpExchange exchange = next();
            client.shutdownOutput();
            awaitEvent("event=half-close conn=1");
            exchange.onDisconnect(left::countDown);
            assertTrue(left.await(10, SECONDS), "the departure callback did not run");
            client.assertEof();
        }
        awaitEvent("event=close conn=1 reason=eof");
    }
}
