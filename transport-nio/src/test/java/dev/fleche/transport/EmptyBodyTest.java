package dev.fleche.transport;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.InputStream;
import java.time.Duration;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Requests without a body each get a usable empty body: closing one (as Jersey does after reading an entity)
 * must not affect the next request, on this connection or any other (a TCK regression: 54 tests failed).
 */
class EmptyBodyTest {
    private HttpServer server;

    @AfterEach
    void stop() throws Exception {
        server.stop(Duration.ZERO);
    }

    @Test
    void closingAnEmptyBodyDoesNotCloseTheNextOne() throws Exception {
        server = HttpServer.create(RawClient.loopback().build(), exchange -> {
            String answer;
            try (InputStream body = exchange.requestBody()) {
                answer = "read " + body.read() + ", trailers " + exchange.trailers().size();
            }
            exchange.trailers().add("X-Leak", "1"); // must not reach the next exchange either
            exchange.respond(200, new HttpFields(), answer.getBytes(UTF_8));
        }).start();
        for (int connection = 0; connection < 2; connection++) {
            try (RawClient client = RawClient.connect(server)) {
                for (int request = 0; request < 2; request++) {
                    client.send("POST /empty HTTP/1.1\r\nHost: x\r\n\r\n");
                    String response = client.readResponse();
                    assertEquals("read -1, trailers 0", response.substring(response.indexOf("\r\n\r\n") + 4));
                }
            }
        }
    }
}
