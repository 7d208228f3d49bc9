package dev.fleche.perf.loadgen;

import dev.fleche.transport.HttpFields;
import dev.fleche.transport.HttpServer;
import dev.fleche.transport.ServerOptions;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import org.junit.jupiter.api.io.TempDir;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Every mode of the generator against a small server on Fleche's transport, with short loads. */
class EngineTest {
    private static final byte[] HELLO = "Hello, World!".getBytes(StandardCharsets.US_ASCII);
    private static final ConcurrentLinkedQueue<dev.fleche.transport.HttpExchange> WAITING = new ConcurrentLinkedQueue<>();
    private static final AtomicInteger WAITING_COUNT = new AtomicInteger();
    private static HttpServer server;

    @BeforeAll
    static void start() throws Exception {
        server = HttpServer.create(ServerOptions.builder().address("127.0.0.1", 0).build(), ex -> {
            HttpFields text = new HttpFields(1).add("Content-Type", "text/plain");
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
                case "/sse" -> {
                    var out = ex.startResponse(200, new HttpFields(1).add("Content-Type", "text/event-stream"), -1);
                    for (int i = 0; i < 3; i++) {
                        out.write("data: x\n\n".getBytes(StandardCharsets.US_ASCII));
                    }
                    out.close();
                }
                default -> ex.respond(404, text, new byte[0]);
            }
        });
        server.start();
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
        LoadReport r = Engine.run(spec("/poll").mode(LoadSpec.Mode.LONG_POLL).connections(300).cycles(2).build());
        assertEquals(0, r.errors(), r.format());
        assertEquals(600, r.requests(), r.format());
        assertEquals(600, r.resumed(), r.format());
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
    void sseCountsEvents() throws Exception {
        LoadReport r = Engine.run(spec("/sse").mode(LoadSpec.Mode.SSE).expectBody((byte[]) null).events(3).build());
        assertEquals(0, r.errors(), r.format());
        assertEquals(60, r.events(), r.format());
    }
}
