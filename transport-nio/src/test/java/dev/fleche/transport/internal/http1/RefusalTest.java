package dev.fleche.transport.internal.http1;

import dev.fleche.transport.internal.loop.ByteSink;
import dev.fleche.transport.internal.rules.Refusal;
import static java.nio.charset.StandardCharsets.US_ASCII;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.fleche.transport.ErrorRenderer;
import dev.fleche.transport.HttpFields;
import dev.fleche.transport.ServerOptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/** The transport's own refusals: each named with its reason, and all encoded the same way. */
@Timeout(10)
class RefusalTest {

    @ParameterizedTest
    @EnumSource(Refusal.class)
    void eachRefusalIsNamedWithASectionAndASafeReason(Refusal refusal) {
        assertTrue(refusal.section().matches("(RFC \\d{4}|PROXY protocol) \\d+(\\.\\d+)*"), refusal.section());
        assertTrue(refusal.status() == 0 || (refusal.status() >= 400 && refusal.status() < 600));
        String reason = refusal.reason(ServerOptions.builder().build());
        assertTrue(!reason.isEmpty() && reason.chars().allMatch(c -> c >= 0x20 && c < 0x7F), reason);
    }

    @Test
    void bodyTooLargeNamesTheLimit() {
        assertEquals("request body larger than 1000 bytes",
                Refusal.BODY_TOO_LARGE.reason(ServerOptions.builder().maxBodyBytes(1000).build()));
    }

    @Test
    void aRefusalCarriesDateTheRenderersBodyExtraFieldsAndClose() {
        ByteSink sink = new ByteSink(256);
        ErrorRenderer json = (status, reason) -> new ErrorRenderer.Body("application/json",
                ("{\"status\":" + status + "}").getBytes(US_ASCII));
        new ResponseEncoder().encodeRefusal(sink, 503, "too many connections", json,
                new HttpFields(1).add("Retry-After", "1"), false);
        String text = new String(sink.toByteArray(), US_ASCII).replaceAll("Date: [^\r]*", "Date: <date>");
        assertEquals("""
                HTTP/1.1 503 Service Unavailable\r
                Content-Type: application/json\r
                Retry-After: 1\r
                Date: <date>\r
                Content-Length: 14\r
                Connection: close\r
                \r
                {"status":503}""", text);
    }

    @Test
    void theRefusalOfAHeadRequestKeepsTheLengthAndLeavesTheBodyOut() {
        ByteSink sink = new ByteSink(256);
        new ResponseEncoder().encodeRefusal(sink, 413, "request body larger than 1000 bytes",
                ErrorRenderer.PLAIN_TEXT, null, true);
        String text = new String(sink.toByteArray(), US_ASCII).replaceAll("Date: [^\r]*", "Date: <date>");
        assertEquals("""
                HTTP/1.1 413 Content Too Large\r
                Content-Type: text/plain; charset=utf-8\r
                Date: <date>\r
                Content-Length: 36\r
                Connection: close\r
                \r
                """, text);
    }

    @Test
    void aFailingRendererFallsBackToPlainText() {
        ByteSink sink = new ByteSink(256);
        ErrorRenderer broken = (status, reason) -> {
            throw new IllegalStateException("broken");
        };
        new ResponseEncoder().encodeRefusal(sink, 408, "request head not received in time", broken, null, false);
        String text = new String(sink.toByteArray(), US_ASCII);
        assertTrue(text.startsWith("HTTP/1.1 408 Request Timeout\r\nContent-Type: text/plain; charset=utf-8\r\n"), text);
        assertTrue(text.endsWith("\r\nConnection: close\r\n\r\nrequest head not received in time\n"), text);
    }

    @Test
    void aStreamedBodyIsNotLimitedByDefault() {
        ServerOptions defaults = ServerOptions.builder().build();
        assertEquals(-1, defaults.maxBodyBytes());
        assertEquals(Long.MAX_VALUE, defaults.bodyLimit());
    }

    @Test
    void aBufferedBodyIsLimitedTo10MiBByDefault() {
        ServerOptions defaults = ServerOptions.builder().build();
        assertEquals(10L << 20, defaults.maxBufferedBodyBytes());
        assertEquals(10L << 20, defaults.bufferedBodyLimit());
        assertEquals(4096, defaults.toBuilder().maxBodyBytes(4096).build().bufferedBodyLimit(), "the smaller applies");
        assertEquals(Long.MAX_VALUE, defaults.toBuilder().maxBufferedBodyBytes(-1).build().bufferedBodyLimit());
    }
}
