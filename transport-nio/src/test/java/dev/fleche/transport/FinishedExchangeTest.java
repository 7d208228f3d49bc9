package dev.fleche.transport;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * An exchange that is over speaks to a connection that has moved on: what it asks (here an abort) concerns a stream
 * the connection no longer serves and must not touch the request that came after it on the same connection.
 */
@Timeout(10)
class FinishedExchangeTest {
    private HttpServer server;

    @AfterEach
    void stop() throws Exception {
        if (server != null) {
            server.stop(Duration.ZERO);
        }
    }

    @Test
    void aLateAbortOfAnAnsweredExchangeLeavesTheConnectionServing() throws Exception {
        AtomicReference<HttpExchange> first = new AtomicReference<>();
        server = HttpServer.create(RawClient.loopback().build(), exchange -> {
            byte[] body = exchange.path().getBytes(StandardCharsets.US_ASCII);
            if (exchange.path().equals("/first")) {
                first.set(exchange);
                exchange.respond(200, new HttpFields(), body);
                return;
            }
            // The abort reaches the reactor while this request is in flight and unanswered (its answer is queued
            // behind it): it names the first exchange, so this one must still be answered.
            first.get().abort();
            exchange.execute(() -> exchange.respond(200, new HttpFields(), body));
        }).start();
        try (RawClient client = RawClient.connect(server)) {
            for (String path : new String[] {"/first", "/second", "/third"}) {
                client.send("GET " + path + " HTTP/1.1\r\nHost: test\r\n\r\n");
                String response = client.readResponse();
                assertTrue(response.startsWith("HTTP/1.1 200 OK\r\n") && response.endsWith("\r\n\r\n" + path),
                        response);
            }
        }
    }
}
