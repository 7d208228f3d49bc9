package dev.fleche.examples.service;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Two service processes on one PostgreSQL database, as two replicas behind a Service: a write on one is read on
 * the other, and a {@code /changes} long-poll on either wakes for a write on the other (LISTEN/NOTIFY). Both
 * migrate the schema at once on start (the advisory lock: each step applied once). Needs a running PostgreSQL:
 * the system property {@code postgres.url} (a JDBC URL of an empty database), set by the {@code postgres} profile
 * that {@code src/test/postgres/run.sh} runs with a throw-away cluster.
 */
@Timeout(120)
class TwoReplicasOnPostgres {
    private static final Pattern ID = Pattern.compile("\"id\":(\\d+)");
    private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
    private final String url = System.getProperty("postgres.url");
    private ImageProcess a;
    private ImageProcess b;

    @BeforeEach
    void start() throws Exception {
        assertTrue(url != null && url.startsWith("jdbc:postgresql:"), "-Dpostgres.url=jdbc:postgresql://...");
        try (Connection connection = DriverManager.getConnection(url);
             Statement statement = connection.createStatement()) {
            statement.execute("DROP TABLE IF EXISTS todo, schema_version");
        }
        Map<String, String> env = Map.of("DATABASE_URL", url, "BIND_HOST", "127.0.0.1",
                "DRAIN_DELAY_SECONDS", "0.2", "DRAIN_GRACE_SECONDS", "3");
        CompletableFuture<ImageProcess> first = CompletableFuture.supplyAsync(() -> start(env));
        b = start(env);
        a = first.get(90, TimeUnit.SECONDS);
        for (ImageProcess replica : new ImageProcess[] {a, b}) {
            assertTrue(replica.awaitOutput("LISTEN " + PgChangeFeed.CHANNEL, 30), replica.output());
            assertTrue(replica.awaitOutput("schema at version", 30), replica.output());
            assertEquals(200, get(replica, "health/ready").statusCode(), replica.output());
        }
    }

    private static ImageProcess start(Map<String, String> env) {
        try {
            return ImageProcess.main(env);
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }

    @AfterEach
    void stop() throws Exception {
        for (ImageProcess replica : new ImageProcess[] {a, b}) {
            if (replica != null) {
                replica.terminate();
            }
        }
        for (ImageProcess replica : new ImageProcess[] {a, b}) {
            if (replica != null) {
                assertTrue(replica.awaitExit(20), "ended on SIGTERM:\n" + replica.output());
                assertEquals(0, replica.process.exitValue(), replica.output());
                replica.close();
            }
        }
    }

    private HttpResponse<String> get(ImageProcess replica, String path) throws Exception {
        return http.send(HttpRequest.newBuilder(uri(replica, path)).timeout(Duration.ofSeconds(10)).build(),
                HttpResponse.BodyHandlers.ofString());
    }

    private HttpResponse<String> send(ImageProcess replica, String method, String path, String json) throws Exception {
        return http.send(HttpRequest.newBuilder(uri(replica, path)).timeout(Duration.ofSeconds(10))
                .header("Content-Type", "application/json")
                .method(method, HttpRequest.BodyPublishers.ofString(json)).build(), HttpResponse.BodyHandlers.ofString());
    }

    private static URI uri(ImageProcess replica, String path) {
        return URI.create("http://127.0.0.1:" + replica.port + "/" + path);
    }

    /** A {@code GET /changes} long-poll on {@code replica}, returned once the replica counts it as waiting. */
    private CompletableFuture<HttpResponse<String>> longPoll(ImageProcess replica) throws Exception {
        int before = waiting(replica);
        CompletableFuture<HttpResponse<String>> poll = http.sendAsync(
                HttpRequest.newBuilder(uri(replica, "changes")).timeout(Duration.ofSeconds(30)).build(),
                HttpResponse.BodyHandlers.ofString());
        Instant deadline = Instant.now().plusSeconds(10);
        // Each check is a request answered by the replica: bounded, no sleep.
        while (waiting(replica) <= before) {
            assertTrue(Instant.now().isBefore(deadline), "the long-poll was not registered within 10 s");
            assertTrue(!poll.isDone(), "the long-poll ended early: " + (poll.isDone() ? poll.join().body() : ""));
        }
        return poll;
    }

    private int waiting(ImageProcess replica) throws Exception {
        String body = get(replica, "changes/waiting").body();
        Matcher count = Pattern.compile("\"waiting\":(\\d+)").matcher(body);
        assertTrue(count.find(), body);
        return Integer.parseInt(count.group(1));
    }

    @Test
    void aWriteOnOneReplicaIsReadAndWakesLongPollsOnBoth() throws Exception {
        CompletableFuture<HttpResponse<String>> onB = longPoll(b);
        CompletableFuture<HttpResponse<String>> onA = longPoll(a);

        HttpResponse<String> created = send(a, "POST", "todos", "{\"title\":\"written on A\",\"priority\":3}");
        assertEquals(201, created.statusCode(), created.body());
        Matcher id = ID.matcher(created.body());
        assertTrue(id.find(), created.body());

        for (CompletableFuture<HttpResponse<String>> poll : java.util.List.of(onB, onA)) {
            HttpResponse<String> change = poll.get(10, TimeUnit.SECONDS);
            assertEquals(200, change.statusCode(), change.body());
            assertTrue(change.body().contains("\"change\":\"POST /todos\""), change.body());
        }
        HttpResponse<String> read = get(b, "todos/" + id.group(1));
        assertEquals(200, read.statusCode(), "B reads what A wrote: " + read.body());
        assertTrue(read.body().contains("\"title\":\"written on A\""), read.body());

        CompletableFuture<HttpResponse<String>> again = longPoll(a);
        HttpResponse<String> updated = send(b, "PUT", "todos/" + id.group(1),
                "{\"title\":\"done on B\",\"done\":true,\"priority\":3}");
        assertEquals(2, updated.statusCode() / 100, updated.body());
        HttpResponse<String> change = again.get(10, TimeUnit.SECONDS);
        assertTrue(change.body().contains("\"change\":\"PUT /todos/" + id.group(1) + "\""), change.body());
        assertTrue(get(a, "todos/" + id.group(1)).body().contains("\"title\":\"done on B\""));
    }

    @Test
    void bothReplicasMigratedTheSchemaOnce() throws Exception {
        try (Connection connection = DriverManager.getConnection(url);
             Statement statement = connection.createStatement();
             ResultSet rs = statement.executeQuery("SELECT COUNT(*), MAX(version) FROM schema_version")) {
            rs.next();
            assertEquals(Migrations.STEPS.size(), rs.getInt(1), "one row per step, though two replicas migrated");
            assertEquals(Migrations.STEPS.size(), rs.getInt(2));
        }
    }
}
