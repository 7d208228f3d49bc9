package dev.fleche.examples.hello;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.fleche.jersey.FlecheHttpServer;
import jakarta.ws.rs.core.Response;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.time.Duration;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The example's safe defaults: a JSON body over 10 MiB is refused before it is read; Jackson's limits are 413. */
@Timeout(30)
class HelloLimitsTest {
    private static FlecheHttpServer server;

    @BeforeAll
    static void start() {
        server = HelloServer.start(0);
    }

    @AfterAll
    static void stop() throws InterruptedException {
        server.stop(Duration.ofSeconds(1));
    }

    @Test
    void aJsonBodyDeclaredOver10MiBIs413BeforeItIsSent() throws Exception {
        try (Socket socket = new Socket("127.0.0.1", server.port())) {
            socket.setSoTimeout(10_000);
            socket.getOutputStream().write(("POST /echo HTTP/1.1\r\nHost: h\r\nContent-Type: application/json\r\n"
                    + "Content-Length: 73400320\r\n\r\n").getBytes(StandardCharsets.US_ASCII));
            String response = new String(socket.getInputStream().readAllBytes(), StandardCharsets.US_ASCII);
            assertTrue(response.startsWith("HTTP/1.1 413 Content Too Large\r\nContent-Type: application/problem+json\r\n"),
                    response);
            assertTrue(response.endsWith("\"detail\":\"request body larger than 10485760 bytes\"}"), response);
        }
    }

    @Test
    void jacksonsReadLimitsAre413NotAServerError() {
        String json = "{\"name\":\"" + "n".repeat(20_000_001) + "\",\"amount\":1}";
        Exception e = assertThrows(Exception.class,
                () -> new ObjectMapper().readValue(json, HelloResource.Payment.class));
        Response response = new JsonErrorMapper().toResponse((com.fasterxml.jackson.core.JsonProcessingException) e);
        assertEquals(413, response.getStatus());
        assertEquals("JSON beyond this server's limits", ((JsonErrorMapper.Problem) response.getEntity()).error());
    }
}
