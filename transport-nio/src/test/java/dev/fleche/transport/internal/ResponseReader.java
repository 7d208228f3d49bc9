package dev.fleche.transport.internal;

import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;

/**
 * A small, strict parser of what a connection wrote: status line {@code HTTP/1.1 NNN reason}, fields
 * {@code Name: value} each ending in CRLF, a {@code Date}, then the body as the framing says (none for a {@code 1xx},
 * {@code 204}, {@code 304} or an answer to {@code HEAD}; {@code Content-Length}; chunked with hex sizes, CRLFs and an
 * empty trailer section; else up to the end). Anything else fails with an {@link AssertionError} naming the offset.
 * The end of the bytes in the middle of a response is reported as {@link #truncated()}, not as a failure: whether
 * that is allowed depends on how the connection closed.
 */
final class ResponseReader {
    /** One parsed response. */
    record Response(int status, String statusLine, Map<String, String> fields, byte[] body, boolean untilEnd) {
        String field(String name) {
            return fields.get(name.toLowerCase(Locale.ROOT));
        }

        boolean closes() {
            String connection = field("connection");
            return untilEnd || (connection != null && connection.equalsIgnoreCase("close"));
        }

        String bodyText() {
            return new String(body, StandardCharsets.ISO_8859_1);
        }
    }

    private static final class Truncated extends Exception {
        Truncated() {
            super(null, null, false, false);
        }
    }

    private final byte[] bytes;
    private int at;
    private boolean truncated;

    ResponseReader(byte[] bytes) {
        this.bytes = bytes;
    }

    boolean atEnd() {
        return at == bytes.length;
    }

    /** Whether the bytes ended in the middle of the last response asked for. */
    boolean truncated() {
        return truncated;
    }

    /**
     * The next response; {@code toHead} says whether it answers {@code HEAD} when it is a final one (the caller
     * knows which request it answers only from its fields: {@code headFor} is asked with them). Null when the bytes
     * ended in the middle of it ({@link #truncated()} is then true).
     */
    Response next(java.util.function.Predicate<Map<String, String>> headFor) {
        int start = at;
        try {
            return parse(headFor);
        } catch (Truncated e) {
            truncated = true;
            at = start;
            return null;
        }
    }

    private Response parse(java.util.function.Predicate<Map<String, String>> headFor) throws Truncated {
        String statusLine = line();
        if (!statusLine.matches("HTTP/1\\.1 [1-9][0-9][0-9] [\\x20-\\x7E]*")) {
            throw fail("bad status line: " + statusLine);
        }
        int status = Integer.parseInt(statusLine.substring(9, 12));
        Map<String, String> fields = new LinkedHashMap<>();
        for (String field = line(); !field.isEmpty(); field = line()) {
            int colon = field.indexOf(": ");
            if (colon <= 0 || !field.substring(0, colon).matches("[!#$%&'*+.^_`|~0-9A-Za-z-]+")
                    || !field.substring(colon + 2).matches("[\\x20-\\x7E]*")) {
                throw fail("bad field line: " + field);
            }
            String name = field.substring(0, colon).toLowerCase(Locale.ROOT);
            if (fields.put(name, field.substring(colon + 2)) != null) {
                throw fail("field twice: " + name);
            }
        }
        if (status < 200) {
            if (!statusLine.equals("HTTP/1.1 100 Continue") || !fields.isEmpty()) {
                throw fail("unexpected interim response: " + statusLine + " " + fields);
            }
            return new Response(status, statusLine, fields, new byte[0], false);
        }
        if (!fields.containsKey("date")) {
            throw fail("no Date: " + statusLine);
        }
        String length = fields.get("content-length");
        String coding = fields.get("transfer-encoding");
        if (length != null && coding != null) {
            throw fail("both Content-Length and Transfer-Encoding");
        }
        if (status == 204 || status == 304 || headFor.test(fields)) {
            return new Response(status, statusLine, fields, new byte[0], false);
        }
        if (coding != null) {
            if (!coding.equals("chunked")) {
                throw fail("transfer coding " + coding);
            }
            return new Response(status, statusLine, fields, chunked(), false);
        }
        if (length != null) {
            if (!length.matches("0|[1-9][0-9]{0,9}")) {
                throw fail("bad Content-Length " + length);
            }
            return new Response(status, statusLine, fields, take(Integer.parseInt(length)), false);
        }
        return new Response(status, statusLine, fields, take(bytes.length - at), true);
    }

    private byte[] chunked() throws Truncated {
        java.io.ByteArrayOutputStream body = new java.io.ByteArrayOutputStream();
        while (true) {
            String size = line();
            if (!size.matches("[0-9a-f]{1,7}") || (size.length() > 1 && size.charAt(0) == '0')) {
                throw fail("bad chunk size line: " + size);
            }
            int n = Integer.parseInt(size, 16);
            if (n == 0) {
                if (!line().isEmpty()) {
                    throw fail("trailer fields in a response");
                }
                return body.toByteArray();
            }
            body.writeBytes(take(n));
            if (!line().isEmpty()) {
                throw fail("chunk data longer than its size");
            }
        }
    }

    private byte[] take(int n) throws Truncated {
        if (bytes.length - at < n) {
            throw new Truncated();
        }
        byte[] taken = java.util.Arrays.copyOfRange(bytes, at, at + n);
        at += n;
        return taken;
    }

    /** A line ending in CRLF (a bare CR or LF fails), without it. */
    private String line() throws Truncated {
        int start = at;
        for (int i = at; i < bytes.length; i++) {
            if (bytes[i] == '\n') {
                throw fail("bare LF");
            }
            if (bytes[i] == '\r') {
                if (i + 1 == bytes.length) {
                    throw new Truncated();
                }
                if (bytes[i + 1] != '\n') {
                    throw fail("bare CR");
                }
                at = i + 2;
                return new String(bytes, start, i - start, StandardCharsets.ISO_8859_1);
            }
        }
        throw new Truncated();
    }

    private AssertionError fail(String what) {
        return new AssertionError(what + " at byte " + at + " of:\n" + new String(bytes, StandardCharsets.ISO_8859_1));
    }
}
