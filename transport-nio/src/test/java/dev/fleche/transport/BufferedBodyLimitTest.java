package dev.fleche.transport;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * {@link HttpExchange#expectBufferedBody()}: a handler that holds the body in memory gets the tighter
 * {@code maxBufferedBodyBytes}. Over it, {@code 413} at once when the declared length says so (no
 * {@code 100 Continue}, the method throws), on a chunk's size line, or once the bytes cross it; the handler's
 * reads then fail with a {@link RequestBodyException} of status 413 and it never gets a byte beyond the limit.
 */
@Timeout(30)
class BufferedBodyLimitTest {
    private HttpServer server;
    private final AtomicLong delivered = new AtomicLong();
    private final CompletableFuture<Throwable> failure = new CompletableFuture<>();

    @AfterEach
    void stop() throws Exception {
        if (server != null) {
            server.stop(Duration.ZERO);
        }
    }

    /** The handler declares a buffered body and reads it on its own thread; answers 200 with the count if whole. */
    private void start(long maxBuffered) throws Exception {
        server = HttpServer.create(RawClient.loopback().maxBufferedBodyBytes(maxBuffered).build(), exchange -> {
            Thread reader = new Thread(() -> {
                try {
                    exchange.expectBufferedBody();
                    byte[] buffer = new byte[4096];
                    for (int n; (n = exchange.requestBody().read(buffer)) >= 0; ) {
                        delivered.addAndGet(n);
                    }
                    exchange.respond(200, new HttpFields(0), ("read " + delivered.get()).getBytes());
                } catch (IOException | RuntimeException e) {
                    failure.complete(e);
                }
            });
            reader.setDaemon(true);
            reader.start();
        }).start();
    }

    private static final String TOO_LARGE = """
            HTTP/1.1 413 Content Too Large\r
            Content-Type: text/plain; charset=utf-8\r
            Date: <date>\r
            Content-Length: 36\r
            Connection: close\r
            \r
            request body larger than 1000 bytes
            """;

    @Test
    void aDeclaredLengthOverTheLimitIs413BeforeContinue() throws Exception {
        start(1000);
        try (RawClient client = RawClient.connect(server)) {
            client.send("POST /upload HTTP/1.1\r\nHost: test\r\nExpect: 100-continue\r\nContent-Length: 1001\r\n\r\n");
            assertEquals(TOO_LARGE, client.readResponse()); // not "100 Continue" first
            client.assertEof();
        }
        RequestBodyException e = assertInstanceOf(RequestBodyException.class, failure.get(10, TimeUnit.SECONDS));
        assertEquals(413, e.status());
        assertEquals("BODY_TOO_LARGE", e.rule());
    }

    @Test
    void aChunkSizeLineOverTheLimitIs413AtOnce() throws Exception {
        start(1000);
        try (RawClient client = RawClient.connect(server)) {
            client.send("POST /upload HTTP/1.1\r\nHost: test\r\nTransfer-Encoding: chunked\r\n\r\n10\r\n"
                    + "a".repeat(16) + "\r\n3e9\r\n");
            assertEquals(TOO_LARGE, client.readResponse());
            client.assertEof();
        }
        assertEquals(413, ((RequestBodyException) failure.get(10, TimeUnit.SECONDS)).status());
        assertTrue(delivered.get() <= 1000);
    }

    @Test
    void chunksCrossingTheLimitAre413AndNothingBeyondIsRead() throws Exception {
        start(1000);
        try (RawClient client = RawClient.connect(server)) {
            StringBuilder body = new StringBuilder("POST /upload HTTP/1.1\r\nHost: test\r\nTransfer-Encoding: chunked\r\n\r\n");
            for (int i = 0; i < 40; i++) {
                body.append("64\r\n").append("b".repeat(100)).append("\r\n"); // 4,000 bytes in 100-byte chunks
            }
            client.send(body.toString());
            assertEquals(TOO_LARGE, client.readResponse());
        }
        assertEquals(413, ((RequestBodyException) failure.get(10, TimeUnit.SECONDS)).status());
        assertTrue(delivered.get() <= 1000, "delivered " + delivered.get());
    }

    @Test
    void aBodyWithinTheLimitIsRead() throws Exception {
        start(1000);
        try (RawClient client = RawClient.connect(server)) {
            client.send("POST /upload HTTP/1.1\r\nHost: test\r\nContent-Length: 1000\r\n\r\n" + "c".repeat(1000));
            assertTrue(client.readResponse().endsWith("\r\n\r\nread 1000"));
        }
    }
}
