package dev.fleche.examples.hello;

import dev.fleche.jersey.FlecheHttpServer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Starts the example on a free port and calls each endpoint with the JDK HTTP client. */
class HelloServerTest {
    private static FlecheHttpServer server;
    private static final HttpClient CLIENT = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(10)).build();

    @BeforeAll
    static void start() {
        server = HelloServer.start(0);
    }

    @AfterAll
    static void stop() throws InterruptedException {
        server.stop(Duration.ofSeconds(1));
    }

    private static HttpResponse<String> send(HttpRequest.Builder request) throws Exception {
        return CLIENT.send(request.build(), HttpResponse.BodyHandlers.ofString());
    }

    private static HttpRequest.Builder request(String path) {
        return HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + server.port() + path)).timeout(Duration.ofSeconds(30));
    }

    @Test
    void hello() throws Exception {
        HttpResponse<String> response = send(request("/hello"));
        assertEquals(200, response.statusCode());
        assertEquals("Hello, World!", response.body());
        assertTrue(response.headers().firstValue("Content-Type").orElse("").startsWith("text/plain"));
    }

    @Test
    void json() throws Exception {
        HttpResponse<String> response = send(request("/json"));
        assertEquals(200, response.statusCode());
        assertEquals("{\"message\":\"Hello, World!\"}", response.body());
        assertEquals("application/json", response.headers().firstValue("Content-Type").orElse(""));
    }

    @Test
    void echo() throws Exception {
        String body = "{\"name\":\"wrk\",\"amount\":12.34}";
        HttpResponse<String> response = send(request("/echo").header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(body)));
        assertEquals(200, response.statusCode());
        assertEquals(body, response.body());
    }

    @Test
    void async() throws Exception {
        long start = System.nanoTime();
        HttpResponse<String> response = send(request("/async?delayMs=50"));
        assertEquals(200, response.statusCode());
        assertEquals("Hello, World!", response.body());
        assertTrue(System.nanoTime() - start >= 50_000_000L, "resumed after the delay");
    }

    @Test
    void wadlIsOff() throws Exception {
        assertEquals(404, send(request("/application.wadl")).statusCode());
    }
}
