package dev.fleche.examples.service;

import dev.fleche.examples.todo.TodoStore;
import dev.fleche.jersey.DrainPolicy;
import dev.fleche.jersey.FlecheHttpServer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The service in process: its health check follows the database, {@code /changes} wakes on a write. */
@Timeout(60)
class TodoServiceTest {
    private final HttpClient http = HttpClient.newHttpClient();
    private TodoStore store;
    private FlecheHttpServer server;

    @AfterEach
    void close() {
        if (server != null) {
            server.close();
        }
        if (store != null) {
            store.close();
        }
    }

    private URI start() {
        store = new TodoStore("jdbc:h2:mem:service-test-" + System.nanoTime() + ";DB_CLOSE_DELAY=-1");
        ServiceConfig config = ServiceConfig.from(new String[] {"0"}, Map.of("BIND_HOST", "127.0.0.1"));
        server = TodoService.start(config, store);
        return URI.create("http://127.0.0.1:" + server.port() + "/");
    }

    private HttpResponse<String> get(URI uri) throws Exception {
        return http.send(HttpRequest.newBuilder(uri).build(), HttpResponse.BodyHandlers.ofString());
    }

    @Test
    void readinessFollowsTheDatabase() throws Exception {
        URI base = start();
        assertEquals(200, get(base.resolve("health/ready")).statusCode());
        store.close(); // the pool is gone: every connection attempt fails
        HttpResponse<String> ready = get(base.resolve("health/ready"));
        assertEquals(503, ready.statusCode());
        assertTrue(ready.body().startsWith("{\"status\":\"DOWN\",\"phase\":\"READY\",\"checks\":{\"database\":"
                + "{\"status\":\"DOWN\",\"detail\":\""), ready.body());
        assertEquals(200, get(base.resolve("health/live")).statusCode(), "liveness does not follow the database");
    }

    @Test
    void aWriteWakesTheLongPolls() throws Exception {
        URI base = start();
        CompletableFuture<HttpResponse<String>> poll = http.sendAsync(
                HttpRequest.newBuilder(base.resolve("changes")).build(), HttpResponse.BodyHandlers.ofString());
        while (!get(base.resolve("changes/waiting")).body().equals("{\"waiting\":1}")) {
            Thread.onSpinWait();
        }
        HttpResponse<String> created = http.send(HttpRequest.newBuilder(base.resolve("todos"))
                .header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString("{\"title\":\"wake up\"}")).build(),
                HttpResponse.BodyHandlers.ofString());
        assertEquals(201, created.statusCode());
        HttpResponse<String> change = poll.get(10, TimeUnit.SECONDS);
        assertEquals(200, change.statusCode());
        assertEquals("{\"version\":1,\"change\":\"POST /todos\"}", change.body());
    }

    @Test
    void aDrainAnswersTheLongPolls204() throws Exception {
        URI base = start();
        CompletableFuture<HttpResponse<String>> poll = http.sendAsync(
                HttpRequest.newBuilder(base.resolve("changes")).build(), HttpResponse.BodyHandlers.ofString());
        while (!get(base.resolve("changes/waiting")).body().equals("{\"waiting\":1}")) {
            Thread.onSpinWait();
        }
        assertTrue(server.drain(new DrainPolicy(Duration.ZERO, Duration.ofSeconds(5))).run().clean());
        assertEquals(204, poll.get(10, TimeUnit.SECONDS).statusCode());
    }

    @Test
    void configurationComesFromArgumentsAndEnvironment() {
        ServiceConfig config = ServiceConfig.from(new String[0], Map.of("PORT", "9090", "DRAIN_DELAY_SECONDS", "1.5",
                "DRAIN_GRACE_SECONDS", "3"));
        assertEquals(9090, config.port());
        assertEquals("0.0.0.0", config.host());
        assertEquals(new DrainPolicy(Duration.ofMillis(1500), Duration.ofSeconds(3)), config.drain());
        assertEquals(7070, ServiceConfig.from(new String[] {"7070"}, Map.of("PORT", "9090")).port());
        assertEquals(8080, ServiceConfig.from(new String[0], Map.of()).port());
        assertThrows(IllegalArgumentException.class, () -> ServiceConfig.from(new String[] {"x"}, Map.of()));
        assertThrows(IllegalArgumentException.class,
                () -> ServiceConfig.from(new String[0], Map.of("DATABASE_URL", "jdbc:postgresql://db/x")));
    }
}
