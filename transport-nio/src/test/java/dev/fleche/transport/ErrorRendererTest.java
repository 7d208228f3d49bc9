package dev.fleche.transport;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.time.Duration;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** The transport's own error responses go through the configured {@link ErrorRenderer}. */
class ErrorRendererTest {
    private static final ErrorRenderer JSON = (status, reason) -> new ErrorRenderer.Body("application/problem+json",
            ("{\"status\":" + status + ",\"title\":\"" + reason + "\"}").getBytes(UTF_8));

    private HttpServer server;

    @AfterEach
    void stop() throws Exception {
        server.stop(Duration.ZERO);
    }

    @Test
    void parserRejectionUsesTheRenderer() throws Exception {
        server = HttpServer.create(RawClient.loopback().errorRenderer(JSON).build(),
                exchange -> exchange.respond(200, new HttpFields(), new byte[0])).start();
        try (RawClient client = RawClient.connect(server)) {
            client.send("GET / HTTP/1.1\r\n\r\n");
            String body = "{\"status\":400,\"title\":\"Missing Host header\"}";
            assertEquals("HTTP/1.1 400 Bad Request\r\n"
                    + "Content-Type: application/problem+json\r\n"
                    + "Date: <date>\r\n"
                    + "Content-Length: " + body.length() + "\r\n"
                    + "Connection: close\r\n"
                    + "\r\n"
                    + body, client.readToEof());
        }
    }

    @Test
    void handlerFailureUsesTheRendererAndKeepsTheConnection() throws Exception {
        server = HttpServer.create(RawClient.loopback().errorRenderer(JSON).build(), exchange -> {
            if (exchange.path().equals("/boom")) {
                throw new IllegalStateException("secret detail");
            }
            exchange.respond(200, new HttpFields(), "ok".getBytes(UTF_8));
        }).start();
        try (RawClient client = RawClient.connect(server)) {
            client.send("GET /boom HTTP/1.1\r\nHost: x\r\n\r\n");
            String body = "{\"status\":500,\"title\":\"internal server error\"}";
            assertEquals("HTTP/1.1 500 Internal Server Error\r\n"
                    + "Content-Type: application/problem+json\r\n"
                    + "Date: <date>\r\n"
                    + "Content-Length: " + body.length() + "\r\n"
                    + "\r\n"
                    + body, client.readResponse());
            client.send("GET /fine HTTP/1.1\r\nHost: x\r\n\r\n");
            assertEquals("HTTP/1.1 200 OK\r\nDate: <date>\r\nContent-Length: 2\r\n\r\nok",
                    client.readResponse());
        }
    }

    @Test
    void aFailingRendererFallsBackToPlainText() throws Exception {
        ErrorRenderer broken = (status, reason) -> {
            throw new IllegalStateException("renderer bug");
        };
        server = HttpServer.create(RawClient.loopback().errorRenderer(broken).build(),
                exchange -> exchange.respond(200, new HttpFields(), new byte[0])).start();
        try (RawClient client = RawClient.connect(server)) {
            client.send("GET / HTTP/9.9\r\nHost: x\r\n\r\n");
            String response = client.readToEof();
            assertEquals("HTTP/1.1 505 HTTP Version Not Supported\r\n"
                    + "Content-Type: text/plain; charset=utf-8\r\n", response.substring(0, response.indexOf("Date:")));
        }
    }
}
