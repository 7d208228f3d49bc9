package dev.fleche.transport.http1;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Every limit at its exact boundary: the limit itself is accepted, one byte (or field) more is refused with the
 * limit's rule. Each input is fed in every way (see {@link Feeding}), since a split line takes another path.
 */
class LimitsTest {

    private static final String REQUEST_LINE = "GET /abc HTTP/1.1"; // 17 bytes
    private static final String FIELDS = "Host: a\r\nX-A: 12345\r\n"; // 9 + 12 = 21 bytes, 2 fields

    private static String head(int line, int section, int count, String raw) {
        return Feeding.head(() -> new RequestHeadParser(line, section, count), raw);
    }

    private static String body(int line, int section, int count, String raw) {
        return Feeding.body(() -> new ChunkedDecoder(line, section, count), raw);
    }

    @Test
    void requestLineLimit() {
        String raw = REQUEST_LINE + "\r\nHost: a\r\n\r\n";
        assertEquals(17, REQUEST_LINE.length());
        assertEquals("complete", head(17, 100, 10, raw));
        assertEquals("REQUEST_LINE_TOO_LONG", head(16, 100, 10, raw));
        assertEquals(414, ProtocolRule.REQUEST_LINE_TOO_LONG.status());
    }

    @Test
    void requestLineLimitHoldsWithoutAnyLineEnd() {
        assertEquals("incomplete", head(17, 100, 10, REQUEST_LINE + "\r"));
        assertEquals("REQUEST_LINE_TOO_LONG", head(17, 100, 10, REQUEST_LINE + "x"));
        assertEquals("REQUEST_LINE_TOO_LONG", head(17, 100, 10, "G".repeat(10_000)));
    }

    @Test
    void headerSectionLimit() {
        String raw = REQUEST_LINE + "\r\n" + FIELDS + "\r\n";
        assertEquals("complete", head(17, 21, 10, raw));
        assertEquals("HEADER_SECTION_TOO_LARGE", head(17, 20, 10, raw));
        assertEquals("HEADER_SECTION_TOO_LARGE", head(17, 20, 10, REQUEST_LINE + "\r\nHost: " + "a".repeat(5000)));
    }

    @Test
    void emptyHeaderSectionFitsLimitZero() {
        assertEquals("complete", head(100, 0, 0, "GET / HTTP/1.0\r\n\r\n"));
        assertEquals("HEADER_SECTION_TOO_LARGE", head(100, 0, 10, "GET / HTTP/1.0\r\nA:\r\n\r\n"));
        assertEquals("complete", head(100, 4, 10, "GET / HTTP/1.0\r\nA:\r\n\r\n"));
    }

    @Test
    void headerCountLimit() {
        String raw = REQUEST_LINE + "\r\n" + FIELDS + "\r\n";
        assertEquals("complete", head(17, 100, 2, raw));
        assertEquals("TOO_MANY_HEADERS", head(17, 100, 1, raw));
    }

    @Test
    void leadingEmptyLinesLimit() {
        int max = RequestHeadParser.MAX_LEADING_EMPTY_LINES;
        String request = "GET / HTTP/1.1\r\nHost: a\r\n\r\n";
        assertEquals("complete", head(100, 100, 10, "\r\n".repeat(max) + request));
        assertEquals("LEADING_EMPTY_LINES", head(100, 100, 10, "\r\n".repeat(max + 1) + request));
    }

    @Test
    void contentLengthUpToLongMax() {
        String post = "POST / HTTP/1.1\r\nHost: a\r\nContent-Length: ";
        assertEquals("complete", head(100, 100, 10, post + Long.MAX_VALUE + "\r\n\r\n"));
        assertEquals("CONTENT_LENGTH_INVALID", head(100, 100, 10, post + "9223372036854775808\r\n\r\n"));
        assertEquals("CONTENT_LENGTH_INVALID", head(100, 100, 10, post + "99999999999999999999\r\n\r\n"));
    }

    @ParameterizedTest(name = "{0} -> {1}")
    @CsvSource({
        "HTTP/1.0, complete", "HTTP/1.1, complete", "HTTP/1.9, complete",
        "HTTP/0.9, VERSION_NOT_SUPPORTED", "HTTP/2.0, VERSION_NOT_SUPPORTED", "HTTP/9.9, VERSION_NOT_SUPPORTED",
        "HTTP/1.1x, VERSION_INVALID", "HTTP/1, VERSION_INVALID", "HTTP/10.1, VERSION_INVALID",
        "HTTPS/1.1, VERSION_INVALID", "HTTP/1.a, VERSION_INVALID", "HTTP-1.1, VERSION_INVALID",
    })
    void versions(String version, String outcome) {
        assertEquals(outcome, head(100, 100, 10, "GET / " + version + "\r\nHost: a\r\n\r\n"));
    }

    @Test
    void chunkSizeDigits() {
        assertEquals("complete", body(100, 100, 10, "0000000000000005\r\nhello\r\n0\r\n\r\n"));
        assertEquals("CHUNK_SIZE_INVALID", body(100, 100, 10, "00000000000000005\r\nhello\r\n0\r\n\r\n"));
        assertEquals("incomplete", body(100, 100, 10, "7FFFFFFFFFFFFFFF\r\nsome data"));
        assertEquals("CHUNK_SIZE_INVALID", body(100, 100, 10, "8000000000000000\r\n"));
    }

    @Test
    void chunkLineLimit() {
        String raw = "5;a=bcd\r\nhello\r\n0\r\n\r\n"; // 7 bytes before the first CRLF
        assertEquals("complete", body(7, 100, 10, raw));
        assertEquals("CHUNK_LINE_TOO_LONG", body(6, 100, 10, raw));
        assertEquals("CHUNK_LINE_TOO_LONG", body(6, 100, 10, "5;" + "a".repeat(10_000)));
    }

    @Test
    void trailerSectionLimit() {
        String raw = "0\r\nT: 1\r\nU: 22\r\n\r\n"; // trailers 6 + 7 = 13 bytes
        assertEquals("complete", body(10, 13, 10, raw));
        assertEquals("TRAILER_SECTION_TOO_LARGE", body(10, 12, 10, raw));
        assertEquals("complete", body(10, 0, 0, "0\r\n\r\n"));
    }

    @Test
    void trailerCountLimit() {
        String raw = "0\r\nT: 1\r\nU: 22\r\n\r\n";
        assertEquals("complete", body(10, 100, 2, raw));
        assertEquals("TOO_MANY_TRAILERS", body(10, 100, 1, raw));
    }

    @Test
    void limitsMustBeSane() {
        assertThrows(IllegalArgumentException.class, () -> new RequestHeadParser(0, 10, 10));
        assertThrows(IllegalArgumentException.class, () -> new RequestHeadParser(10, -1, 10));
        assertThrows(IllegalArgumentException.class, () -> new RequestHeadParser(10, 10, -1));
        assertThrows(IllegalArgumentException.class, () -> new ChunkedDecoder(0, 10, 10));
        assertThrows(IllegalArgumentException.class, () -> new ChunkedDecoder(10, -1, 10));
        assertThrows(IllegalArgumentException.class, () -> new ChunkedDecoder(10, 10, -1));
    }
}
