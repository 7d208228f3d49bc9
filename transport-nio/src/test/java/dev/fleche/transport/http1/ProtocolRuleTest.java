package dev.fleche.transport.http1;

import static dev.fleche.transport.http1.ProtocolRule.*;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.EnumMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Each {@link ProtocolRule} is reachable: a request that breaks exactly that rule is refused with the rule's
 * status and reason. Also checks the rules' own data, and that every documented error status is produced.
 */
class ProtocolRuleTest {

    private static final String GET = "GET / HTTP/1.1\r\nHost: a\r\n";
    private static final String CHUNKED = "POST / HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked\r\n\r\n";
    private static final Map<ProtocolRule, String> TRIGGERS = new EnumMap<>(ProtocolRule.class);

    static {
        TRIGGERS.put(LEADING_EMPTY_LINES, "\r\n".repeat(9) + GET + "\r\n");
        TRIGGERS.put(BARE_LF, "GET / HTTP/1.1\nHost: a\n\n");
        TRIGGERS.put(REQUEST_LINE_TOO_LONG, "GET /" + "a".repeat(MessageDriver.LINE) + " HTTP/1.1\r\n");
        TRIGGERS.put(REQUEST_LINE_INVALID, "GET /\r\n");
        TRIGGERS.put(METHOD_INVALID, "G(T / HTTP/1.1\r\n");
        TRIGGERS.put(TARGET_INVALID, "GET a/b HTTP/1.1\r\n");
        TRIGGERS.put(ABSOLUTE_FORM_INVALID, "GET ftp://a/ HTTP/1.1\r\n");
        TRIGGERS.put(AUTHORITY_FORM_INVALID, "CONNECT /a HTTP/1.1\r\n");
        TRIGGERS.put(ORIGIN_FORM_INVALID, "GET /a#b HTTP/1.1\r\n");
        TRIGGERS.put(AUTHORITY_FORM_MISUSED, "GET a:80 HTTP/1.1\r\n");
        TRIGGERS.put(ASTERISK_FORM_MISUSED, "GET * HTTP/1.1\r\n");
        TRIGGERS.put(VERSION_INVALID, "GET / HTTP/1.1.1\r\n");
        TRIGGERS.put(VERSION_NOT_SUPPORTED, "GET / HTTP/3.0\r\n");
        TRIGGERS.put(WHITESPACE_AFTER_START_LINE, "GET / HTTP/1.1\r\n\tHost: a\r\n\r\n");
        TRIGGERS.put(OBS_FOLD, GET + "X: a\r\n\tb\r\n\r\n");
        TRIGGERS.put(FIELD_NAME_WHITESPACE, GET + "X\t: a\r\n\r\n");
        TRIGGERS.put(FIELD_NAME_INVALID, GET + ": a\r\n\r\n");
        TRIGGERS.put(FIELD_VALUE_INVALID, GET + "X: a\u0001\r\n\r\n");
        TRIGGERS.put(HEADER_SECTION_TOO_LARGE, GET + "X: " + "a".repeat(MessageDriver.SECTION) + "\r\n\r\n");
        TRIGGERS.put(TOO_MANY_HEADERS, GET + "X: a\r\n".repeat(MessageDriver.COUNT) + "\r\n");
        TRIGGERS.put(HOST_MISSING, "GET / HTTP/1.1\r\n\r\n");
        TRIGGERS.put(HOST_DUPLICATE, GET + "host: a\r\n\r\n");
        TRIGGERS.put(HOST_INVALID, "GET / HTTP/1.1\r\nHost: a:b\r\n\r\n");
        TRIGGERS.put(CONTENT_LENGTH_INVALID, GET + "Content-Length: 1.0\r\n\r\n");
        TRIGGERS.put(CONTENT_LENGTH_CONFLICT, GET + "Content-Length: 1\r\nContent-Length: 01, 2\r\n\r\n");
        TRIGGERS.put(CONTENT_LENGTH_WITH_TRANSFER_ENCODING,
                GET + "Transfer-Encoding: chunked\r\nContent-Length: 1\r\n\r\n");
        TRIGGERS.put(TRANSFER_ENCODING_INVALID, GET + "Transfer-Encoding: gzip\r\n\r\n");
        TRIGGERS.put(TRANSFER_ENCODING_IN_HTTP_1_0, "GET / HTTP/1.0\r\nTransfer-Encoding: chunked\r\n\r\n");
        TRIGGERS.put(TRANSFER_CODING_NOT_IMPLEMENTED,
                GET + "Transfer-Encoding: br\r\nTransfer-Encoding: chunked\r\n\r\n");
        TRIGGERS.put(EXPECTATION_FAILED, GET + "Expect: 100-continue, x\r\n\r\n");
        TRIGGERS.put(CHUNK_SIZE_INVALID, CHUNKED + "g\r\n");
        TRIGGERS.put(CHUNK_EXTENSION_INVALID, CHUNKED + "1;a=\r\n");
        TRIGGERS.put(CHUNK_LINE_TOO_LONG, CHUNKED + "1;a=" + "b".repeat(MessageDriver.LINE) + "\r\n");
        TRIGGERS.put(CHUNK_DATA_UNTERMINATED, CHUNKED + "1\r\nab\r\n");
        TRIGGERS.put(TRAILER_SECTION_TOO_LARGE, CHUNKED + "0\r\nT: " + "a".repeat(MessageDriver.SECTION) + "\r\n\r\n");
        TRIGGERS.put(TOO_MANY_TRAILERS, CHUNKED + "0\r\n" + "T: a\r\n".repeat(MessageDriver.COUNT + 1) + "\r\n");
    }

    @ParameterizedTest
    @EnumSource(ProtocolRule.class)
    void eachRuleIsTriggeredByItsExample(ProtocolRule rule) {
        String raw = TRIGGERS.get(rule);
        assertNotNull(raw, "no example request for " + rule);
        RequestException e = assertThrows(RequestException.class, () -> MessageDriver.whole(MessageDriver.bytes(raw)));
        assertEquals(rule, e.rule());
        assertEquals(rule.status(), e.status());
        assertEquals(rule.reason(), e.reason());
        assertTrue(e.closeConnection());
        assertEquals(0, e.getStackTrace().length, "no stack trace on hostile input");
    }

    @Test
    void everyDocumentedErrorStatusIsProduced() {
        Set<Integer> statuses = new TreeSet<>();
        for (ProtocolRule rule : ProtocolRule.values()) {
            statuses.add(rule.status());
        }
        assertEquals(Set.of(400, 414, 417, 431, 501, 505), statuses);
    }

    @ParameterizedTest
    @EnumSource(ProtocolRule.class)
    void ruleDataIsSafeToSend(ProtocolRule rule) {
        assertTrue(rule.section().matches("RFC \\d{4} \\d+(\\.\\d+)*"), rule.section());
        assertTrue(rule.status() >= 400 && rule.status() < 600);
        assertTrue(rule.reason().length() <= 40, rule.reason());
        assertTrue(rule.reason().chars().allMatch(c -> c >= 0x20 && c < 0x7F), rule.reason());
    }

    @Test
    void reasonsAreDistinct() {
        Set<String> reasons = new HashSet<>();
        for (ProtocolRule rule : ProtocolRule.values()) {
            assertTrue(reasons.add(rule.reason()), rule.reason());
        }
    }
}
