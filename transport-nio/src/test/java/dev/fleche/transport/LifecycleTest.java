package dev.fleche.transport;

import static java.nio.charset.StandardCharsets.UTF_8;
import static java.util.concurrent.TimeUnit.SECONDS;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.net.ConnectException;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** Start, graceful and forced stop, restart, the connection limit, and the counters that follow them. */
class LifecycleTest {
    private static final String GET = "GET / HTTP/1.1\r\nHost: test\r\n\r\n";
    private static final String HELLO = """
            HTTP/1.1 200 OK\r
            Content-Type: text/plain\r
            Date: <date>\r
            Content-Length: 6\r
            \r
            hello
            """;

    private final ExecutorService workers = Executors.newCachedThreadPool();
    private final CountDownLatch release = new CountDownLatch(1);
    private HttpServer server;
    private HttpServer second;

    @AfterEach
    void stop() throws Exception {
        release.countDown();
        for (HttpServer s : new HttpServer[] {server, second}) {
            if (s != null) {
                s.stop(Duration.ZERO);
            }
        }
        workers.shutdownNow();
    }

    private static HttpHandler hello() {
        return exchange -> exchange.respond(200, new HttpFields().add("Content-Type", "text/plain"),
                "hello\n".getBytes(UTF_8));
    }

    /** Answers {@code /slow} only once {@link #release} is counted down, from a worker thread. */
    private HttpHandler slowOrHello(CountDownLatch slowStarted) {
        HttpHandler hello = hello();
        return exchange -> {
            if (!exchange.path().equals("/slow")) {
                hello.handle(exchange);
                return;
            }
            slowStarted.countDown();
            workers.execute(() -> {
                try {
                    if (release.await(30, SECONDS)) {
                        exchange.respond(200, new HttpFields().add("Content-Type", "text/plain"),
                                "slow\n".getBytes(UTF_8));
                    }
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            });
        };
    }

    private HttpServer start(ServerOptions.Builder options, HttpHandler handler) throws IOException {
        return HttpServer.create(options.build(), handler).start();
    }

    @Test
    void portZeroPicksAFreePortThatPortReports() throws Exception {
        server = start(RawClient.loopback(), hello()); // port 0
        assertNotEquals(0, server.port());
        assertEquals(server.port(), server.address().getPort());
        try (RawClient client = RawClient.connect(server.port())) {
            client.send(GET);
            assertEquals(HELLO, client.readResponse());
        }
    }

    @Test
    void gracefulStopRefusesNewConnectionsClosesIdleOnesAndFinishesTheRequestInFlight() throws Exception {
        CountDownLatch slowStarted = new CountDownLatch(1);
        // One reactor: the idle connection's EOF then proves the drain has begun for the busy one too.
        server = start(RawClient.loopback().reactors(1), slowOrHello(slowStarted));
        int port = server.port();
        try (RawClient idle = RawClient.connect(server); RawClient busy = RawClient.connect(server)) {
            idle.send(GET);
            assertEquals(HELLO, idle.readResponse());
            busy.send("GET /slow HTTP/1.1\r\nHost: test\r\n\r\n");
            assertTrue(slowStarted.await(5, SECONDS));

            CompletableFuture<Boolean> stopped = CompletableFuture.supplyAsync(() -> {
                try {
                    return server.stop(Duration.ofSeconds(10));
                } catch (InterruptedException e) {
                    throw new IllegalStateException(e);
                }
            }, workers);

            idle.assertEof(); // closed by the stop, which has closed the listening socket before
            assertThrows(ConnectException.class, () -> RawClient.connect(port).close());
            assertFalse(stopped.isDone(), "stop returned with a request in flight");

            release.countDown();
            assertEquals("""
                    HTTP/1.1 200 OK\r
                    Content-Type: text/plain\r
                    Date: <date>\r
                    Content-Length: 5\r
                    Connection: close\r
                    \r
                    slow
                    """, busy.readResponse());
            busy.assertEof();
            assertTrue(stopped.get(5, SECONDS), "stop reported a request left unfinished");
        }
        assertEquals(0, server.metrics().openConnections());
    }

    @Test
    void aRequestSentOnAnIdleConnectionAsTheStopBeginsIsAnsweredWithClose() throws Exception {
        // Closing idle connections at once would lose a request already on its way (a keep-alive client under load
        // sends its next request as soon as it has read a response): the drain answers it, then closes.
        server = start(RawClient.loopback().reactors(1), hello());
        try (RawClient client = RawClient.connect(server)) {
            client.send(GET);
            assertEquals(HELLO, client.readResponse());
            CompletableFuture<Boolean> stopped = CompletableFuture.supplyAsync(() -> {
                try {
                    return server.stop(Duration.ofSeconds(10));
                } catch (InterruptedException e) {
                    throw new IllegalStateException(e);
                }
            }, workers);
            String response = "";
            for (int i = 0; i < 5_000 && !response.contains("Connection: close"); i++) {
                client.send(GET); // keeps sending as a loaded client would, until the drain has begun
                response = client.readResponse();
                java.util.concurrent.locks.LockSupport.parkNanos(1_000_000);
            }
            assertEquals(HELLO.replace("Content-Length: 6\r\n", "Content-Length: 6\r\nConnection: close\r\n"),
                    response, "the request sent during the drain was answered, and the connection closes after it");
            client.assertEof();
            assertTrue(stopped.get(5, SECONDS));
        }
    }

    @Test
    void stopWithARequestThatNeverFinishesReturnsFalseAfterTheGracePeriod() throws Exception {
        CountDownLatch slowStarted = new CountDownLatch(1);
        server = start(RawClient.loopback(), slowOrHello(slowStarted));
        try (RawClient busy = RawClient.connect(server)) {
            busy.send("GET /slow HTTP/1.1\r\nHost: test\r\n\r\n");
            assertTrue(slowStarted.await(5, SECONDS));
            long start = System.nanoTime();
            assertFalse(server.stop(Duration.ofMillis(300)));
            assertTrue(System.nanoTime() - start >= 300_000_000L, "stop did not wait for the grace period");
            busy.assertEof();
        }
        assertEquals(0, server.metrics().openConnections());
    }

    @Test
    void restartOnTheSamePortRightAfterStop() throws Exception {
        server = start(RawClient.loopback(), hello());
        int port = server.port();
        try (RawClient client = RawClient.connect(port)) {
            client.send(GET);
            assertEquals(HELLO, client.readResponse());
        }
        assertTrue(server.stop(Duration.ofSeconds(5)));
        second = start(RawClient.loopback().address(RawClient.HOST, port), hello());
        assertEquals(port, second.port());
        try (RawClient client = RawClient.connect(port)) {
            client.send(GET);
            assertEquals(HELLO, client.readResponse());
        }
    }

    @Test
    void connectionsBeyondMaxConnectionsGet503AndAreClosed() throws Exception {
        server = start(RawClient.loopback().maxConnections(2), hello());
        try (RawClient first = RawClient.connect(server); RawClient second = RawClient.connect(server)) {
            for (RawClient client : new RawClient[] {first, second}) {
                client.send(GET); // answered: both are registered with a reactor
                assertEquals(HELLO, client.readResponse());
            }
            try (RawClient third = RawClient.connect(server)) {
                assertEquals("""
                        HTTP/1.1 503 Service Unavailable\r
                        Content-Type: text/plain; charset=utf-8\r
                        Retry-After: 1\r
                        Date: <date>\r
                        Content-Length: 21\r
                        Connection: close\r
                        \r
                        too many connections
                        """, third.readToEof());
            }
            ServerMetrics metrics = server.metrics();
            assertEquals(2, metrics.openConnections());
            assertEquals(2, metrics.acceptedConnections());
            assertEquals(1, metrics.refusedConnections());
            assertEquals(2, metrics.requests());
            assertEquals(0, metrics.closedConnections());

            first.close();
            Await.until("one connection closed", () -> server.metrics().openConnections() == 1);
            try (RawClient fourth = RawClient.connect(server)) {
                fourth.send(GET);
                assertEquals(HELLO, fourth.readResponse());
            }
        }
        Await.until("every connection closed", () -> server.metrics().openConnections() == 0);
        ServerMetrics metrics = server.metrics();
        assertEquals(3, metrics.acceptedConnections());
        assertEquals(1, metrics.refusedConnections());
        assertEquals(3, metrics.closedConnections());
        assertEquals(3, metrics.requests());
    }
}
