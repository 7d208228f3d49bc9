package dev.fleche.transport;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.OutputStream;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A handler streaming on the reactor thread beyond {@code outboundHighWaterBytes} gets an {@code IOException} (a
 * reactor cannot wait); the bytes of that write are lost, so the response is aborted: the client sees it cut and the
 * connection closed — never a body with a hole in it framed as whole, nor a connection left open for ever behind a
 * response nobody can finish. Found by {@code ConnectionFuzzTest} (crash-834dc4a5...: the connection stayed open).
 */
@Timeout(20)
class ReactorWriteAboveWatermarkTest {
    private HttpServer server;

    @AfterEach
    void stop() throws Exception {
        server.stop(Duration.ZERO);
    }

    @Test
    void aStreamTooLargeForTheReactorIsAbortedNotCorrupted() throws Exception {
        CompletableFuture<IOException> failure = new CompletableFuture<>();
        CompletableFuture<IOException> later = new CompletableFuture<>();
        server = HttpServer.create(RawClient.loopback().reactors(1).outboundHighWaterBytes(1024).build(), exchange -> {
            OutputStream out = exchange.startResponse(200, new HttpFields(), -1);
            byte[] block = new byte[8192];
            try {
                for (int i = 0; i < 16 * 1024; i++) { // up to 128 MiB: the socket fills, then bytes queue
                    out.write(block); // a hand-over above the 1 KiB watermark must wait, which the reactor cannot
                }
                failure.complete(null);
            } catch (IOException e) {
                failure.complete(e);
            }
            later.complete(assertThrows(IOException.class, () -> {
                out.write(block);
                out.close();
            }));
        }).start();
        try (RawClient client = RawClient.connect(server)) {
            client.send("GET /large HTTP/1.1\r\nHost: test\r\n\r\n");
            IOException e = failure.get(10, TimeUnit.SECONDS);
            assertTrue(e != null && e.getMessage().endsWith("response aborted"), String.valueOf(e));
            assertEquals("response stream closed", later.get(10, TimeUnit.SECONDS).getMessage());
            String received = client.readToEof(); // the connection closes: the response ends cut
            assertTrue(received.startsWith("HTTP/1.1 200 OK\r\n"), received);
            assertFalse(received.endsWith("0\r\n\r\n"), "a cut response framed as whole");
        }
        Await.until("the connection is closed", () -> server.metrics().openConnections() == 0);
    }
}
