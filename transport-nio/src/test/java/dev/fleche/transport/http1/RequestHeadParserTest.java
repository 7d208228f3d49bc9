package dev.fleche.transport.http1;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

/** The head parser's contract: where it stops, its states, and the facts it derives from the fields. */
class RequestHeadParserTest {

    private final RequestHeadParser parser = new RequestHeadParser(256, 4096, 32);

    private RequestHead parse(String raw) throws RequestException {
        byte[] buf = MessageDriver.bytes(raw);
        int end = parser.parse(buf, 0, buf.length);
        assertTrue(parser.isComplete(), "complete");
        assertEquals(buf.length, end, "consumed exactly the head");
        return parser.take();
    }

    @ParameterizedTest
    @ValueSource(strings = {"GET", "HEAD", "POST", "PUT", "DELETE", "OPTIONS", "PATCH", "TRACE"})
    void commonMethodsAreSharedConstants(String method) throws RequestException {
        String literal = method.intern(); // the instance of the string literal, as in the parser's constants
        assertSame(literal, parse(method + " / HTTP/1.1\r\nHost: a\r\n\r\n").method());
    }

    @Test
    void otherMethodsAreAccepted() throws RequestException {
        assertSame("CONNECT", parse("CONNECT a:1 HTTP/1.1\r\nHost: a:1\r\n\r\n").method());
        assertEquals("PROPFIND", parse("PROPFIND / HTTP/1.1\r\nHost: a\r\n\r\n").method());
        assertEquals("get", parse("get / HTTP/1.1\r\nHost: a\r\n\r\n").method(), "methods are case-sensitive");
    }

    @Test
    void stopsAfterTheHeadAndKeepsTheRest() throws RequestException {
        String one = "GET /1 HTTP/1.1\r\nHost: a\r\n\r\n";
        byte[] buf = MessageDriver.bytes(one + "GET /2 HTTP/1.1\r\nHost: a\r\n\r\n");
        int first = parser.parse(buf, 0, buf.length);
        assertEquals(one.length(), first);
        assertEquals(first, parser.parse(buf, first, buf.length), "nothing consumed once complete");
        assertEquals("/1", parser.take().path());
        assertEquals(buf.length, parser.parse(buf, first, buf.length));
        assertEquals("/2", parser.take().path());
    }

    @Test
    void inProgressIgnoresLeadingEmptyLines() throws RequestException {
        assertFalse(parser.inProgress());
        byte[] buf = MessageDriver.bytes("\r\n\r\nGET / HTTP/1.1\r\nHost: a\r\n\r\n");
        parser.parse(buf, 0, 3);
        assertFalse(parser.inProgress(), "empty line and a CR");
        parser.parse(buf, 3, 5);
        assertTrue(parser.inProgress(), "a request byte");
        parser.parse(buf, 5, buf.length);
        assertTrue(parser.inProgress());
        parser.take();
        assertFalse(parser.inProgress());
    }

    @Test
    void takeNeedsACompleteHead() {
        assertThrows(IllegalStateException.class, parser::take);
    }

    @Test
    void failedParserRefusesInputUntilReset() throws RequestException {
        byte[] bad = MessageDriver.bytes("GET / HTTP/1.1\n");
        assertThrows(RequestException.class, () -> parser.parse(bad, 0, bad.length));
        assertTrue(parser.inProgress());
        assertThrows(IllegalStateException.class, () -> parser.parse(bad, 0, bad.length));
        parser.reset();
        assertFalse(parser.inProgress());
        assertEquals("/", parse("GET / HTTP/1.1\r\nHost: a\r\n\r\n").path());
    }

    @ParameterizedTest(name = "{0} + [{1}] -> {2}")
    @CsvSource(delimiter = '|', value = {
        "HTTP/1.1 |                       | true",
        "HTTP/1.1 | Connection: close     | false",
        "HTTP/1.1 | Connection: x, CLOSE  | false",
        "HTTP/1.1 | Connection: keep-alive| true",
        "HTTP/1.0 |                       | false",
        "HTTP/1.0 | Connection: keep-alive| true",
        "HTTP/1.0 | Connection: Keep-Alive, Upgrade | true",
        "HTTP/1.0 | Connection: keep-alive, close   | false",
        "HTTP/1.0 | Connection: keep-alives | false",
    })
    void keepAlive(String version, String field, boolean keepAlive) throws RequestException {
        String fields = "Host: a\r\n" + (field == null ? "" : field + "\r\n");
        assertEquals(keepAlive, parse("GET / " + version + "\r\n" + fields + "\r\n").keepAlive());
    }

    @ParameterizedTest(name = "{0} + [{1}] -> {2}")
    @CsvSource(delimiter = '|', value = {
        "HTTP/1.1 |                          | false",
        "HTTP/1.1 | Expect: 100-continue     | true",
        "HTTP/1.1 | Expect: 100-Continue     | true",
        "HTTP/1.1 | 'Expect: , 100-continue' | true",
        "HTTP/1.1 | 'Expect: ,'              | false",
        "HTTP/1.0 | Expect: 100-continue     | false",
        "HTTP/1.0 | Expect: something-else   | false",
    })
    void expectContinue(String version, String field, boolean expect) throws RequestException {
        String fields = "Host: a\r\n" + (field == null ? "" : field + "\r\n");
        assertEquals(expect, parse("PUT / " + version + "\r\n" + fields + "\r\n").expectContinue());
    }

    @Test
    void hostFacts() throws RequestException {
        assertNull(parse("GET / HTTP/1.0\r\n\r\n").host());
        assertEquals("", parse("GET / HTTP/1.1\r\nHost:\r\n\r\n").host());
        assertEquals("[::1]:80", parse("GET / HTTP/1.1\r\nhost: [::1]:80\r\n\r\n").host());
        assertEquals("a%20b.example:", parse("GET / HTTP/1.1\r\nHOST: a%20b.example:\r\n\r\n").host());
        assertEquals("b", parse("GET http://b/ HTTP/1.0\r\n\r\n").host());
        assertEquals("b", parse("GET http://b/ HTTP/1.1\r\nHost: c\r\n\r\n").host());
    }

    @ParameterizedTest
    @ValueSource(strings = {"[::1", "a%2", "a%zz", ":80", "a:80:81", "a:b", "[::1]x", "a<b", "a\tb", "a\"b"})
    void invalidHosts(String host) {
        byte[] buf = MessageDriver.bytes("GET / HTTP/1.1\r\nHost: " + host + "\r\n\r\n");
        RequestException e = assertThrows(RequestException.class, () -> parser.parse(buf, 0, buf.length));
        assertEquals(ProtocolRule.HOST_INVALID, e.rule());
    }

    @Test
    void bodyFacts() throws RequestException {
        RequestHead none = parse("POST / HTTP/1.1\r\nHost: a\r\nContent-Length: 0\r\n\r\n");
        assertEquals(0, none.contentLength());
        assertFalse(none.hasBody());
        RequestHead listed = parse("POST / HTTP/1.1\r\nHost: a\r\nContent-Length: 07 ,7\r\ncontent-length: 7\r\n\r\n");
        assertEquals(7, listed.contentLength());
        assertTrue(listed.hasBody());
        RequestHead chunked = parse("POST / HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: CHUNKED \r\n\r\n");
        assertTrue(chunked.chunked());
        assertEquals(-1, chunked.contentLength());
        assertTrue(chunked.hasBody());
    }

    @Test
    void fieldsKeepOrderCaseAndObsText() throws RequestException {
        RequestHead head = parse("GET / HTTP/1.1\r\nhOsT: a\r\nX-A: 1\r\nx-a: \u00e9\u0080\r\nX-B:\t\r\n\r\n");
        assertEquals("[hOsT=a, X-A=1, x-a=\u00e9\u0080, X-B=]\n", MessageDriver.describe(head.headers()));
        assertEquals(2, head.headers().getAll("X-A").size());
    }

    @Test
    void lineLongerThanTheKeptBufferAcrossCalls() throws RequestException {
        String value = "v".repeat(3 * LineReader.KEEP);
        byte[] buf = MessageDriver.bytes("GET / HTTP/1.1\r\nHost: a\r\nX-Long: " + value + "\r\n\r\n");
        int pos = 0;
        while (pos < buf.length) {
            pos = parser.parse(buf, pos, Math.min(buf.length, pos + 100));
        }
        assertEquals(value, parser.take().headers().get("x-long"));
        assertEquals("/", parse("GET / HTTP/1.1\r\nHost: a\r\n\r\n").path(), "parser reusable after");
    }

    @Test
    void rangeIsChecked() {
        byte[] buf = new byte[4];
        assertThrows(IndexOutOfBoundsException.class, () -> parser.parse(buf, 3, 5));
        assertThrows(IndexOutOfBoundsException.class, () -> parser.parse(buf, -1, 2));
    }
}
