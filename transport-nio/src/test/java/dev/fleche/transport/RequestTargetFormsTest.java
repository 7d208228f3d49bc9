package dev.fleche.transport;

import static java.nio.charset.StandardCharsets.US_ASCII;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.time.Duration;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * The four request-target forms of RFC 9112 3.2 over a real socket, with exact bytes: what the handler sees for each
 * accepted form, and the 400 (naming the rule) for a form used where it is not allowed.
 */
class RequestTargetFormsTest {
    private HttpServer server;

    @BeforeEach
    void start() throws Exception {
        // Answers on the reactor thread: "method target | path | query | host".
        server = HttpServer.create(RawClient.loopback().build(), exchange -> {
            String text = exchange.method() + " " + exchange.target() + " | " + exchange.path() + " | "
                    + exchange.query() + " | " + exchange.host();
            exchange.respond(200, new HttpFields().add("Content-Type", "text/plain"), text.getBytes(US_ASCII));
        }).start();
    }

    @AfterEach
    void stop() throws Exception {
        server.stop(Duration.ZERO);
    }

    private static String ok(String text) {
        return """
                HTTP/1.1 200 OK\r
                Content-Type: text/plain\r
                Date: <date>\r
                Content-Length: %d\r
                \r
                %s""".formatted(text.length(), text);
    }

    private String exchange(String request) throws Exception {
        try (RawClient client = RawClient.connect(server)) {
            client.send(request);
            return client.readResponse();
        }
    }

    @Test
    void originForm() throws Exception {
        assertEquals(ok("GET /a/b;c=d?x=%41&y=/? | /a/b;c=d | x=%41&y=/? | h"),
                exchange("GET /a/b;c=d?x=%41&y=/? HTTP/1.1\r\nHost: h\r\n\r\n"));
    }

    @Test
    void absoluteFormOnAnyMethodTakesItsPathAndItsAuthorityOverHost() throws Exception {
        assertEquals(ok("POST http://x.example:8080/p?q | /p | q | x.example:8080"),
                exchange("POST http://x.example:8080/p?q HTTP/1.1\r\nHost: h\r\nContent-Length: 0\r\n\r\n"));
        assertEquals(ok("DELETE https://x.example | / | null | x.example"),
                exchange("DELETE https://x.example HTTP/1.1\r\nHost: x.example\r\n\r\n"));
    }

    @Test
    void absoluteFormStillNeedsAValidHost() throws Exception {
        assertEquals(refused(400, "Bad Request", "Missing Host header"),
                exchange("GET http://x.example/ HTTP/1.1\r\n\r\n"));
        assertEquals(refused(400, "Bad Request", "Invalid Host header"),
                exchange("GET http://x.example/ HTTP/1.1\r\nHost: a b\r\n\r\n"));
    }

    @Test
    void asteriskFormForOptions() throws Exception {
        assertEquals(ok("OPTIONS * | * | null | h"), exchange("OPTIONS * HTTP/1.1\r\nHost: h\r\n\r\n"));
    }

    @Test
    void authorityFormForConnect() throws Exception {
        assertEquals(ok("CONNECT x.example:443 | x.example:443 | null | h"),
                exchange("CONNECT x.example:443 HTTP/1.1\r\nHost: h\r\n\r\n"));
    }

    private static String refused(int status, String phrase, String reason) {
        return """
                HTTP/1.1 %d %s\r
                Content-Type: text/plain; charset=utf-8\r
                Date: <date>\r
                Content-Length: %d\r
                Connection: close\r
                \r
                %s
                """.formatted(status, phrase, reason.length() + 1, reason);
    }

    @ParameterizedTest(name = "{0} {1} -> {2}")
    @CsvSource(delimiter = '|', value = {
        "GET     | *                  | Asterisk target only for OPTIONS",
        "GET     | x.example:443      | Authority target only for CONNECT",
        "OPTIONS | x.example:443      | Authority target only for CONNECT",
        "CONNECT | /                  | CONNECT needs a host:port target",
        "CONNECT | http://x:1/        | CONNECT needs a host:port target",
        "GET     | /a#f               | Invalid origin-form target",
        "GET     | /%zz               | Invalid origin-form target",
        "GET     | /{a}               | Invalid origin-form target",
        "GET     | http://u@x/        | Invalid absolute-form target",
        "GET     | http://x/a^b       | Invalid absolute-form target",
        "GET     | ftp://x/           | Invalid absolute-form target",
        "GET     | a/b                | Invalid request target",
    })
    void formsUsedWhereNotAllowedAre400AndClose(String method, String target, String reason) throws Exception {
        try (RawClient client = RawClient.connect(server)) {
            client.send(method + " " + target + " HTTP/1.1\r\nHost: h\r\n\r\n");
            assertEquals(refused(400, "Bad Request", reason), client.readResponse());
            client.assertEof();
        }
    }
}
