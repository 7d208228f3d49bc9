package dev.fleche.transport;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.logging.Logger;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The transport's structured events reach {@code System.Logger} "dev.fleche.transport" (backed by
 * java.util.logging here) with stable names and the connection id.
 */
class EventsTest {
    private static final Pattern EVENT = Pattern.compile("event=(\\S+) conn=(\\d+)(.*)");
    private final CapturedEvents captured = new CapturedEvents();
    private final List<String> events = captured.events();
    private HttpServer server;

    @BeforeEach
    void listen() {
        captured.start();
    }

    @AfterEach
    void stop() throws Exception {
        if (server != null) {
            server.stop(Duration.ZERO);
        }
        captured.close();
    }

    @Test
    void aConnectionsLifeIsTold() throws Exception {
        server = HttpServer.create(RawClient.loopback().build(), exchange -> exchange.respond(200, new HttpFields(),
                "ok".getBytes(StandardCharsets.UTF_8))).start();
        try (RawClient client = RawClient.connect(server)) {
            client.send("GET /a?b HTTP/1.1\r\nHost: x\r\n\r\n");
            client.readResponse();
            client.send("GET / HTTP/7.0\r\nHost: x\r\n\r\n");
            client.readToEof();
        }
        Await.until("the close event", () -> events.stream().anyMatch(e -> e.startsWith("event=close")));
        String conn = connectionOf(events.get(0));
        assertEquals(List.of("open", "request", "reject", "close"),
                events.stream().map(e -> name(e, conn)).toList());
        assertTrue(events.get(1).endsWith(" method=GET target=/a?b"), events.get(1));
        assertTrue(events.get(2).contains(" status=505 "), events.get(2));
    }

    private static String connectionOf(String event) {
        Matcher m = EVENT.matcher(event);
        assertTrue(m.matches(), event);
        return m.group(2);
    }

    private static String name(String event, String conn) {
        Matcher m = EVENT.matcher(event);
        assertTrue(m.matches(), event);
        assertEquals(conn, m.group(2), "every event names the same connection: " + event);
        return m.group(1);
    }
}
