package dev.fleche.transport;

import static java.nio.charset.StandardCharsets.US_ASCII;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Pipelined requests are served by a loop, not by recursion: a response completed on the reactor (at once, or later
 * from a task) never re-enters the parsing of the next request, so the handler is called at the same stack depth
 * for the first request and the three-thousandth.
 */
@Timeout(30)
class PipeliningDepthTest {
    private static final int REQUESTS = 3000;

    private final ExecutorService workers = Executors.newSingleThreadExecutor();
    private HttpServer server;

    @AfterEach
    void stop() throws Exception {
        workers.shutdownNow();
        if (server != null) {
            server.stop(Duration.ZERO);
        }
    }

    @Test
    void answeredOnTheReactor() throws Exception {
        assertServedFlat(false);
    }

    @Test
    void answeredFromAnotherThread() throws Exception {
        assertServedFlat(true);
    }

    private void assertServedFlat(boolean offReactor) throws Exception {
        AtomicInteger minDepth = new AtomicInteger(Integer.MAX_VALUE);
        AtomicInteger maxDepth = new AtomicInteger();
        server = HttpServer.create(RawClient.loopback().build(), exchange -> {
            int depth = Thread.currentThread().getStackTrace().length;
            minDepth.accumulateAndGet(depth, Math::min);
            maxDepth.accumulateAndGet(depth, Math::max);
            byte[] body = exchange.target().getBytes(US_ASCII);
            if (offReactor) {
                workers.execute(() -> exchange.respond(200, new HttpFields(), body));
            } else {
                exchange.respond(200, new HttpFields(), body);
            }
        }).start();
        StringBuilder requests = new StringBuilder();
        for (int i = 0; i < REQUESTS; i++) {
            requests.append("GET /").append(i).append(" HTTP/1.1\r\nHost: x\r\n\r\n");
        }
        try (RawClient client = RawClient.connect(server)) {
            client.send(requests.toString()); // one write, larger than the reactor's read buffer
            for (int i = 0; i < REQUESTS; i++) {
                String response = client.readResponse();
                assertTrue(response.endsWith("\r\n\r\n/" + i), response);
            }
        }
        assertEquals(REQUESTS, server.metrics().requests());
        // The first request of a read is called from the read path, a later one possibly from a task: a few frames
        // apart at most, never one frame set per request.
        assertTrue(maxDepth.get() - minDepth.get() < 20, "handler depth ranged " + minDepth + ".." + maxDepth);
    }
}
