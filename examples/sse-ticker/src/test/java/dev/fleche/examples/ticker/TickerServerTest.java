package dev.fleche.examples.ticker;

import dev.fleche.jersey.FlecheHttpServer;
import dev.fleche.jersey.FlecheHttpServerFactory;
import dev.fleche.transport.ServerOptions;
import dev.fleche.transport.testing.MainProcess;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

/** The ticker over HTTP with the JDK client: ticks with ids, heartbeats between them, Last-Event-ID, main. */
class TickerServerTest {
    private static final HttpClient CLIENT = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(10)).build();
    private static final AtomicLong CLOCK = new AtomicLong();
    private static FlecheHttpServer server;

    @BeforeAll
    static void start() {
        // Ticks every 100 ms of real time; heartbeats every 30 ms of the test's clock, which moves only when told.
        server = FlecheHttpServerFactory.createServer(URI.create("http://127.0.0.1:0/"),
                TickerServer.application(Duration.ofMillis(100), Duration.ofMillis(30)),
                ServerOptions.builder().address(new InetSocketAddress("127.0.0.1", 0)).nanoClock(CLOCK::get).build());
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
            awaitHeartbeatArmed();
            CLOCK.addAndGet(Duration.ofMillis(29).toNanos());
            assertNextIsATick(events, "29 ms after the stream began: a tick, no heartbeat yet");
            CLOCK.addAndGet(Duration.ofMillis(1).toNanos());
            int ticksBeforeTheBeat = 0;
            List<String> event = events.next();
            for (; ticksBeforeTheBeat < 5 && !event.equals(List.of(": heartbeat")); event = events.next()) {
                ticksBeforeTheBeat++; // a tick already on its way
            }
            assertEquals(List.of(": heartbeat"), event, "the heartbeat at 30 ms");

            long lastId = -1;
            for (int ticks = 0; ticks < 3; ticks++) {
                long id = assertNextIsATick(events, "tick after " + lastId);
                assertTrue(id > lastId, "ids increase: " + id + " after " + lastId);
                lastId = id;
            }
        }
    }

    /** Waits (bounded) until a heartbeat timer is armed on the server: the stream's heartbeat has started. */
    private static void awaitHeartbeatArmed() {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(5);
        while (server.container().armedTimers() < 1) {
            if (System.nanoTime() - deadline > 0) {
                fail("no heartbeat timer armed");
            }
            LockSupport.parkNanos(500_000);
        }
    }

    /** Reads the next event, which must be a tick; returns its id. */
    private static long assertNextIsATick(Events events, String what) {
        List<String> event = events.next();
        assertEquals("event: tick", event.get(0), what + ": " + event);
        long id = Long.parseLong(event.get(1).substring("id: ".length()));
        assertTrue(event.get(2).startsWith("data: {\"tick\":" + id + ",\"time\":\""), event.toString());
        return id;
    }

    @Test
    void aLastEventIdThatIsNoTickIs400() throws Exception {
        HttpResponse<String> response = CLIENT.send(HttpRequest.newBuilder(
                        URI.create("http://127.0.0.1:" + server.port() + "/ticks")).timeout(Duration.ofSeconds(30))
                .header("Accept", "text/event-stream").header("Last-Event-ID", "3<script>").build(),
                HttpResponse.BodyHandlers.ofString());
        assertEquals(400, response.statusCode());
        assertEquals("text/plain;charset=utf-8", response.headers().firstValue("Content-Type").orElse(""));
        assertEquals("Last-Event-ID must be the id of a tick (a number), as sent in this stream.\n", response.body());
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
