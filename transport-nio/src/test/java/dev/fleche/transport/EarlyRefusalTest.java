package dev.fleche.transport;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.time.Duration;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Announced sizes are refused as soon as they are known: a chunk size line that would take the body over
 * {@code maxBodyBytes} gets 413 at once, the client having sent only that line (no chunk data follows, so an answer
 * that waited for the bytes would never come and {@code readResponse} would time out).
 */
class EarlyRefusalTest {
    private HttpServer server;
    private final AtomicInteger bodyBytesSeen = new AtomicInteger();

    @AfterEach
    void stop() throws Exception {
        if (server != null) {
            server.stop(Duration.ZERO);
        }
    }

    private void start(long maxBodyBytes) throws Exception {
        // The handler reads the streamed body on its own thread; the refusal must not wait for it.
        server = HttpServer.create(RawClient.loopback().maxBodyBytes(maxBodyBytes).build(), exchange -> {
            Thread reader = new Thread(() -> {
                try {
                    bodyBytesSeen.addAndGet(exchange.requestBody().readAllBytes().length);
                } catch (java.io.IOException expected) {
                    // the refusal fails the reader
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
    void firstChunkSizeOverTheLimitIs413AtOnce() throws Exception {
        start(1000);
        try (RawClient client = RawClient.connect(server)) {
            client.send("POST /upload HTTP/1.1\r\nHost: test\r\nTransfer-Encoding: chunked\r\n\r\n3e9\r\n");
            assertEquals(TOO_LARGE, client.readResponse()); // 0x3e9 = 1001
            client.assertEof();
        }
    }

    @Test
    void laterChunkSizeThatTakesTheBodyOverTheLimitIs413AtOnce() throws Exception {
        start(1000);
        try (RawClient client = RawClient.connect(server)) {
            // 500 bytes received, then a size line announcing 501 more: 1001 in all.
            client.send("POST /upload HTTP/1.1\r\nHost: test\r\nTransfer-Encoding: chunked\r\n\r\n1f4\r\n"
                    + "a".repeat(500) + "\r\n1f5;ext=1\r\n");
            assertEquals(TOO_LARGE, client.readResponse());
            client.assertEof();
        }
    }

    @Test
    void hugeChunkSizeIs413AtOnce() throws Exception {
        start(1000);
        try (RawClient client = RawClient.connect(server)) {
            client.send("POST /upload HTTP/1.1\r\nHost: test\r\nTransfer-Encoding: chunked\r\n\r\n7fffffffffffffff\r\n");
            assertEquals(TOO_LARGE, client.readResponse());
            client.assertEof();
        }
    }

    @Test
    void chunksUpToTheLimitExactlyAreAccepted() throws Exception {
        server = HttpServer.create(RawClient.loopback().maxBodyBytes(1000).build(), exchange -> new Thread(() -> {
            try {
                int n = exchange.requestBody().readAllBytes().length;
                exchange.respond(200, new HttpFields(), String.valueOf(n).getBytes(java.nio.charset.StandardCharsets.US_ASCII));
            } catch (java.io.IOException e) {
                exchange.abort();
            }
        }).start()).start();
        try (RawClient client = RawClient.connect(server)) {
            client.send("POST /upload HTTP/1.1\r\nHost: test\r\nTransfer-Encoding: chunked\r\n\r\n1f4\r\n"
                    + "a".repeat(500) + "\r\n1f4\r\n" + "b".repeat(500) + "\r\n0\r\n\r\n");
            assertEquals("""
                    HTTP/1.1 200 OK\r
                    Date: <date>\r
                    Content-Length: 4\r
                    \r
                    1000""", client.readResponse());
        }
    }
}
