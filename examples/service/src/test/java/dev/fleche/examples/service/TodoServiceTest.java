package dev.fleche.examples.service;

import dev.fleche.examples.todo.TodoStore;
import dev.fleche.jersey.DrainPolicy;
import dev.fleche.jersey.FlecheHttpServer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import dev.fleche.transport.AccessLog;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The service in process: its health check follows the database, {@code /changes} wakes on a write,
 * {@code /metrics} speaks Prometheus, {@code FLECHE_ACCESS_LOG=json} writes JSON lines to standard output.
 */
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
        return start(Map.of("BIND_HOST", "127.0.0.1"));
    }

    private URI start(Map<String, String> env) {
        store = new TodoStore("jdbc:h2:mem:service-test-" + System.nanoTime() + ";DB_CLOSE_DELAY=-1");
        ServiceConfig config = ServiceConfig.from(new String[] {"0"}, env);
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
        assertEquals("jdbc:postgresql://db/x", ServiceConfig.from(new String[0],
                Map.of("DATABASE_URL", "jdbc:postgresql://db/x")).jdbcUrl());
        assertThrows(IllegalArgumentException.class,
                () -> ServiceConfig.from(new String[0], Map.of("DATABASE_URL", "jdbc:mysql://db/x")));
    }

    @Test
    void badArgumentsPrintTheUsageAndExitWithCode2() throws Exception {
        for (String[] args : List.of(new String[] {"abc"}, new String[] {"-1"}, new String[] {"1", "2"})) {
            List<String> command = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java")
                    .toString(), "-cp", System.getProperty("java.class.path"), TodoService.class.getName()));
            command.addAll(List.of(args));
            Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
            String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            assertTrue(process.waitFor(30, TimeUnit.SECONDS), "ended");
            assertEquals(2, process.exitValue(), String.join(" ", args) + ": " + output);
            assertTrue(output.contains(TodoService.USAGE), output);
        }
    }

    @Test
    void theSchemaIsMigratedOnceAndANewerOneIsRefused() throws Exception {
        String url = "jdbc:h2:mem:migrate-" + System.nanoTime() + ";DB_CLOSE_DELAY=-1";
        try (Connection connection = DriverManager.getConnection(url, "sa", "");
             Statement statement = connection.createStatement()) {
            assertEquals(Migrations.STEPS.size(), Migrations.migrate(connection, false));
            assertEquals(Migrations.STEPS.size(), Migrations.migrate(connection, false), "again: nothing to do");
            try (ResultSet rs = statement.executeQuery("SELECT COUNT(*), MAX(version) FROM schema_version")) {
                rs.next();
                assertEquals(Migrations.STEPS.size(), rs.getInt(1), "one row per step");
                assertEquals(Migrations.STEPS.size(), rs.getInt(2));
            }
            statement.execute("INSERT INTO schema_version (version) VALUES (" + (Migrations.STEPS.size() + 1) + ")");
            SQLException newer = assertThrows(SQLException.class, () -> Migrations.migrate(connection, false));
            assertTrue(newer.getMessage().contains("newer than this service's"), newer.getMessage());
        }
    }

    @Test
    void accessLogComesFromOneSetting() {
        assertNull(ServiceConfig.from(new String[0], Map.of()).accessLog());
        assertNull(ServiceConfig.from(new String[0], Map.of("FLECHE_ACCESS_LOG", "off")).accessLog());
        AccessLog json = ServiceConfig.from(new String[0], Map.of("FLECHE_ACCESS_LOG", "json")).accessLog();
        assertEquals(AccessLog.Format.JSON, json.format());
        assertNull(json.file());
        assertEquals(ServiceConfig.ACCESS_LOGGER, json.logger());
        assertEquals(AccessLog.Format.COMBINED,
                ServiceConfig.from(new String[0], Map.of("FLECHE_ACCESS_LOG", "combined")).accessLog().format());
        AccessLog file = ServiceConfig.from(new String[0], Map.of("FLECHE_ACCESS_LOG", "/tmp/access.log")).accessLog();
        assertEquals(AccessLog.Format.JSON, file.format());
        assertEquals(Path.of("/tmp/access.log"), file.file());
        assertThrows(IllegalArgumentException.class,
                () -> ServiceConfig.from(new String[0], Map.of("FLECHE_ACCESS_LOG", "xml")));
    }

    @Test
    void jsonAccessLogGoesToStandardOutput() throws Exception {
        PrintStream original = System.out;
        ByteArrayOutputStream captured = new ByteArrayOutputStream();
        System.setOut(new PrintStream(captured, true, StandardCharsets.UTF_8));
        try {
            URI base = start(Map.of("BIND_HOST", "127.0.0.1", "FLECHE_ACCESS_LOG", "json"));
            HttpResponse<String> todos = http.send(HttpRequest.newBuilder(base.resolve("todos"))
                    .header("X-Request-Id", "req-42").build(), HttpResponse.BodyHandlers.ofString());
            assertEquals(200, todos.statusCode());
            server.close(); // flushes the log
            server = null;
        } finally {
            System.setOut(original);
        }
        String[] lines = captured.toString(StandardCharsets.UTF_8).split("\n");
        assertEquals(1, lines.length, captured.toString(StandardCharsets.UTF_8));
        // HTTP/2 when the JDK client's Upgrade: h2c took the connection to h2c
        assertTrue(lines[0].matches("\\{\"time\":\"[0-9T:.-]+Z\",\"remote\":\"127\\.0\\.0\\.1\",\"method\":\"GET\","
                + "\"target\":\"/todos\",\"protocol\":\"HTTP/(1\\.1|2)\",\"status\":200,\"bytesIn\":0,"
                + "\"bytesOut\":[0-9]+,\"durationMicros\":[0-9]+,\"connection\":1,\"requestId\":\"req-42\","
                + "\"userAgent\":\"Java-http-client/[0-9.]+\"}"), lines[0]);
    }

    @Test
    void metricsInPrometheusText() throws Exception {
        URI base = start();
        assertEquals(200, get(base.resolve("todos")).statusCode());
        assertEquals(404, get(base.resolve("nothing")).statusCode());
        HttpResponse<String> metrics = get(base.resolve("metrics"));
        assertEquals(200, metrics.statusCode());
        assertEquals("text/plain;charset=utf-8;version=0.0.4", // as Jersey writes the media type
                metrics.headers().firstValue("Content-Type").orElseThrow());
        Map<String, Double> samples = prometheus(metrics.body());
        assertEquals(3.0, samples.get("fleche_requests_total"), samples.toString()); // the scrape's own included
        assertEquals(1.0, samples.get("fleche_responses_total{status=\"2xx\"}"));
        assertEquals(1.0, samples.get("fleche_responses_total{status=\"4xx\"}"));
        assertEquals(0.0, samples.get("fleche_refusals_total{rule=\"HEADER_SECTION_TOO_LARGE\"}"));
        assertEquals(1.0, samples.get("fleche_exchanges_in_flight"), "the scrape itself");
        assertEquals(0.0, samples.get("fleche_requests_suspended"));
        assertEquals(0.0, samples.get("fleche_accesslog_dropped_total"));
        assertEquals(1.0, samples.get("fleche_connections_open"));
        // Jersey records a request when it has finished it, just after the response left: the next scrape has it.
        String todosTimer = "http_server_requests_seconds_count{exception=\"None\",method=\"GET\","
                + "outcome=\"SUCCESS\",status=\"200\",uri=\"/todos\"}";
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (!samples.containsKey(todosTimer) && System.nanoTime() - deadline < 0) {
            samples = prometheus(get(base.resolve("metrics")).body());
        }
        assertEquals(1.0, samples.get(todosTimer), samples.keySet().toString());
    }

    /** Prometheus text format: {@code name{labels} value} per sample line; comments and blank lines skipped. */
    private static Map<String, Double> prometheus(String text) {
        Pattern sample = Pattern.compile("^([a-zA-Z_:][a-zA-Z0-9_:]*(?:\\{[^}]*\\})?) (\\S+)$");
        Map<String, Double> samples = new HashMap<>();
        for (String line : text.split("\n")) {
            if (line.startsWith("#") || line.isBlank()) {
                continue;
            }
            Matcher m = sample.matcher(line);
            assertTrue(m.matches(), "not a Prometheus sample line: " + line);
            samples.put(m.group(1), Double.parseDouble(m.group(2)));
        }
        return samples;
    }

    @Test
    void aDatabaseDownAtStartKeepsReadinessDownAndTheProcessLive() throws Exception {
        // Nothing listens on port 1: every connection is refused, as during an outage.
        Changes changes = new Changes();
        try (Database database = Database.open("jdbc:postgresql://127.0.0.1:1/todos?user=todo&connectTimeout=1",
                changes)) {
            server = TodoService.start(ServiceConfig.from(new String[] {"0"}, Map.of("BIND_HOST", "127.0.0.1")),
                    database, changes);
            URI base = URI.create("http://127.0.0.1:" + server.port() + "/");
            assertEquals(200, get(base.resolve("health/live")).statusCode(), "live: the pod is not restarted");
            HttpResponse<String> ready = get(base.resolve("health/ready"));
            assertEquals(503, ready.statusCode(), "not ready: out of the Service");
            assertTrue(ready.body().contains("the schema is not migrated yet"), ready.body());
            server.close();
            server = null;
        }
    }
}
