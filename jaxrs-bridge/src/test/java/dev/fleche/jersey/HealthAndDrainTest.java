package dev.fleche.jersey;

import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.container.AsyncResponse;
import jakarta.ws.rs.container.Suspended;
import org.glassfish.jersey.server.ChunkedOutput;
import org.glassfish.jersey.server.ResourceConfig;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.io.IOException;
import java.io.InputStream;
import java.net.ConnectException;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** {@link Health} endpoints and the {@link Drain} sequence on a real server, through the JDK client. */
@Timeout(60)
class HealthAndDrainTest {
    static volatile CountDownLatch polling = new CountDownLatch(1);
    private final HttpClient http = HttpClient.newHttpClient();
    private FlecheHttpServer server;

    @Path("/")
    public static class Resources {
        @GET
        @Path("hello")
        public String hello() {
            return "hello";
        }

        /** A long-poll that nobody resumes: only a drain ends it. */
        @GET
        @Path("poll")
        public void poll(@Suspended AsyncResponse response) {
            polling.countDown();
        }

        /** A stream that sends one chunk and then stays open: only a drain ends it. */
        @GET
        @Path("stream")
        public ChunkedOutput<String> stream() throws IOException {
            ChunkedOutput<String> output = new ChunkedOutput<>(String.class);
            CompletableFuture.runAsync(() -> {
                try {
                    output.write("first\n");
                } catch (IOException ignored) {
                    // the client left
                }
            });
            return output;
        }
    }

    @AfterEach
    void close() {
        if (server != null) {
            server.close();
        }
    }

    private FlecheHttpServer start(Health health) {
        ResourceConfig config = new ResourceConfig(Resources.class).register(health);
        server = FlecheHttpServerFactory.createServer(URI.create("http://127.0.0.1:0/"), config);
        return server;
    }

    private HttpResponse<String> get(String path) throws Exception {
        return http.send(HttpRequest.newBuilder(server.baseUri().resolve(path)).build(),
                HttpResponse.BodyHandlers.ofString());
    }

    @Test
    void livenessAndReadinessAnswerJsonOnceStarted() throws Exception {
        Health health = Health.builder().check("db", HealthCheck.Result::ok).build();
        assertEquals(Health.Phase.STARTING, health.phase());
        start(health);
        assertEquals(Health.Phase.READY, health.phase());

        HttpResponse<String> live = get("health/live");
        assertEquals(200, live.statusCode());
        assertEquals("application/json", live.headers().firstValue("Content-Type").orElse(""));
        assertEquals("no-store", live.headers().firstValue("Cache-Control").orElse(""));
        assertEquals("{\"status\":\"UP\",\"phase\":\"READY\"}", live.body());

        HttpResponse<String> ready = get("health/ready");
        assertEquals(200, ready.statusCode());
        assertEquals("{\"status\":\"UP\",\"phase\":\"READY\",\"checks\":{\"db\":{\"status\":\"UP\",\"detail\":\"\"}}}",
                ready.body());
        assertEquals(200, get("hello").statusCode());
    }

    @Test
    void aFailingCheckMakesReadiness503ButNotLiveness() throws Exception {
        AtomicBoolean broken = new AtomicBoolean();
        Health health = Health.builder()
                .readyPath("/ops/ready").livePath("ops/live")
                .check("db", () -> {
                    if (broken.get()) {
                        throw new IllegalStateException("connection \"refused\"");
                    }
                    return HealthCheck.Result.ok();
                })
                .check("queue", () -> HealthCheck.Result.ok())
                .build();
        start(health);
        assertEquals(200, get("ops/ready").statusCode());
        broken.set(true);
        HttpResponse<String> ready = get("ops/ready");
        assertEquals(503, ready.statusCode());
        assertEquals("{\"status\":\"DOWN\",\"phase\":\"READY\",\"checks\":{\"db\":{\"status\":\"DOWN\",\"detail\":"
                + "\"IllegalStateException: connection \\\"refused\\\"\"},\"queue\":{\"status\":\"UP\",\"detail\":\"\"}}}",
                ready.body());
        assertEquals(200, get("ops/live").statusCode());
        assertEquals(404, get("health/ready").statusCode());
    }

    @Test
    void builderRejectsBadSettings() {
        assertThrows(IllegalArgumentException.class, () -> Health.builder().livePath("a/../b?x").build());
        assertThrows(IllegalArgumentException.class, () -> Health.builder().livePath("x").readyPath("/x").build());
        assertThrows(IllegalArgumentException.class,
                () -> Health.builder().check("a", HealthCheck.Result::ok).check("a", HealthCheck.Result::ok));
        assertThrows(IllegalArgumentException.class, () -> new DrainPolicy(Duration.ofSeconds(-1), Duration.ZERO));
    }

    @Test
    void drainTurnsReadinessDownKeepsServingThenEndsSuspendedAndStops() throws Exception {
        polling = new CountDownLatch(1);
        Health health = Health.builder().build();
        start(health);
        URI base = server.baseUri();
        CompletableFuture<HttpResponse<String>> poll = http.sendAsync(
                HttpRequest.newBuilder(base.resolve("poll")).build(), HttpResponse.BodyHandlers.ofString());
        assertTrue(polling.await(10, TimeUnit.SECONDS));
        HttpResponse<InputStream> stream = http.send(HttpRequest.newBuilder(base.resolve("stream")).build(),
                HttpResponse.BodyHandlers.ofInputStream());
        InputStream body = stream.body();
        assertEquals("first\n", new String(body.readNBytes(6), StandardCharsets.UTF_8));

        Drain drain = server.drain(new DrainPolicy(Duration.ofMinutes(1), Duration.ofSeconds(5)));
        CompletableFuture<Drain.Outcome> outcome = CompletableFuture.supplyAsync(() -> {
            try {
                return drain.run();
            } catch (InterruptedException e) {
                throw new IllegalStateException(e);
            }
        });
        while (drain.phase() != Drain.Phase.DELAYING) {
            Thread.onSpinWait();
        }
        HttpResponse<String> ready = get("health/ready");
        assertEquals(503, ready.statusCode());
        assertEquals("{\"status\":\"DOWN\",\"phase\":\"DRAINING\",\"checks\":{}}", ready.body());
        assertEquals(200, get("hello").statusCode(), "the delay keeps serving");
        assertTrue(!poll.isDone() && !outcome.isDone());

        drain.skipDelay();
        Drain.Outcome done = outcome.get(20, TimeUnit.SECONDS);
        assertTrue(done.clean(), done.toString());
        assertEquals(2, done.suspendedEnded());
        assertEquals(503, poll.get(10, TimeUnit.SECONDS).statusCode(), "the long-poll is answered");
        assertEquals(-1, body.read(), "the stream ends cleanly");
        assertEquals(Drain.Phase.STOPPED, drain.phase());
        assertThrows(ConnectException.class, () -> new Socket("127.0.0.1", base.getPort()).close());
    }
}
