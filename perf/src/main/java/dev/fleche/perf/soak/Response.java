package dev.fleche.perf.soak;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;

/**
 * One HTTP/1.1 response read strictly from a blocking stream: status line, fields (names lower-cased, repeated
 * names joined with a comma), and the body framed by {@code Transfer-Encoding: chunked}, {@code Content-Length} or
 * the end of the stream. Every line and body is bounded; anything malformed is an {@link IOException} naming what.
 */
record Response(int status, Map<String, String> fields, byte[] body) {
    static final int MAX_LINE = 8192;
    static final int MAX_FIELDS = 100;
    static final int MAX_BODY = 16 << 20;

    String field(String name) {
        return fields.get(name.toLowerCase(Locale.ROOT));
    }

    String text() {
        return new String(body, StandardCharsets.UTF_8);
    }

    /** Reads one response; {@code head} for the answer to a HEAD request (no body). */
    static Response read(InputStream in, boolean head) throws IOException {
        Map<String, String> fields = new TreeMap<>();
        int status = head(in, fields);
        if (head || status == 204 || status == 304 || status / 100 == 1) {
            return new Response(status, fields, new byte[0]);
        }
        return new Response(status, fields, body(in, fields));
    }

    /** Reads the status line and fields up to the empty line; returns the status. */
    static int head(InputStream in, Map<String, String> fields) throws IOException {
        String statusLine = line(in, true);
        if (statusLine.length() < 12 || !statusLine.startsWith("HTTP/1.1 ")
                || (statusLine.length() > 12 && statusLine.charAt(12) != ' ')) {
            throw new IOException("malformed status line: " + statusLine);
        }
        int status;
        try {
            status = Integer.parseInt(statusLine.substring(9, 12));
        } catch (NumberFormatException e) {
            throw new IOException("malformed status: " + statusLine);
        }
        for (String line; !(line = line(in, false)).isEmpty(); ) {
            int colon = line.indexOf(':');
            if (colon <= 0 || fields.size() >= MAX_FIELDS) {
                throw new IOException("malformed field line: " + line);
            }
            String name = line.substring(0, colon).toLowerCase(Locale.ROOT);
            String value = line.substring(colon + 1).strip();
            fields.merge(name, value, (a, b) -> a + ", " + b);
        }
        return status;
    }

    private static byte[] body(InputStream in, Map<String, String> fields) throws IOException {
        String te = fields.get("transfer-encoding");
        String cl = fields.get("content-length");
        if (te != null && cl != null) {
            throw new IOException("both Content-Length and Transfer-Encoding");
        }
        if (te != null) {
            if (!te.equalsIgnoreCase("chunked")) {
                throw new IOException("unexpected Transfer-Encoding: " + te);
            }
            return chunked(in);
        }
        if (cl != null) {
            long length;
            try {
                length = Long.parseLong(cl);
            } catch (NumberFormatException e) {
                throw new IOException("malformed Content-Length: " + cl);
            }
            if (length < 0 || length > MAX_BODY) {
                throw new IOException("Content-Length out of bounds: " + cl);
            }
            return exactly(in, (int) length);
        }
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        byte[] buf = new byte[8192];
        for (int n; (n = in.read(buf)) >= 0; ) {
            out.write(buf, 0, n);
            if (out.size() > MAX_BODY) {
                throw new IOException("close-delimited body too large");
            }
        }
        return out.toByteArray();
    }

    private static byte[] chunked(InputStream in) throws IOException {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        while (true) {
            String sizeLine = line(in, true);
            int semicolon = sizeLine.indexOf(';');
            int size;
            try {
                size = Integer.parseInt(semicolon < 0 ? sizeLine : sizeLine.substring(0, semicolon), 16);
            } catch (NumberFormatException e) {
                throw new IOException("malformed chunk size: " + sizeLine);
            }
            if (size < 0 || out.size() + (long) size > MAX_BODY) {
                throw new IOException("chunked body too large");
            }
            if (size == 0) {
                while (!line(in, false).isEmpty()) {
                    // trailers are not checked
                }
                return out.toByteArray();
            }
            out.write(exactly(in, size));
            if (!line(in, true).isEmpty()) {
                throw new IOException("chunk data not followed by CRLF");
            }
        }
    }

    static byte[] exactly(InputStream in, int length) throws IOException {
        byte[] bytes = in.readNBytes(length);
        if (bytes.length != length) {
            throw new IOException("stream ended after " + bytes.length + " of " + length + " body bytes");
        }
        return bytes;
    }

    /** One CRLF-terminated line without its CRLF; {@code first}: a line that starts a response or chunk. */
    static String line(InputStream in, boolean first) throws IOException {
        StringBuilder line = new StringBuilder();
        while (true) {
            int b = in.read();
            if (b < 0) {
                throw new IOException(line.isEmpty() && first ? "connection closed before a response"
                        : "stream ended inside a line");
            }
            if (b == '\r') {
                if (in.read() != '\n') {
                    throw new IOException("CR not followed by LF");
                }
                return line.toString();
            }
            if (b == '\n') {
                throw new IOException("bare LF");
            }
            if (line.length() >= MAX_LINE) {
                throw new IOException("line too long");
            }
            line.append((char) b);
        }
    }
}
