package dev.fleche.transport;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * {@link ServerMetrics} after a scripted sequence of requests: responses by status class, refusals by rule,
 * exchanges in flight, exact.
 */
class ServerMetricsTest {
    private HttpServer server;
    private final CompletableFuture<HttpExchange> held = new CompletableFuture<>();

    @AfterEach
    void stop() throws Exception {
        if (server != null) {
            server.stop(Duration.ZERO);
        }
    }

    private void handle(HttpExchange exchange) {
        switch (exchange.path()) {
            case "/ok" -> exchange.respond(200, new HttpFields(), bytes("ok"));
            case "/moved" -> exchange.respond(302, new HttpFields().add("Location", "/ok"), new byte[0]);
            case "/fail" -> throw new IllegalStateException("scripted failure");
            case "/hold" -> held.complete(exchange);
            default -> exchange.respond(404, new HttpFields(), bytes("no"));
        }
    }

    private static byte[] bytes(String text) {
        return text.getBytes(StandardCharsets.US_ASCII);
    }

    private static String status(RawClient client, String request) throws Exception {
        return client.send(request).readResponse().substring(9, 12);
    }

    @Test
    void countsByStatusClassAndRule() throws Exception {
        server = HttpServer.create(RawClient.loopback().maxHeaderBytes(256).maxRequestLineBytes(64)
                .maxBodyBytes(10).build(), this::handle).start();
        try (RawClient client = RawClient.connect(server)) {
            assertEquals("200", status(client, "GET /ok HTTP/1.1\r\nHost: t\r\n\r\n"));
            assertEquals("200", status(client, "GET /ok HTTP/1.1\r\nHost: t\r\n\r\n"));
            assertEquals("302", status(client, "GET /moved HTTP/1.1\r\nHost: t\r\n\r\n"));
            assertEquals("404", status(client, "GET /missing HTTP/1.1\r\nHost: t\r\n\r\n"));
            assertEquals("500", status(client, "GET /fail HTTP/1.1\r\nHost: t\r\n\r\n"));
        }
        try (RawClient client = RawClient.connect(server)) {
            assertEquals("431", status(client, "GET /ok HTTP/1.1\r\nHost: t\r\nX: " + "a".repeat(300) + "\r\n\r\n"));
        }
        try (RawClient client = RawClient.connect(server)) {
            assertEquals("414", status(client, "GET /" + "a".repeat(100) + " HTTP/1.1\r\nHost: t\r\n\r\n"));
        }
        try (RawClient client = RawClient.connect(server)) {
            assertEquals("413", status(client, "POST /ok HTTP/1.1\r\nHost: t\r\nContent-Length: 11\r\n\r\n"));
        }
        Await.until("connections closed", () -> server.metrics().openConnections() == 0);
        ServerMetrics m = server.metrics();
        assertEquals(0, m.responses1xx());
        assertEquals(2, m.responses2xx());
        assertEquals(1, m.responses3xx());
        assertEquals(4, m.responses4xx()); // 404, 431, 414, 413
        assertEquals(1, m.responses5xx());
        assertEquals(Map.of("REQUEST_LINE_TOO_LONG", 1L, "HEADER_SECTION_TOO_LARGE", 1L, "BODY_TOO_LARGE", 1L),
                m.refusalsByRule());
        assertEquals(1, m.refusals("BODY_TOO_LARGE"));
        assertEquals(0, m.refusals("OVERLOADED"));
        assertEquals(6, m.requests()); // the five on the first connection and the 413's (its head was read)
        assertEquals(0, m.exchangesInFlight());
        assertEquals(0, m.accessLogDropped());
    }

    @Test
    void exchangesInFlightAndOverload() throws Exception {
        server = HttpServer.create(RawClient.loopback().maxConnections(1).build(), this::handle).start();
        try (RawClient client = RawClient.connect(server)) {
            client.send("GET /hold HTTP/1.1\r\nHost: t\r\n\r\n");
            HttpExchange exchange = held.get();
            assertEquals(1, server.metrics().exchangesInFlight());
            try (RawClient refused = RawClient.connect(server)) {
                assertTrue(refused.readToEof().startsWith("HTTP/1.1 503 "));
            }
            exchange.respond(204, new HttpFields(), new byte[0]);
            assertEquals("204", client.readResponse().substring(9, 12));
            Await.until("exchange ended", () -> server.metrics().exchangesInFlight() == 0);
        }
        ServerMetrics m = server.metrics();
        assertEquals(Map.of("OVERLOADED", 1L), m.refusalsByRule());
        assertEquals(1, m.refusedConnections());
        assertEquals(1, m.responses2xx());
        assertEquals(1, m.responses5xx());
    }
}
