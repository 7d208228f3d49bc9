package dev.fleche.transport.http1;

import static dev.fleche.transport.http1.ProtocolRule.*;
import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.stream.Stream;
import org.junit.jupiter.api.function.ThrowingSupplier;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Named request smuggling and framing cases, each with its source: an RFC section, a PortSwigger Web Security
 * Academy "HTTP request smuggling" technique, or a CVE. Each request is fed whole and one byte at a time. A
 * refused one must give the expected status, name the expected rule and close the connection; an accepted one
 * must parse to the end of its body.
 */
class SmugglingCorpusTest {

    /** The status that stands for "accepted". */
    static final int OK = 200;

    /**
     * One case: {@code raw} spells out its CRLFs; chars up to U+00FF stand for single bytes. {@code rule} is
     * {@code null} for an accepted request.
     */
    record Case(String name, String raw, int status, ProtocolRule rule, String source) {
        @Override
        public String toString() {
            return name;
        }
    }

    private static final String POST = "POST / HTTP/1.1\r\nHost: a\r\n";
    private static final String CHUNKED = POST + "Transfer-Encoding: chunked\r\n\r\n";
    private static final String HELLO = "5\r\nhello\r\n0\r\n\r\n";

    static Stream<Case> corpus() {
        return Stream.of(framing(), contentLength(), lines(), host(), chunked()).flatMap(s -> s);
    }

    private static Stream<Case> framing() {
        return Stream.of(
                new Case("CL.TE", POST + "Content-Length: 6\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\nG",
                        400, CONTENT_LENGTH_WITH_TRANSFER_ENCODING,
                        "PortSwigger: CL.TE vulnerabilities; RFC 9112 6.1; CVE-2019-20445"),
                new Case("TE.CL", POST + "Transfer-Encoding: chunked\r\nContent-Length: 4\r\n\r\n5c\r\nGPOST",
                        400, CONTENT_LENGTH_WITH_TRANSFER_ENCODING, "PortSwigger: TE.CL vulnerabilities; RFC 9112 6.1"),
                new Case("CL.TE with Content-Length 0",
                        POST + "Content-Length: 0\r\nTransfer-Encoding: chunked\r\n\r\n",
                        400, CONTENT_LENGTH_WITH_TRANSFER_ENCODING, "RFC 9112 6.1"),
                new Case("TE.TE: second, bogus Transfer-Encoding field",
                        POST + "Transfer-Encoding: chunked\r\nTransfer-Encoding: x\r\n\r\n",
                        400, TRANSFER_ENCODING_INVALID, "PortSwigger: TE.TE behavior, obfuscating the TE header"),
                new Case("Transfer-Encoding: chunked, chunked", POST + "Transfer-Encoding: chunked, chunked\r\n\r\n",
                        400, TRANSFER_ENCODING_INVALID, "RFC 9112 6.1 (chunked applied at most once)"),
                new Case("Transfer-Encoding: chunked, identity", POST + "Transfer-Encoding: chunked, identity\r\n\r\n",
                        400, TRANSFER_ENCODING_INVALID, "RFC 9112 6.3 item 4 (chunked not final)"),
                new Case("Transfer-Encoding fields chunked then gzip",
                        POST + "Transfer-Encoding: chunked\r\nTransfer-Encoding: gzip\r\n\r\n",
                        400, TRANSFER_ENCODING_INVALID, "RFC 9112 6.3 item 4; RFC 9110 5.3 (fields combine)"),
                new Case("Transfer-Encoding: gzip, chunked", POST + "Transfer-Encoding: gzip, chunked\r\n\r\n",
                        501, TRANSFER_CODING_NOT_IMPLEMENTED, "RFC 9112 6.1"),
                new Case("Transfer-Encoding : chunked (space before colon)",
                        POST + "Transfer-Encoding : chunked\r\n\r\n",
                        400, FIELD_NAME_WHITESPACE, "RFC 9112 5.1; PortSwigger TE.TE obfuscation; CVE-2019-16869"),
                new Case("Transfer-Encoding:\\tchunked (HTAB is OWS)",
                        POST + "Transfer-Encoding:\tchunked\r\n\r\n" + HELLO, OK, null, "RFC 9110 5.6.3"),
                new Case("Transfer-Encoding: Chunked (case-insensitive)",
                        POST + "Transfer-Encoding: Chunked\r\n\r\n" + HELLO, OK, null, "RFC 9112 7"),
                new Case("Transfer-Encoding: , chunked (empty list element)",
                        POST + "Transfer-Encoding: , chunked\r\n\r\n" + HELLO, OK, null, "RFC 9110 5.6.1"),
                new Case("Transfer-Encoding: xchunked", POST + "Transfer-Encoding: xchunked\r\n\r\n",
                        400, TRANSFER_ENCODING_INVALID, "PortSwigger TE.TE obfuscation"),
                new Case("Transfer-Encoding: \"chunked\"", POST + "Transfer-Encoding: \"chunked\"\r\n\r\n",
                        400, TRANSFER_ENCODING_INVALID, "PortSwigger TE.TE obfuscation"),
                new Case("Transfer-Encoding: chunked;x=1", POST + "Transfer-Encoding: chunked;x=1\r\n\r\n",
                        400, TRANSFER_ENCODING_INVALID, "RFC 9112 7 (chunked takes no parameters)"),
                new Case("Transfer-Encoding:\\x0bchunked (vertical tab)",
                        POST + "Transfer-Encoding:\u000bchunked\r\n\r\n",
                        400, FIELD_VALUE_INVALID, "PortSwigger TE.TE obfuscation; RFC 9110 5.5"),
                new Case("Transfer-Encoding with obs-fold", POST + "Transfer-Encoding:\r\n chunked\r\n\r\n",
                        400, OBS_FOLD, "RFC 9112 5.2; PortSwigger TE.TE obfuscation"),
                new Case("Transfer-Encoding on HTTP/1.0",
                        "POST / HTTP/1.0\r\nTransfer-Encoding: chunked\r\n\r\n" + HELLO,
                        400, TRANSFER_ENCODING_IN_HTTP_1_0, "RFC 9112 6.1"),
                new Case("Space inside a field name", POST + "Transfer Encoding: chunked\r\n\r\n",
                        400, FIELD_NAME_INVALID, "RFC 9110 5.1"),
                new Case("Field line without colon", POST + "Transfer-Encoding chunked\r\n\r\n",
                        400, FIELD_NAME_INVALID, "RFC 9112 5; CVE-2019-20444"),
                new Case("Whitespace before the first field", "GET / HTTP/1.1\r\n Host: a\r\n\r\n",
                        400, WHITESPACE_AFTER_START_LINE, "RFC 9112 2.2"),
                new Case("Unknown expectation", "GET / HTTP/1.1\r\nHost: a\r\nExpect: 200-ok\r\n\r\n",
                        417, EXPECTATION_FAILED, "RFC 9110 10.1.1"),
                new Case("Expectation on HTTP/1.0 ignored", "GET / HTTP/1.0\r\nExpect: 200-ok\r\n\r\n",
                        OK, null, "RFC 9110 10.1.1"));
    }

    private static Stream<Case> contentLength() {
        return Stream.of(
                new Case("Differing Content-Length fields", POST + "Content-Length: 3\r\nContent-Length: 4\r\n\r\nabcd",
                        400, CONTENT_LENGTH_CONFLICT, "RFC 9112 6.3 item 5; CVE-2019-20445"),
                new Case("Identical Content-Length fields", POST + "Content-Length: 3\r\nContent-Length: 3\r\n\r\nabc",
                        OK, null, "RFC 9110 8.6"),
                new Case("Content-Length list, identical", POST + "Content-Length: 3, 3\r\n\r\nabc",
                        OK, null, "RFC 9110 8.6"),
                new Case("Content-Length list, differing", POST + "Content-Length: 3, 4\r\n\r\nabcd",
                        400, CONTENT_LENGTH_CONFLICT, "RFC 9110 8.6"),
                new Case("Content-Length with plus sign", POST + "Content-Length: +3\r\n\r\nabc",
                        400, CONTENT_LENGTH_INVALID, "RFC 9110 8.6"),
                new Case("Content-Length negative", POST + "Content-Length: -1\r\n\r\n",
                        400, CONTENT_LENGTH_INVALID, "RFC 9110 8.6"),
                new Case("Content-Length with inner space", POST + "Content-Length: 1 0\r\n\r\n",
                        400, CONTENT_LENGTH_INVALID, "RFC 9110 8.6"),
                new Case("Content-Length in hex", POST + "Content-Length: 0x3\r\n\r\nabc",
                        400, CONTENT_LENGTH_INVALID, "RFC 9110 8.6"),
                new Case("Content-Length empty", POST + "Content-Length: \r\n\r\n",
                        400, CONTENT_LENGTH_INVALID, "RFC 9110 8.6"),
                new Case("Content-Length trailing comma", POST + "Content-Length: 3,\r\n\r\nabc",
                        400, CONTENT_LENGTH_INVALID, "RFC 9110 8.6"),
                new Case("Content-Length overflow", POST + "Content-Length: 9223372036854775808\r\n\r\n",
                        400, CONTENT_LENGTH_INVALID, "RFC 9112 6.3 (integer overflow)"),
                new Case("Content-Length with obs-fold", POST + "Content-Length: 3\r\n 0\r\n\r\nabc",
                        400, OBS_FOLD, "RFC 9112 5.2"));
    }

    private static Stream<Case> lines() {
        return Stream.of(
                new Case("Bare LF line endings", "GET / HTTP/1.1\nHost: a\n\n",
                        400, BARE_LF, "RFC 9112 2.2"),
                new Case("Bare LF ends the head", "GET / HTTP/1.1\r\nHost: a\r\n\n",
                        400, BARE_LF, "RFC 9112 2.2"),
                new Case("Bare CR inside a field value", POST + "X: a\rContent-Length: 3\r\n\r\nabc",
                        400, FIELD_VALUE_INVALID, "RFC 9112 2.2"),
                new Case("NUL in a field value", POST + "X: a\u0000b\r\n\r\n",
                        400, FIELD_VALUE_INVALID, "RFC 9110 5.5"),
                new Case("DEL in a field value", POST + "X: a\u007fb\r\n\r\n",
                        400, FIELD_VALUE_INVALID, "RFC 9110 5.5"),
                new Case("Tab inside the request line", "GET\t/ HTTP/1.1\r\nHost: a\r\n\r\n",
                        400, METHOD_INVALID, "RFC 9112 3"),
                new Case("Double space in the request line", "GET  / HTTP/1.1\r\nHost: a\r\n\r\n",
                        400, REQUEST_LINE_INVALID, "RFC 9112 3"),
                new Case("Non-ASCII byte in the target", "GET /\u00e9 HTTP/1.1\r\nHost: a\r\n\r\n",
                        400, TARGET_INVALID, "RFC 9112 3.2"),
                new Case("Lower-case HTTP name", "GET / http/1.1\r\nHost: a\r\n\r\n",
                        400, VERSION_INVALID, "RFC 9112 2.3"),
                new Case("HTTP/2.0 in an HTTP/1 request line", "GET / HTTP/2.0\r\nHost: a\r\n\r\n",
                        505, VERSION_NOT_SUPPORTED, "RFC 9110 15.6.6"));
    }

    private static Stream<Case> host() {
        return Stream.of(
                new Case("Host twice", "GET / HTTP/1.1\r\nHost: a\r\nHost: b\r\n\r\n",
                        400, HOST_DUPLICATE, "RFC 9112 3.2"),
                new Case("Host missing on HTTP/1.1", "GET / HTTP/1.1\r\nX: a\r\n\r\n",
                        400, HOST_MISSING, "RFC 9112 3.2"),
                new Case("Host with user info", "GET / HTTP/1.1\r\nHost: user@a\r\n\r\n",
                        400, HOST_INVALID, "RFC 9110 7.2"),
                new Case("Host with a path", "GET / HTTP/1.1\r\nHost: a/b\r\n\r\n",
                        400, HOST_INVALID, "RFC 9110 7.2"),
                new Case("Host with inner space", "GET / HTTP/1.1\r\nHost: a b\r\n\r\n",
                        400, HOST_INVALID, "RFC 9110 7.2"),
                new Case("Absolute-form with user info", "GET http://u@a/ HTTP/1.1\r\nHost: a\r\n\r\n",
                        400, ABSOLUTE_FORM_INVALID, "RFC 9110 4.2.4"));
    }

    private static Stream<Case> chunked() {
        return Stream.of(
                new Case("Chunk size overflow FFFFFFFFFFFFFFFFF", CHUNKED + "FFFFFFFFFFFFFFFFF\r\n",
                        400, CHUNK_SIZE_INVALID, "RFC 9112 7.1 (integer overflow)"),
                new Case("Chunk size FFFFFFFFFFFFFFFF beyond Long.MAX", CHUNKED + "FFFFFFFFFFFFFFFF\r\n",
                        400, CHUNK_SIZE_INVALID, "RFC 9112 7.1 (integer overflow)"),
                new Case("Chunk size with 0x prefix", CHUNKED + "0x5\r\nhello\r\n0\r\n\r\n",
                        400, CHUNK_SIZE_INVALID, "RFC 9112 7.1"),
                new Case("Negative chunk size", CHUNKED + "-5\r\nhello\r\n0\r\n\r\n",
                        400, CHUNK_SIZE_INVALID, "RFC 9112 7.1"),
                new Case("Empty chunk size", CHUNKED + "\r\nhello\r\n0\r\n\r\n",
                        400, CHUNK_SIZE_INVALID, "RFC 9112 7.1"),
                new Case("Chunk size with leading space", CHUNKED + " 5\r\nhello\r\n0\r\n\r\n",
                        400, CHUNK_SIZE_INVALID, "RFC 9112 7.1"),
                new Case("Chunk size with trailing space", CHUNKED + "5 \r\nhello\r\n0\r\n\r\n",
                        400, CHUNK_EXTENSION_INVALID, "RFC 9112 7.1.1 (BWS only before ';')"),
                new Case("Missing CRLF after chunk data", CHUNKED + "5\r\nhelloXX0\r\n\r\n",
                        400, CHUNK_DATA_UNTERMINATED, "RFC 9112 7.1"),
                new Case("Chunk data longer than its size", CHUNKED + "3\r\nhello\r\n0\r\n\r\n",
                        400, CHUNK_DATA_UNTERMINATED, "RFC 9112 7.1"),
                new Case("Bare LF after chunk data", CHUNKED + "5\r\nhello\n0\r\n\r\n",
                        400, BARE_LF, "RFC 9112 2.2"),
                new Case("Bare LF after chunk size", CHUNKED + "5\nhello\r\n0\r\n\r\n",
                        400, BARE_LF, "RFC 9112 2.2"),
                new Case("Chunk extension without name", CHUNKED + "5;\r\nhello\r\n0\r\n\r\n",
                        400, CHUNK_EXTENSION_INVALID, "RFC 9112 7.1.1"),
                new Case("Chunk extension with bare CR", CHUNKED + "5;a\rb\r\nhello\r\n0\r\n\r\n",
                        400, CHUNK_EXTENSION_INVALID, "RFC 9112 7.1.1"),
                new Case("Chunk extension with unterminated quote", CHUNKED + "5;a=\"b\r\nhello\r\n0\r\n\r\n",
                        400, CHUNK_EXTENSION_INVALID, "RFC 9110 5.6.4"),
                new Case("Chunk extensions accepted", CHUNKED + "5 ;a=b ; c = \"d e\";f\r\nhello\r\n0;g\r\n\r\n",
                        OK, null, "RFC 9112 7.1.1"),
                new Case("Trailer with obs-fold", CHUNKED + "0\r\nT: a\r\n b\r\n\r\n",
                        400, OBS_FOLD, "RFC 9112 5.2"),
                new Case("Trailer with NUL", CHUNKED + "0\r\nT: a\u0000\r\n\r\n",
                        400, FIELD_VALUE_INVALID, "RFC 9110 5.5"),
                new Case("Trailer ended by bare LF", CHUNKED + "0\r\nT: a\r\n\n",
                        400, BARE_LF, "RFC 9112 2.2"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("corpus")
    void wholeRequest(Case c) {
        check(c, () -> MessageDriver.whole(MessageDriver.bytes(c.raw())));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("corpus")
    void oneByteAtATime(Case c) {
        check(c, () -> MessageDriver.byteByByte(MessageDriver.bytes(c.raw())));
    }

    private static void check(Case c, ThrowingSupplier<String> feed) {
        if (c.status() == OK) {
            String parsed = assertDoesNotThrow(feed, c.source());
            assertTrue(parsed.contains("\nbody="), "head and body complete:\n" + parsed);
            return;
        }
        assertEquals(c.rule().status(), c.status(), "the case states its rule's status");
        RequestException e = assertThrows(RequestException.class, feed::get, c.source());
        assertEquals(c.status(), e.status(), () -> c.source() + " gave " + e.rule());
        assertEquals(c.rule(), e.rule(), c.source());
        assertTrue(e.closeConnection(), "closes the connection");
        assertEquals(e.reason(), e.getMessage());
    }
}
