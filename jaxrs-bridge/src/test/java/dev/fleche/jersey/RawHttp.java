package dev.fleche.jersey;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;

/**
 * One HTTP/1.1 exchange over a raw socket ({@code Connection: close}), read to the end of the connection: the status,
 * the header fields, the body as sent (chunked framing decoded) and whether its framing was complete — what a test
 * needs to compare two servers byte for byte, framing included.
 *
 * @param status   the status code
 * @param fields   header fields by lower-case name (values of repeated fields joined by {@code ", "})
 * @param body     the body, de-chunked
 * @param complete whether the body ended as its framing said: {@code Content-Length} bytes, or the last chunk
 */
record RawHttp(int status, Map<String, String> fields, String body, boolean complete) {

    /** {@code GET target} on 127.0.0.1:{@code port}. */
    static RawHttp get(int port, String target) throws IOException {
        try (Socket socket = new Socket("127.0.0.1", port)) {
            socket.setSoTimeout(30_000);
            OutputStream out = socket.getOutputStream();
            out.write(("GET " + target + " HTTP/1.1\r\nHost: 127.0.0.1:" + port + "\r\nConnection: close\r\n\r\n")
                    .getBytes(StandardCharsets.US_ASCII));
            out.flush();
            ByteArrayOutputStream all = new ByteArrayOutputStream();
            try {
                socket.getInputStream().transferTo(all);
            } catch (IOException reset) {
                // an aborted response may end in a reset: what arrived is the answer
            }
            return parse(all.toByteArray());
        }
    }

    /** Whether the response said {@code Transfer-Encoding: chunked}. */
    boolean chunked() {
        return "chunked".equalsIgnoreCase(fields.get("transfer-encoding"));
    }

    /** The {@code Content-Length} field, or -1 when absent. */
    long contentLength() {
        String value = fields.get("content-length");
        return value == null ? -1 : Long.parseLong(value.trim());
    }

    static RawHttp parse(byte[] bytes) {
        String text = new String(bytes, StandardCharsets.ISO_8859_1);
        int headEnd = text.indexOf("\r\n\r\n");
        if (headEnd < 0) {
            throw new AssertionError("no complete response head in: " + text);
        }
        String[] lines = text.substring(0, headEnd).split("\r\n");
        int status = Integer.parseInt(lines[0].split(" ")[1]);
        Map<String, String> fields = new TreeMap<>();
        for (int i = 1; i < lines.length; i++) {
            int colon = lines[i].indexOf(':');
            fields.merge(lines[i].substring(0, colon).trim().toLowerCase(Locale.ROOT),
                    lines[i].substring(colon + 1).trim(), (a, b) -> a + ", " + b);
        }
        String rest = text.substring(headEnd + 4);
        if ("chunked".equalsIgnoreCase(fields.get("transfer-encoding"))) {
            return dechunk(status, fields, rest);
        }
        String length = fields.get("content-length");
        boolean complete = length == null || rest.length() == Long.parseLong(length.trim());
        return new RawHttp(status, fields, utf8(rest), complete);
    }

    private static RawHttp dechunk(int status, Map<String, String> fields, String rest) {
        StringBuilder body = new StringBuilder();
        int at = 0;
        while (true) {
            int lineEnd = rest.indexOf("\r\n", at);
            if (lineEnd < 0) {
                return new RawHttp(status, fields, utf8(body.toString()), false);
            }
            int size = Integer.parseInt(rest.substring(at, lineEnd).split(";")[0].trim(), 16);
            if (size == 0) {
                return new RawHttp(status, fields, utf8(body.toString()), rest.startsWith("\r\n", lineEnd + 2)
                        || rest.indexOf("\r\n\r\n", lineEnd) >= 0);
            }
            int start = lineEnd + 2;
            if (start + size + 2 > rest.length()) {
                body.append(rest, start, Math.min(rest.length(), start + size));
                return new RawHttp(status, fields, utf8(body.toString()), false);
            }
            body.append(rest, start, start + size);
            at = start + size + 2;
        }
    }

    private static String utf8(String latin1) {
        return new String(latin1.getBytes(StandardCharsets.ISO_8859_1), StandardCharsets.UTF_8);
    }
}
