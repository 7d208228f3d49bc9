package dev.fleche.transport;

import static java.nio.charset.StandardCharsets.UTF_8;
import static java.util.concurrent.TimeUnit.SECONDS;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.OutputStream;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * A client that leaves while its request is held: the exchange learns of it at once (callback, {@code isOpen}),
 * and writing a response fails instead of going nowhere. Once with an orderly close (FIN) in the middle of the
 * request's body, once with a reset. (A FIN after a whole request is a half-close, not a departure: the client still
 * gets its answer — {@link HalfCloseTest}.)
 */
class DisconnectTest {
    /** How long a disconnect may take to be noticed before the test fails: a bound on a wait, not a guess. */
    private static final long NOTICE_SECONDS = 10;

    private final CompletableFuture<HttpExchange> held = new CompletableFuture<>();
    private final CountDownLatch disconnected = new CountDownLatch(1);
    private HttpServer server;

    @BeforeEach
    void start() throws IOException {
        // The handler holds the exchange without answering; the callback is registered from the reactor thread.
        server = HttpServer.create(RawClient.loopback().build(), exchange -> {
            exchange.onDisconnect(disconnected::countDown);
            held.complete(exchange);
        }).start();
    }

    @AfterEach
    void stop() throws Exception {
        server.stop(Duration.ZERO);
    }

    private HttpExchange holdRequest(RawClient client) throws Exception {
        // A streamed (chunked) body: the handler holds the exchange while the body is still expected.
        client.send("POST /held HTTP/1.1\r\nHost: test\r\nTransfer-Encoding: chunked\r\n\r\n3\r\nabc\r\n");
        HttpExchange exchange = held.get(5, SECONDS);
        assertTrue(exchange.isOpen());
        assertFalse(disconnected.await(0, SECONDS));
        return exchange;
    }

    private void assertGone(HttpExchange exchange) throws Exception {
        assertTrue(disconnected.await(NOTICE_SECONDS, SECONDS), "onDisconnect never ran");
        assertFalse(exchange.isOpen());
        OutputStream body = exchange.startResponse(200, new HttpFields(), -1);
        assertThrows(IOException.class, () -> {
            body.write("too late".getBytes(UTF_8));
            body.flush();
        });
        Await.until("the connection is closed", () -> server.metrics().openConnections() == 0);
    }

    @Test
    void clientCloseRunsTheDisconnectCallback() throws Exception {
        HttpExchange exchange;
        try (RawClient client = RawClient.connect(server)) {
            exchange = holdRequest(client);
        }
        assertGone(exchange);
    }

    @Test
    void clientResetRunsTheDisconnectCallback() throws Exception {
        RawClient client = RawClient.connect(server);
        HttpExchange exchange = holdRequest(client);
        client.reset();
        assertGone(exchange);
    }

    @Test
    void callbackRegisteredAfterTheClientLeftRunsAtOnce() throws Exception {
        HttpExchange exchange;
        try (RawClient client = RawClient.connect(server)) {
            exchange = holdRequest(client);
        }
        assertTrue(disconnected.await(NOTICE_SECONDS, SECONDS), "onDisconnect never ran");
        CountDownLatch late = new CountDownLatch(1);
        exchange.onDisconnect(late::countDown);
        assertTrue(late.await(NOTICE_SECONDS, SECONDS), "a callback registered after the disconnect never ran");
    }
}
