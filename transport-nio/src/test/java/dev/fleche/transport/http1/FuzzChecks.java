package dev.fleche.transport.http1;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import dev.fleche.transport.HttpFields;

/** The invariants the fuzz targets share. */
final class FuzzChecks {

    private FuzzChecks() {
    }

    /** A refusal names its rule, answers that rule's status and reason, and closes the connection. */
    static void namedRefusal(RequestException e) {
        ProtocolRule rule = e.rule();
        assertNotNull(rule, "refusal without a rule: " + e.status() + " " + e.reason());
        assertEquals(rule.status(), e.status(), rule.name());
        assertEquals(rule.reason(), e.reason(), rule.name());
        assertTrue(e.closeConnection(), rule.name() + " keeps the connection");
    }

    /**
     * One call consumed within its range, and either finished what it was parsing or consumed everything: a
     * parser that returns early without finishing would make its caller loop.
     */
    static void progress(int from, int next, int limit, boolean finished) {
        if (next < from || next > limit) {
            fail("returned " + next + " outside [" + from + ", " + limit + "]");
        }
        if (!finished && next != limit) {
            fail("stopped at " + next + " of " + limit + " without finishing");
        }
    }

    /** Same names and values in the same order. */
    static void sameFields(HttpFields expected, HttpFields actual) {
        assertEquals(expected.size(), actual.size(), "field count");
        for (int i = 0; i < expected.size(); i++) {
            assertEquals(expected.name(i), actual.name(i), "field name " + i);
            assertEquals(expected.value(i), actual.value(i), "field value " + i);
        }
    }

    /** The wire size of fields written as {@code name: value CRLF}; their received lines were at least this long less one. */
    static int fieldLineBytes(HttpFields fields) {
        int bytes = 0;
        for (int i = 0; i < fields.size(); i++) {
            bytes += fields.name(i).length() + 1 + fields.value(i).length() + 2;
        }
        return bytes;
    }

    /** Appends {@code name: value CRLF} for each field, in ISO-8859-1 (values may hold obs-text). */
    static void writeFields(StringBuilder out, HttpFields fields) {
        for (int i = 0; i < fields.size(); i++) {
            out.append(fields.name(i)).append(": ").append(fields.value(i)).append("\r\n");
        }
    }
}
