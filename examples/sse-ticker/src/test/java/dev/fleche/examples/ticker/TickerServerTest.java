package dev.fleche.examples.ticker;

import dev.fleche.jersey.FlecheHttpServer;
import dev.fleche.transport.testing.MainProcess;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The ticker over HTTP with the JDK client: ticks with ids, heartbeats between them, Last-Event-ID, main. */
class TickerServerTest {
    private static final HttpClient CLIENT = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(10)).build();
    private static FlecheHttpServer server;

    @BeforeAll
    static void start() {
        server = TickerServer.start(0, Duration.ofMillis(100), Duration.ofMillis(30));
    }

    @AfterAll
    static void stop() throws InterruptedException {
        server.stop(Duration.ofSeconds(1));
    }

    /** An open event stream: events as lists of lines; comments come as their own one-line events. */
    private static final class Events implements AutoCloseable {
        private final Stream<String> lines;
        private final Iterator<String> iterator;

        Events(int port, String lastEventId) throws Exception {
            HttpRequest.Builder request = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/ticks")).timeout(Duration.ofSeconds(30))
                    .header("Accept", "text/event-stream");
            if (lastEventId != null) {
                request.header("Last-Event-ID", lastEventId);
            }
            HttpResponse<Stream<String>> response = CLIENT.send(request.build(), HttpResponse.BodyHandlers.ofLines());
            assertEquals(200, response.statusCode());
            assertTrue(response.headers().firstValue("Content-Type").orElse("").startsWith("text/event-stream"));
            lines = response.body();
            iterator = lines.iterator();
        }

        List<String> next() {
            List<String> event = new ArrayList<>();
            while (iterator.hasNext()) {
                String line = iterator.next();
                if (line.isEmpty()) {
                    if (!event.isEmpty()) {
                        return event;
                    }
                } else {
                    event.add(line);
                }
            }
            return event;
        }

        @Override
        public void close() {
            lines.close();
        }
    }

    @Test
    void welcomeThenTicksWithHeartbeatsBetween() throws Exception {
        try (Events events = new Events(server.port(), null)) {
            List<String> welcome = events.next();
            assertEquals("event: welcome", welcome.get(0));
            long lastId = -1;
            int ticks = 0;
            int heartbeats = 0;
            while (ticks < 3) {
                List<String> event = events.next();
                if (event.equals(List.of(": heartbeat"))) {
                    heartbeats++;
                    continue;
                }
                assertEquals("event: tick", event.get(0), event.toString());
                long id = Long.parseLong(event.get(1).substring("id: ".length()));
                assertTrue(id > lastId, "ids increase: " + event);
                assertTrue(event.get(2).startsWith("data: {\"tick\":" + id + ",\"time\":\""), event.toString());
                lastId = id;
                ticks++;
            }
            assertTrue(heartbeats > 0, "heartbeat comments between ticks (30 ms vs 100 ms)");
        }
    }

    @Test
    void lastEventIdOnReconnect() throws Exception {
        try (Events events = new Events(server.port(), "3")) {
            List<String> first = events.next();
            assertEquals("event: resumed", first.get(0));
            assertTrue(first.get(1).startsWith("data: after tick 3, now tick "), first.toString());
        }
    }

    @Test
    void mainPrintsReadyAndStreams() throws Exception {
        try (MainProcess main = MainProcess.start(TickerServer.class, "0");
                Events events = new Events(main.port(), null)) {
            assertEquals("event: welcome", events.next().get(0));
            List<String> tick = events.next();
            assertEquals("event: tick", tick.get(0), tick.toString()); // a second later
        }
    }
}
