package dev.fleche.transport;

import static java.nio.charset.StandardCharsets.ISO_8859_1;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.io.OutputStream;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The status line is what the handler set: any three-digit status as given, its reason phrase when valid
 * (RFC 9112 4), the standard phrase otherwise; a status that is not three digits fails at the call.
 */
@Timeout(20)
class StatusLineTest {
    private HttpServer server;

    @AfterEach
    void stop() throws Exception {
        if (server != null) {
            server.stop(Duration.ZERO);
        }
    }

    private String answer(HttpHandler handler) throws Exception {
        server = HttpServer.create(RawClient.loopback().build(), handler).start();
        try (RawClient client = RawClient.connect(server)) {
            client.send("GET / HTTP/1.1\r\nHost: x\r\n\r\n");
            String response = client.readResponse();
            return response.substring(0, response.indexOf("\r\n"));
        }
    }

    @Test
    void aValidReasonPhraseIsSentAsGiven() throws Exception {
        assertEquals("HTTP/1.1 428 my-phrase\tand more",
                answer(ex -> ex.respond(428, "my-phrase\tand more", new HttpFields(), new byte[0])));
    }

    @Test
    void obsTextIsAValidReasonPhrase() throws Exception {
        String latin1 = new String(new byte[] {'C', 'a', 'f', (byte) 0xE9}, ISO_8859_1);
        assertEquals("HTTP/1.1 200 " + latin1, answer(ex -> ex.respond(200, latin1, new HttpFields(), new byte[0])));
    }

    @Test
    void anInvalidReasonPhraseGivesTheStandardOne() throws Exception {
        assertEquals("HTTP/1.1 404 Not Found",
                answer(ex -> ex.respond(404, "bad\r\nX-Injected: 1", new HttpFields(), new byte[0])));
    }

    @Test
    void noReasonGivesTheStandardOne() throws Exception {
        assertEquals("HTTP/1.1 413 Content Too Large", answer(ex -> ex.respond(413, new HttpFields(), new byte[0])));
    }

    @Test
    void anUnknownStatusIsSentAsSet() throws Exception {
        assertEquals("HTTP/1.1 799 Custom", answer(ex -> ex.respond(799, "Custom", new HttpFields(), new byte[0])));
    }

    @Test
    void anUnknownStatusWithoutReasonHasAnEmptyPhrase() throws Exception {
        assertEquals("HTTP/1.1 999 ", answer(ex -> ex.respond(999, new HttpFields(), new byte[0])));
    }

    @Test
    void aStreamedResponseCarriesItsReason() throws Exception {
        assertEquals("HTTP/1.1 299 Streamed", answer(ex -> {
            try (OutputStream out = ex.startResponse(299, "Streamed", new HttpFields(), -1)) {
                out.write('x');
            } catch (java.io.IOException e) {
                throw new java.io.UncheckedIOException(e);
            }
        }));
    }

    @Test
    void aStatusThatIsNotThreeDigitsFailsAtTheCall() throws Exception {
        CompletableFuture<String> failures = new CompletableFuture<>();
        assertEquals("HTTP/1.1 204 No Content", answer(ex -> {
            StringBuilder seen = new StringBuilder();
            for (int status : new int[] {99, 1000, -1}) {
                seen.append(assertThrows(IllegalArgumentException.class,
                        () -> ex.respond(status, new HttpFields(), new byte[0])).getMessage()).append('|');
                assertThrows(IllegalArgumentException.class, () -> ex.startResponse(status, new HttpFields(), 0));
            }
            failures.complete(seen.toString());
            ex.respond(204, new HttpFields(), new byte[0]); // nothing was started by the failed calls
        }));
        assertEquals("status must be 100..999, was 99|status must be 100..999, was 1000|"
                + "status must be 100..999, was -1|", failures.get(5, TimeUnit.SECONDS));
    }
}
