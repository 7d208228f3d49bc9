package dev.fleche.examples.service;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.Statement;
import java.time.Duration;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A replica that starts before its database is there (an outage at start; here: the database not created yet)
 * listens at once, is live and not ready, and becomes ready by itself once the database answers — the behaviour the
 * Kubernetes template's startup probe (on liveness) relies on. Needs {@code postgres.url} (the postgres profile).
 */
@Timeout(120)
class DatabaseLateOnPostgres {
    private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

    private HttpResponse<String> send(int port, String method, String path, String json) throws Exception {
        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/" + path))
                .timeout(Duration.ofSeconds(10));
        if (json != null) {
            request.header("Content-Type", "application/json");
        }
        return http.send(request.method(method, json == null ? HttpRequest.BodyPublishers.noBody()
                : HttpRequest.BodyPublishers.ofString(json)).build(), HttpResponse.BodyHandlers.ofString());
    }

    @Test
    void aReplicaStartedBeforeItsDatabaseBecomesReadyWhenTheDatabaseIs() throws Exception {
        String admin = System.getProperty("postgres.url");
        assertTrue(admin != null && admin.startsWith("jdbc:postgresql:"), "-Dpostgres.url=jdbc:postgresql://...");
        String name = "todos_late_" + System.nanoTime();
        String url = admin.replaceFirst("/([A-Za-z0-9_]+)(\\?|$)", "/" + name + "$2");
        assertTrue(url.contains("/" + name), url);
        try (ImageProcess replica = ImageProcess.main(Map.of("DATABASE_URL", url, "BIND_HOST", "127.0.0.1",
                "DRAIN_DELAY_SECONDS", "0.2", "DRAIN_GRACE_SECONDS", "3"))) {
            assertEquals(200, send(replica.port, "GET", "health/live", null).statusCode(), replica.output());
            HttpResponse<String> notReady = send(replica.port, "GET", "health/ready", null);
            assertEquals(503, notReady.statusCode(), notReady.body());
            assertTrue(notReady.body().contains("the schema is not migrated yet"), notReady.body());

            try (Connection connection = DriverManager.getConnection(admin);
                 Statement statement = connection.createStatement()) {
                statement.execute("CREATE DATABASE " + name);
            }
            // The migration retries with a backoff (0.5 s doubling, 10 s at most): await its line, no polling.
            assertTrue(replica.awaitOutput("schema at version", 60), replica.output());
            assertEquals(200, send(replica.port, "GET", "health/ready", null).statusCode(), replica.output());
            assertEquals(201, send(replica.port, "POST", "todos", "{\"title\":\"after the outage\"}").statusCode());

            replica.terminate();
            assertTrue(replica.awaitExit(20), replica.output());
            assertEquals(0, replica.process.exitValue(), replica.output());
        } finally {
            try (Connection connection = DriverManager.getConnection(admin);
                 Statement statement = connection.createStatement()) {
                statement.execute("DROP DATABASE IF EXISTS " + name + " WITH (FORCE)");
            }
        }
    }
}
