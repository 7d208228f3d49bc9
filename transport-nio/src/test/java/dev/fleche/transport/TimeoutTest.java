package dev.fleche.transport;

import static java.nio.charset.StandardCharsets.UTF_8;
import static java.util.concurrent.TimeUnit.SECONDS;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.OutputStream;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Every connection timeout, driven by an injected clock: nothing here waits for a timeout to elapse in real
 * time. The reactor ticks every 10 ms of real time and reads the injected clock then, so after the test moves the
 * clock it just reads the socket (with the client's read timeout) for what must follow.
 *
 * <p>Each timeout is distinct from the defaults around it (header 20 s, body 30 s, write stall 30 s, idle 60 s),
 * so advancing just past one of them tells whether the right one applies. The clock starts at 0: a deadline
 * computed from an instant 0 must work like any other.
 */
class TimeoutTest {
    private final AtomicLong clock = new AtomicLong();
    private final ExecutorService workers = Executors.newCachedThreadPool();
    private HttpServer server;

    @AfterEach
    void stop() throws Exception {
        if (server != null) {
            server.stop(Duration.ZERO);
        }
        workers.shutdownNow();
    }

    private void start(HttpHandler handler) throws IOException {
        ServerOptions options = RawClient.loopback().reactors(1).nanoClock(clock::get).build();
        server = HttpServer.create(options, handler).start();
    }

    private void advance(Duration by) {
        clock.addAndGet(by.toNanos());
    }

    /**
     * Waits until the server has read {@code bytes}. The reactor samples the clock before it reads, so once they
     * are counted the clock can move: the deadlines they started use the time before.
     */
    private void awaitRead(long bytes) {
        Await.until("the server read " + bytes + " bytes", () -> server.metrics().bytesRead() == bytes);
    }

    private static HttpHandler hello() {
        return exchange -> exchange.respond(200, new HttpFields(), "hello\n".getBytes(UTF_8));
    }

    @Test
    void slowlorisGets408AfterTheHeaderTimeout() throws Exception {
        start(hello());
        try (RawClient client = RawClient.connect(server)) {
            String partial = "GET / HTTP/1.1\r\nHost: te";
            client.send(partial);
            awaitRead(partial.length());
            advance(Duration.ofSeconds(21));
            assertEquals("""
                    HTTP/1.1 408 Request Timeout\r
                    Content-Type: text/plain; charset=utf-8\r
                    Date: <date>\r
                    Content-Length: 34\r
                    Connection: close\r
                    \r
                    request head not received in time
                    """, client.readResponse());
            client.assertEof();
        }
        assertEquals(1, server.metrics().timeouts());
    }

    @Test
    void idleKeepAliveConnectionIsClosedAfterTheIdleTimeout() throws Exception {
        start(hello());
        try (RawClient client = RawClient.connect(server)) {
            client.send("GET / HTTP/1.1\r\nHost: test\r\n\r\n");
            assertEquals("""
                    HTTP/1.1 200 OK\r
                    Date: <date>\r
                    Content-Length: 6\r
                    \r
                    hello
                    """, client.readResponse());
            advance(Duration.ofSeconds(61));
            client.assertEof();
        }
        assertEquals(1, server.metrics().timeouts());
    }

    @Test
    void bodyThatStopsArrivingGets408AfterTheBodyTimeout() throws Exception {
        start(hello());
        try (RawClient client = RawClient.connect(server)) {
            String head = "POST / HTTP/1.1\r\nHost: test\r\nContent-Length: 100\r\n\r\n";
            client.send(head + "0123456789");
            awaitRead(head.length() + 10);
            advance(Duration.ofSeconds(31));
            assertEquals("""
                    HTTP/1.1 408 Request Timeout\r
                    Content-Type: text/plain; charset=utf-8\r
                    Date: <date>\r
                    Content-Length: 34\r
                    Connection: close\r
                    \r
                    request body not received in time
                    """, client.readResponse());
            client.assertEof();
        }
        assertEquals(1, server.metrics().timeouts());
    }

    @Test
    void clientThatStopsReadingFailsTheWriterAfterTheWriteStallTimeout() throws Exception {
        AtomicReference<Thread> writer = new AtomicReference<>();
        AtomicLong written = new AtomicLong();
        CompletableFuture<Void> done = new CompletableFuture<>();
        start(exchange -> workers.execute(() -> {
            writer.set(Thread.currentThread());
            byte[] block = new byte[64 * 1024];
            try (OutputStream body = exchange.startResponse(200, new HttpFields(), 1L << 30)) {
                while (true) {
                    body.write(block);
                    written.addAndGet(block.length);
                }
            } catch (Throwable t) {
                done.completeExceptionally(t);
            }
        }));
        try (RawClient client = RawClient.connect(server)) {
            client.send("GET /endless HTTP/1.1\r\nHost: test\r\n\r\n");
            Await.until("the handler starts writing", () -> writer.get() != null);
            Await.writerBlocked(writer.get(), written::get, () -> server.metrics().bytesWritten());
            advance(Duration.ofSeconds(31));
            ExecutionException failure = assertThrows(ExecutionException.class, () -> done.get(5, SECONDS));
            assertInstanceOf(IOException.class, failure.getCause());
            assertTrue(failure.getCause().getMessage().contains("write-stall"), failure.getCause().getMessage());
            String received = client.readToEof(); // what was in flight, then EOF
            assertTrue(received.startsWith("HTTP/1.1 200 OK\r\n"), received.substring(0, 40));
        }
        assertEquals(1, server.metrics().timeouts());
    }
}
