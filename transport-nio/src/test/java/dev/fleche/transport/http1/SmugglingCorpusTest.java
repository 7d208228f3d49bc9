package dev.fleche.transport.http1;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.stream.Stream;
import org.junit.jupiter.api.function.Executable;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Named request smuggling and framing cases, each with its source: an RFC section, a PortSwigger Web Security
 * Academy "HTTP request smuggling" technique, or a CVE. Each request is fed whole and one byte at a time; a
 * refused one must give the expected status and close the connection, an accepted one must parse to the end.
 */
class SmugglingCorpusTest {

    /** The status that stands for "accepted". */
    static final int OK = 200;

    /** One case: {@code raw} uses {@code \r\n} explicitly; chars up to U+00FF stand for single bytes. */
    record Case(String name, String raw, int status, String source) {
        @Override
        public String toString() {
            return name;
        }
    }

    private static final String POST = "POST / HTTP/1.1\r\nHost: a\r\n";
    private static final String CHUNKED = POST + "Transfer-Encoding: chunked\r\n\r\n";

    static Stream<Case> corpus() {
        return Stream.of(
                // --- Content-Length and Transfer-Encoding together ---
                new Case("CL.TE", POST + "Content-Length: 6\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\nG", 400,
                        "PortSwigger: CL.TE vulnerabilities; RFC 9112 6.1; CVE-2019-20445"),
                new Case("TE.CL", POST + "Transfer-Encoding: chunked\r\nContent-Length: 4\r\n\r\n5c\r\nGPOST", 400,
                        "PortSwigger: TE.CL vulnerabilities; RFC 9112 6.1"),
                new Case("CL.TE with Content-Length 0", POST + "Content-Length: 0\r\nTransfer-Encoding: chunked\r\n\r\n",
                        400, "RFC 9112 6.1"),
                new Case("TE.TE: second, bogus Transfer-Encoding field",
                        POST + "Transfer-Encoding: chunked\r\nTransfer-Encoding: x\r\n\r\n", 400,
                        "PortSwigger: TE.TE behavior: obfuscating the TE header; RFC 9112 6.3"),
                new Case("Transfer-Encoding: chunked twice", POST + "Transfer-Encoding: chunked, chunked\r\n\r\n", 400,
                        "RFC 9112 6.1 (chunked applied at most once)"),
                new Case("Transfer-Encoding: chunked, identity", POST + "Transfer-Encoding: chunked, identity\r\n\r\n",
                        400, "RFC 9112 6.3 item 4 (chunked not final)"),
                new Case("Transfer-Encoding split over fields, chunked first",
                        POST + "Transfer-Encoding: chunked\r\nTransfer-Encoding: gzip\r\n\r\n", 400, "RFC 9112 6.3"),
                new Case("Transfer-Encoding: gzip, chunked", POST + "Transfer-Encoding: gzip, chunked\r\n\r\n", 501,
                        "RFC 9112 6.1 (coding not implemented)"),
                new Case("Transfer-Encoding : chunked (space before colon)",
                        POST + "Transfer-Encoding : chunked\r\n\r\n", 400,
                        "RFC 9112 5.1; PortSwigger TE.TE obfuscation; CVE-2019-16869"),
                new Case("Transfer-Encoding:\\tchunked (HTAB is OWS)", CHUNKED.replace(": chunked", ":\tchunked")
                        + "0\r\n\r\n", OK, "RFC 9110 5.6.3"),
                new Case("Transfer-Encoding: Chunked (case-insensitive)", CHUNKED.replace("chunked", "Chunked")
                        + "0\r\n\r\n", OK, "RFC 9112 7"),
                new Case("Transfer-Encoding: , chunked (empty list element)",
                        CHUNKED.replace(": chunked", ": , chunked") + "0\r\n\r\n", OK, "RFC 9110 5.6.1"),
                new Case("Transfer-Encoding: xchunked", POST + "Transfer-Encoding: xchunked\r\n\r\n", 400,
                        "PortSwigger TE.TE obfuscation"),
                new Case("Transfer-Encoding: \"chunked\" (quoted)", POST + "Transfer-Encoding: \"chunked\"\r\n\r\n",
                        400, "PortSwigger TE.TE obfuscation"),
                new Case("Transfer-Encoding: chunked;x=1 (parameter)", POST + "Transfer-Encoding: chunked;x=1\r\n\r\n",
                        400, "RFC 9112 7 (chunked has no parameters)"),
                new Case("Transfer-Encoding:\\u000bchunked (vertical tab)",
                        POST + "Transfer-Encoding:\u000bchunked\r\n\r\n", 400,
                        "PortSwigger TE.TE obfuscation; RFC 9110 5.5"),
                new Case("Transfer-Encoding with obs-fold", POST + "Transfer-Encoding:\r\n chunked\r\n\r\n", 400,
                        "RFC 9112 5.2; PortSwigger TE.TE obfuscation"),
                new Case("Transfer-Encoding on HTTP/1.0",
                        "POST / HTTP/1.0\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n", 400, "RFC 9112 6.1"),
                new Case("Space inside field name", POST + "Transfer Encoding: chunked\r\n\r\n", 400, "RFC 9112 5.1"),
                new Case("Field line without colon", POST + "Transfer-Encoding chunked\r\n\r\n", 400,
                        "RFC 9112 5; CVE-2019-20444"),
                new Case("Whitespace before first field", "GET / HTTP/1.1\r\n Host: a\r\n\r\n", 400, "RFC 9112 2.2"),
                // --- Content-Length ---
                new Case("Duplicate differing Content-Length", POST + "Content-Length: 3\r\nContent-Length: 4\r\n\r\nabcd",
                        400, "RFC 9112 6.3 item 5; CVE-2019-20445"),
                new Case("Duplicate identical Content-Length", POST + "Content-Length: 3\r\nContent-Length: 3\r\n\r\nabc",
                        OK, "RFC 9110 8.6"),
                new Case("Content-Length list, identical", POST + "Content-Length: 3, 3\r\n\r\nabc", OK, "RFC 9110 8.6"),
                new Case("Content-Length list, differing", POST + "Content-Length: 3, 4\r\n\r\nabcd", 400, "RFC 9110 8.6"),
                new Case("Content-Length with plus sign", POST + "Content-Length: +3\r\n\r\nabc", 400, "RFC 9110 8.6"),
                new Case("Content-Length negative", POST + "Content-Length: -1\r\n\r\n", 400, "RFC 9110 8.6"),
                new Case("Content-Length with inner space", POST + "Content-Length: 1 0\r\n\r\n", 400, "RFC 9110 8.6"),
                new Case("Content-Length in hex", POST + "Content-Length: 0x3\r\n\r\nabc", 400, "RFC 9110 8.6"),
                new Case("Content-Length empty", POST + "Content-Length: \r\n\r\n", 400, "RFC 9110 8.6"),
                new Case("Content-Length trailing comma", POST + "Content-Length: 3,\r\n\r\nabc", 400, "RFC 9110 8.6"),
                new Case("Content-Length overflow", POST + "Content-Length: 9223372036854775808\r\n\r\n", 400,
                        "RFC 9112 6.3 (integer overflow)"),
                new Case("Content-Length with obs-fold", POST + "Content-Length: 3\r\n 0\r\n\r\nabc", 400,
                        "RFC 9112 5.2"),
                // --- line endings and control characters ---
                new Case("Bare LF line endings", "GET / HTTP/1.1\nHost: a\n\n", 400, "RFC 9112 2.2"),
                new Case("Bare LF ends the head", "GET / HTTP/1.1\r\nHost: a\r\n\n", 400, "RFC 9112 2.2"),
                new Case("Bare CR inside a field value", POST + "X: a\rContent-Length: 3\r\n\r\nabc", 400,
                        "RFC 9112 2.2"),
                new Case("NUL in a field value", POST + "X: a\u0000b\r\n\r\n", 400, "RFC 9110 5.5"),
                new Case("DEL in a field value", POST + "X: a\u007fb\r\n\r\n", 400, "RFC 9110 5.5"),
                new Case("Tab inside the request line", "GET\t/ HTTP/1.1\r\nHost: a\r\n\r\n", 400, "RFC 9112 3"),
                new Case("Double space in the request line", "GET  / HTTP/1.1\r\nHost: a\r\n\r\n", 400, "RFC 9112 3"),
                new Case("Non-ASCII byte in the target", "GET /\u00e9 HTTP/1.1\r\nHost: a\r\n\r\n", 400,
                        "RFC 9112 3.2"),
                new Case("Lower-case HTTP name", "GET / http/1.1\r\nHost: a\r\n\r\n", 400, "RFC 9112 2.3"),
                new Case("HTTP/2.0 in an HTTP/1 request line", "GET / HTTP/2.0\r\nHost: a\r\n\r\n", 505,
                        "RFC 9110 15.6.6"),
                // --- Host ---
                new Case("Host twice", "GET / HTTP/1.1\r\nHost: a\r\nHost: b\r\n\r\n", 400, "RFC 9112 3.2"),
                new Case("Host missing on HTTP/1.1", "GET / HTTP/1.1\r\nX: a\r\n\r\n", 400, "RFC 9112 3.2"),
                new Case("Host with user info", "GET / HTTP/1.1\r\nHost: user@a\r\n\r\n", 400, "RFC 9110 7.2"),
                new Case("Host with a path", "GET / HTTP/1.1\r\nHost: a/b\r\n\r\n", 400, "RFC 9110 7.2"),
                new Case("Host with inner space", "GET / HTTP/1.1\r\nHost: a b\r\n\r\n", 400, "RFC 9110 7.2"),
                new Case("Absolute-form with user info", "GET http://u@a/ HTTP/1.1\r\nHost: a\r\n\r\n", 400,
                        "RFC 9110 4.2.4"),
                // --- chunked framing ---
                new Case("Chunk size overflow FFFFFFFFFFFFFFFFF", CHUNKED + "FFFFFFFFFFFFFFFFF\r\n", 400,
                        "RFC 9112 7.1 (integer overflow)"),
                new Case("Chunk size FFFFFFFFFFFFFFFF beyond Long.MAX", CHUNKED + "FFFFFFFFFFFFFFFF\r\n", 400,
                        "RFC 9112 7.1"),
                new Case("Chunk size with 0x prefix", CHUNKED + "0x5\r\nhello\r\n0\r\n\r\n", 400, "RFC 9112 7.1"),
                new Case("Negative chunk size", CHUNKED + "-5\r\nhello\r\n0\r\n\r\n", 400, "RFC 9112 7.1"),
                new Case("Empty chunk size", CHUNKED + "\r\nhello\r\n0\r\n\r\n", 400, "RFC 9112 7.1"),
                new Case("Chunk size with trailing space", CHUNKED + "5 \r\nhello\r\n0\r\n\r\n", 400, "RFC 9112 7.1"),
                new Case("Chunk size with leading space", CHUNKED + " 5\r\nhello\r\n0\r\n\r\n", 400, "RFC 9112 7.1"),
                new Case("Missing CRLF after chunk data", CHUNKED + "5\r\nhelloXX0\r\n\r\n", 400, "RFC 9112 7.1"),
                new Case("Bare LF after chunk data", CHUNKED + "5\r\nhello\n0\r\n\r\n", 400, "RFC 9112 2.2"),
                new Case("Bare LF after chunk size", CHUNKED + "5\nhello\r\n0\r\n\r\n", 400, "RFC 9112 2.2"),
                new Case("Chunk data longer than its size", CHUNKED + "3\r\nhello\r\n0\r\n\r\n", 400, "RFC 9112 7.1"),
                new Case("Chunk extension without name", CHUNKED + "5;\r\nhello\r\n0\r\n\r\n", 400, "RFC 9112 7.1.1"),
                new Case("Chunk extension with bare CR", CHUNKED + "5;a\rb\r\nhello\r\n0\r\n\r\n", 400,
                        "RFC 9112 7.1.1"),
                new Case("Chunk extension with unterminated quote", CHUNKED + "5;a=\"b\r\nhello\r\n0\r\n\r\n", 400,
                        "RFC 9110 5.6.4"),
                new Case("Chunk extensions accepted", CHUNKED + "5 ;a=b ; c = \"d e\";f\r\nhello\r\n0;g\r\n\r\n", OK,
                        "RFC 9112 7.1.1"),
                new Case("Trailer with obs-fold", CHUNKED + "0\r\nT: a\r\n b\r\n\r\n", 400, "RFC 9112 5.2"),
                new Case("Trailer with NUL", CHUNKED + "0\r\nT: a\u0000\r\n\r\n", 400, "RFC 9110 5.5"),
                new Case("Trailer ended by bare LF", CHUNKED + "0\r\nT: a\r\n\n", 400, "RFC 9112 2.2"),
                // --- expectations ---
                new Case("Unknown expectation", "GET / HTTP/1.1\r\nHost: a\r\nExpect: 200-ok\r\n\r\n", 417,
                        "RFC 9110 10.1.1"),
                new Case("Expectation on HTTP/1.0 ignored", "GET / HTTP/1.0\r\nExpect: 200-ok\r\n\r\n", OK,
                        "RFC 9110 10.1.1"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("corpus")
    void wholeRequest(Case c) {
        check(c, () -> Exchange.whole(Exchange.bytes(c.raw())));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("corpus")
    void oneByteAtATime(Case c) {
        check(c, () -> Exchange.byteByByte(Exchange.bytes(c.raw())));
    }

    private static void check(Case c, Executable feed) {
        if (c.status() == OK) {
            org.junit.jupiter.api.Assertions.assertDoesNotThrow(feed, c.source());
            return;
        }
        RequestException e = assertThrows(RequestException.class, feed, c.source());
        assertEquals(c.status(), e.status(), () -> c.source() + " gave " + e.rule());
        assertTrue(e.closeConnection(), "closes the connection");
        assertEquals(e.reason(), e.getMessage());
    }
}
