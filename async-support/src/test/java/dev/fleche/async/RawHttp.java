package dev.fleche.async;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;

/**
 * A raw-socket HTTP/1.1 client: exact bytes out, responses read one at a time (so that a second response to one
 * request would be seen as the answer to the next), chunked bodies read incrementally (SSE), and FIN or RST on
 * close.
 */
final class RawHttp implements AutoCloseable {
    /** A response: status, header fields (lower-case names), body. */
    record Response(int status, Map<String, String> headers, String body) {
        String header(String name) {
            return headers.get(name.toLowerCase(Locale.ROOT));
        }
    }

    private final Socket socket;
    private final InputStream in;
    private final OutputStream out;
    /** Bytes left in the current chunk of a chunked body being read incrementally; -1 at its end. */
    private int chunkLeft;

    RawHttp(int port) throws IOException {
        socket = new Socket("127.0.0.1", port);
        socket.setSoTimeout(10_000);
        socket.setTcpNoDelay(true);
        in = socket.getInputStream();
        out = socket.getOutputStream();
    }

    /** Sends {@code text} as ISO-8859-1 (CRLF line ends expected). */
    RawHttp send(String text) throws IOException {
        out.write(text.getBytes(StandardCharsets.ISO_8859_1));
        out.flush();
        return this;
    }

    /** Sends {@code GET path} with keep-alive. */
    RawHttp get(String path) throws IOException {
        return send("GET " + path + " HTTP/1.1\r\nHost: test\r\n\r\n");
    }

    /** Reads a status line and header fields. */
    Response readHead() throws IOException {
        String statusLine = readLine();
        Map<String, String> headers = new LinkedHashMap<>();
        for (String line = readLine(); !line.isEmpty(); line = readLine()) {
            int colon = line.indexOf(':');
            headers.put(line.substring(0, colon).trim().toLowerCase(Locale.ROOT), line.substring(colon + 1).trim());
        }
        return new Response(Integer.parseInt(statusLine.split(" ")[1]), headers, "");
    }

    /** Reads one whole response. */
    Response read() throws IOException {
        Response head = readHead();
        if (head.status() == 204 || head.status() == 304 || head.status() < 200) {
            return head;
        }
        byte[] body;
        String length = head.header("content-length");
        if (length != null) {
            body = in.readNBytes(Integer.parseInt(length));
        } else if ("chunked".equalsIgnoreCase(head.header("transfer-encoding"))) {
            ByteArrayOutputStream all = new ByteArrayOutputStream();
            for (byte[] chunk = readChunk(); chunk != null; chunk = readChunk()) {
                all.write(chunk);
            }
            body = all.toByteArray();
        } else {
            body = in.readAllBytes();
        }
        return new Response(head.status(), head.headers(), new String(body, StandardCharsets.UTF_8));
    }

    /** Reads the next chunk of a chunked body; null at the last chunk (trailers consumed). */
    byte[] readChunk() throws IOException {
        int size = Integer.parseInt(readLine().trim(), 16);
        if (size == 0) {
            while (!readLine().isEmpty()) {
                // trailer fields
            }
            return null;
        }
        byte[] chunk = in.readNBytes(size);
        readLine();
        return chunk;
    }

    /**
     * Reads the next line of a chunked body (without its LF or CRLF), across chunk boundaries; null at the end of
     * the body. For SSE streams.
     */
    String readBodyLine() throws IOException {
        ByteArrayOutputStream line = new ByteArrayOutputStream();
        while (true) {
            if (chunkLeft == 0) {
                int size = Integer.parseInt(readLine().trim(), 16);
                if (size == 0) {
                    readLine();
                    chunkLeft = -1;
                }
                chunkLeft = size == 0 ? -1 : size;
            }
            if (chunkLeft < 0) {
                return line.size() == 0 ? null : line.toString(StandardCharsets.UTF_8);
            }
            int b = in.read();
            if (b < 0) {
                throw new IOException("connection closed inside a chunk");
            }
            if (--chunkLeft == 0) {
                readLine(); // the CRLF after the chunk data
            }
            if (b == '\n') {
                String text = line.toString(StandardCharsets.UTF_8);
                return text.endsWith("\r") ? text.substring(0, text.length() - 1) : text;
            }
            line.write(b);
        }
    }

    private String readLine() throws IOException {
        StringBuilder line = new StringBuilder();
        int b;
        while ((b = in.read()) != '\n') {
            if (b < 0) {
                throw new IOException("connection closed after \"" + line + "\"");
            }
            if (b != '\r') {
                line.append((char) b);
            }
        }
        return line.toString();
    }

    /** Sets the socket read timeout. */
    void setReadTimeout(int millis) throws IOException {
        socket.setSoTimeout(millis);
    }

    /** Whether nothing arrives before the read timeout (a bounded negative check). */
    boolean readsNothing() throws IOException {
        try {
            in.read();
            return false;
        } catch (java.net.SocketTimeoutException expected) {
            return true;
        }
    }

    /** Bytes readable without blocking. */
    int available() throws IOException {
        return in.available();
    }

    /** Closes with a reset (RST) instead of an orderly close (FIN). */
    void reset() throws IOException {
        socket.setSoLinger(true, 0);
        socket.close();
    }

    @Override
    public void close() throws IOException {
        socket.close();
    }
}
