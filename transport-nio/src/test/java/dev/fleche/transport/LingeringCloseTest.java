package dev.fleche.transport;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * After an error answered while the client is still sending, the server closes only its side and discards the
 * client's input for a while (RFC 9112 9.6): closing with unread input would make the kernel send a reset, which
 * can destroy the response before the client has read it.
 *
 * <p>The server's clock is injected and stands still, so the lingering period cannot end while the test is still
 * writing however slow the machine is; the test moves the clock to end it.
 */
class LingeringCloseTest {
    private final AtomicLong clock = new AtomicLong();
    private HttpServer server;

    @AfterEach
    void stop() throws Exception {
        server.stop(Duration.ZERO);
    }

    @Test
    void afterA413TheServerHalfClosesAndDiscardsTheRestOfTheUpload() throws Exception {
        server = HttpServer.create(RawClient.loopback().reactors(1).maxBodyBytes(1024).nanoClock(clock::get).build(),
                exchange -> exchange.respond(200, new HttpFields(), new byte[0])).start();
        try (RawClient client = RawClient.connect(server)) {
            client.send("POST /upload HTTP/1.1\r\nHost: x\r\nContent-Length: 4194304\r\n\r\n");
            client.send(new byte[16 * 1024]);
            String response = client.readResponse();
            assertTrue(response.startsWith("HTTP/1.1 413 Content Too Large\r\n"), response);
            assertTrue(response.endsWith("request body larger than 1024 bytes\n"), response);
            client.assertEof(); // the server's side is closed...

            long before = server.metrics().bytesRead();
            for (int i = 0; i < 4; i++) {
                client.send(new byte[64 * 1024]); // ...but it still reads ours, so these writes do not fail
            }
            Await.until("the server to discard the rest of the upload",
                    () -> server.metrics().bytesRead() >= before + 4 * 64 * 1024);
            assertEquals(1, server.metrics().openConnections(), "still lingering while the clock stands still");

            // Lingering lasts seconds; 10 s is short of every other timeout (header 20 s, idle 60 s), so this close
            // is the end of the lingering period and nothing else.
            clock.addAndGet(Duration.ofSeconds(10).toNanos());
            Await.until("the lingering period to end on the server's clock",
                    () -> server.metrics().openConnections() == 0);
        }
    }
}
