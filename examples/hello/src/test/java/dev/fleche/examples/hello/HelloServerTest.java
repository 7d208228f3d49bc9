package dev.fleche.examples.hello;

import dev.fleche.jersey.FlecheHttpServer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

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

    private static HttpResponse<String> echo(String contentType, String body) throws Exception {
        return send(request("/echo").header("Content-Type", contentType).POST(HttpRequest.BodyPublishers.ofString(body)));
    }

    @Test
    void malformedJsonIs400WithAClearBody() throws Exception {
        HttpResponse<String> response = echo("application/json", "{\"name\":\"wrk\",");
        assertEquals(400, response.statusCode(), response.body());
        assertEquals("application/json", response.headers().firstValue("Content-Type").orElse(""));
        assertTrue(response.body().startsWith("{\"error\":\"malformed JSON\",\"detail\":\"Unexpected end-of-input"),
                response.body());
        assertTrue(response.body().endsWith("(line 1, column 15)\"}"), response.body());
    }

    @Test
    void jsonOfTheWrongShapeIs400() throws Exception {
        HttpResponse<String> wrongType = echo("application/json", "{\"name\":\"wrk\",\"amount\":\"lots\"}");
        assertEquals(400, wrongType.statusCode(), wrongType.body());
        assertTrue(wrongType.body().startsWith("{\"error\":\"JSON does not match the expected body\","),
                wrongType.body());
        assertTrue(wrongType.body().contains("lots"), wrongType.body());

        HttpResponse<String> unknownField = echo("application/json", "{\"name\":\"wrk\",\"amont\":1}");
        assertEquals(400, unknownField.statusCode(), unknownField.body());
        assertTrue(unknownField.body().contains("amont"), unknownField.body());
    }

    @Test
    void anEmptyBodyIs400() throws Exception {
        HttpResponse<String> response = echo("application/json", "");
        assertEquals(400, response.statusCode(), response.body());
        assertEquals("{\"error\":\"a JSON body is required\",\"detail\":null}", response.body());
    }

    @Test
    void anotherMediaTypeIs415() throws Exception {
        assertEquals(415, echo("text/plain", "name=wrk").statusCode());
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

    @Test
    @Timeout(60)
    void badArgumentsPrintTheUsageAndExitWithCode2() throws Exception {
        for (List<String> args : List.of(List.of("abc"), List.of("-1"), List.of("65536"), List.of("1", "2"),
                List.of("--keystore"), List.of("--bogus"))) {
            List<String> command = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java")
                    .toString(), "-cp", System.getProperty("java.class.path"), HelloServer.class.getName()));
            command.addAll(args);
            Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
            String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            assertTrue(process.waitFor(30, TimeUnit.SECONDS), "ended");
            assertEquals(2, process.exitValue(), args + ": " + output);
            assertTrue(output.contains(HelloServer.USAGE), output);
        }
    }
}
