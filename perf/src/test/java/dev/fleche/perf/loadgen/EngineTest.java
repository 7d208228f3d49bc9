package dev.fleche.perf.loadgen;

import dev.fleche.transport.HttpFields;
import dev.fleche.transport.HttpServer;
import dev.fleche.transport.ServerOptions;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

import org.junit.jupiter.api.io.TempDir;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Every mode of the generator against a small server on Fleche's transport, with short loads. */
class EngineTest {
    private static final byte[] HELLO = "Hello, World!".getBytes(StandardCharsets.US_ASCII);
    private static final ConcurrentLinkedQueue<dev.fleche.transport.HttpExchange> WAITING = new ConcurrentLinkedQueue<>();
    private static final AtomicInteger WAITING_COUNT = new AtomicInteger();
    private static final Broadcast SSE = new Broadcast(1);
    private static final Broadcast GAPPY = new Broadcast(2);
    private static HttpServer server;

    @BeforeAll
    static void start() throws Exception {
        server = HttpServer.create(ServerOptions.builder().address("127.0.0.1", 0).build(), ex -> {
            HttpFields text = new HttpFields(1).add("Content-Type", "text/plain");
            if (ex.path().startsWith("/sse")) {
                SSE.handle(ex, ex.path().substring(4));
                return;
            }
            if (ex.path().startsWith("/gappy")) {
                GAPPY.handle(ex, ex.path().substring(6));
                return;
            }
            switch (ex.path()) {
                case "/hello" -> ex.respond(200, text, HELLO);
                case "/slow" -> ex.schedule(() -> ex.respond(200, text, HELLO), 20, TimeUnit.MILLISECONDS);
                case "/poll" -> {
                    WAITING.add(ex);
                    WAITING_COUNT.incrementAndGet();
                }
                case "/waiting" -> ex.respond(200, text, Integer.toString(WAITING_COUNT.get()).getBytes(StandardCharsets.US_ASCII));
                case "/broadcast" -> {
                    int n = 0;
                    for (dev.fleche.transport.HttpExchange w; (w = WAITING.poll()) != null; n++) {
                        WAITING_COUNT.decrementAndGet();
                        w.respond(200, text, HELLO);
                    }
                    ex.respond(200, text, Integer.toString(n).getBytes(StandardCharsets.US_ASCII));
                }
                default -> ex.respond(404, text, new byte[0]);
            }
        });
        server.start();
    }

    /** An SSE broadcast of the test server, its events numbered {@code step} apart (the contract wants 1). */
    private static final class Broadcast {
        private final Set<OutputStream> subscribers = ConcurrentHashMap.newKeySet();
        private final AtomicLong sent = new AtomicLong();
        private final int step;

        Broadcast(int step) {
            this.step = step;
        }

        void handle(dev.fleche.transport.HttpExchange ex, String rest) throws IOException {
            HttpFields text = new HttpFields(1).add("Content-Type", "text/plain");
            switch (rest) {
                case "" -> {
                    OutputStream out = ex.startResponse(200, new HttpFields(1).add("Content-Type", "text/event-stream"), -1);
                    subscribers.add(out);
                    ex.onDisconnect(() -> subscribers.remove(out));
                    out.flush();
                }
                case "/subscribers" -> ex.respond(200, text, ascii(subscribers.size()));
                case "/broadcast" -> {
                    Instant now = Instant.now();
                    byte[] event = ("data: " + sent.addAndGet(step) + " " + (now.getEpochSecond() * 1_000_000L
                            + now.getNano() / 1000) + "\n\n").getBytes(StandardCharsets.US_ASCII);
                    for (OutputStream out : subscribers) {
                        try {
                            out.write(event);
                            out.flush();
                        } catch (IOException gone) {
                            subscribers.remove(out);
                        }
                    }
                    ex.respond(200, text, ascii(subscribers.size()));
                }
                default -> ex.respond(404, text, new byte[0]);
            }
        }

        private static byte[] ascii(int n) {
            return Integer.toString(n).getBytes(StandardCharsets.US_ASCII);
        }
    }

    @AfterAll
    static void stop() throws Exception {
        server.stop(Duration.ofSeconds(1));
    }

    private static LoadSpec.Builder spec(String path) {
        return LoadSpec.builder().port(server.port()).path(path).connections(20).duration(Duration.ofMillis(400))
                .expectBody("Hello, World!");
    }

    @Test
    void closedLoopWithPipeliningAndALog(@TempDir Path dir) throws Exception {
        Path hlog = dir.resolve("run.hlog");
        LoadReport r = Engine.run(spec("/hello").depth(4).warmup(Duration.ofMillis(100)).hlog(hlog).build());
        assertEquals(0, r.errors(), r.format());
        assertTrue(r.requests() > 100, r.format());
        assertTrue(Files.readString(hlog).contains("#[StartTime:"));
    }

    @Test
    void wrongBodiesAreErrors() throws Exception {
        LoadReport r = Engine.run(spec("/hello").expectBody("Bonjour").build());
        assertTrue(r.requests() > 0, "requests were made: " + r.format()); // else 0 == 0 would pass
        assertEquals(r.requests(), r.bodyErrors(), r.format());
    }

    @Test
    void openLoopHoldsItsRate() throws Exception {
        LoadReport r = Engine.run(spec("/slow").mode(LoadSpec.Mode.OPEN).rate(200).duration(Duration.ofSeconds(1)).build());
        assertEquals(0, r.errors(), r.format());
        assertTrue(r.requests() >= 150 && r.requests() <= 230, r.format());
        assertTrue(r.latencyMillis(50) >= 19, r.format());
    }

    @Test
    void longPollResumesEveryone() throws Exception {
        List<Integer> cycles = new ArrayList<>();
        double[] slowest = {0};
        LoadReport r = Engine.run(spec("/poll").mode(LoadSpec.Mode.LONG_POLL).connections(300).cycles(2).build(),
                new Engine.Hooks() {
                    @Override
                    public void resumed(int cycle, double millis) {
                        cycles.add(cycle);
                        slowest[0] = Math.max(slowest[0], millis);
                    }
                });
        assertEquals(0, r.errors(), r.format());
        assertEquals(600, r.requests(), r.format());
        assertEquals(600, r.resumed(), r.format());
        assertEquals(List.of(1, 2), cycles, "one resumed() per cycle, after its polls were answered");
        assertEquals(r.resumeAllMillis(), slowest[0], 1e-9, "the report's resume-all time is the slowest cycle's");
    }

    @Test
    void idleConnectionsStayOpen() throws Exception {
        int[] ready = new int[1];
        LoadReport r = Engine.run(spec("/hello").mode(LoadSpec.Mode.IDLE).connections(300).hold(Duration.ofMillis(100))
                .build(), new Engine.Hooks() {
                    @Override
                    public void ready(int cycle, int connections) {
                        ready[0] = connections;
                    }
                });
        assertEquals(300, ready[0]);
        assertEquals(300, r.opened(), r.format());
        assertEquals(300, r.stillOpen(), r.format());
    }

    @Test
    void sseChecksEveryEventAndTimesTheWindowsOnes() throws Exception {
        int[] ready = new int[1];
        boolean[] phases = new boolean[2];
        LoadReport r = Engine.run(sse("/sse").build(), new Engine.Hooks() {
            @Override
            public void ready(int cycle, int clients) {
                ready[0] = clients;
            }

            @Override
            public void recording() {
                phases[0] = true;
            }

            @Override
            public void recorded() {
                phases[1] = phases[0];
            }
        });
        assertEquals(0, r.errors(), r.format());
        assertEquals(20, ready[0], r.format());
        assertEquals(20, r.requests(), r.format());
        assertEquals(20 * 5, r.events(), r.format());
        assertEquals(20 * 5, r.latency().getTotalCount(), r.format());
        assertTrue(phases[1], "recording, then recorded");
    }

    @Test
    void sseSeesAMissingEvent() throws Exception {
        LoadReport r = Engine.run(sse("/gappy").build());
        assertEquals(20 * (2 + 5 - 1), r.bodyErrors(), r.format());
    }

    /** 20 subscribers, an event every 20 ms: 2 in the warm-up, 5 measured. */
    private static LoadSpec.Builder sse(String path) {
        return spec(path).mode(LoadSpec.Mode.SSE).expectBody((byte[]) null).interval(Duration.ofMillis(20))
                .warmup(Duration.ofMillis(40)).duration(Duration.ofMillis(100));
    }
}
