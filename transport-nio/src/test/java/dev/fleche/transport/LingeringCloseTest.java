package dev.fleche.transport;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * After an error answered while the client is still sending, the server closes only its side and discards the
 * client's input for a while (RFC 9112 9.6): closing with unread input would make the kernel send a reset, which
 * can destroy the response before the client has read it.
 */
class LingeringCloseTest {
    private HttpServer server;

    @AfterEach
    void stop() throws Exception {
        server.stop(Duration.ZERO);
    }

    @Test
    void afterA413TheServerHalfClosesAndDiscardsTheRestOfTheUpload() throws Exception {
        server = HttpServer.create(RawClient.loopback().maxBodyBytes(1024).build(),
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
        }
    }
}
