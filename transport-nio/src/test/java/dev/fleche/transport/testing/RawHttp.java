package dev.fleche.transport.testing;

import java.io.BufferedInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;

/**
 * A raw-socket HTTP/1.1 client for tests whose exact bytes matter: text goes out as ISO-8859-1 exactly as written
 * (CRLF line ends expected), and responses are read one at a time, so that a second response to one request would
 * be seen as the answer to the next. Chunked bodies can be read whole, chunk by chunk, or line by line (SSE); the
 * connection can end with FIN or RST. Every read has a timeout, so a missing byte fails a test instead of hanging
 * it.
 *
 * <p>Shared by the modules' tests through transport-nio's test-jar.
 */
public class RawHttp implements AutoCloseable {
    /** The read timeout of {@link #RawHttp(int)}. */
    public static final int DEFAULT_TIMEOUT_MILLIS = 10_000;

    /** A response: status line, header fields (lower-case names, last one wins), body (UTF-8, de-chunked). */
    public record Response(String statusLine, Map<String, String> headers, String body) {
        /** The status code from the status line. */
        public int status() {
            return Integer.parseInt(statusLine.split(" ")[1]);
        }

        /** The value of field {@code name} (any case), or null. */
        public String header(String name) {
            return headers.get(name.toLowerCase(Locale.ROOT));
        }
    }

    private final Socket socket;
    private final InputStream in;
    private final OutputStream out;
    /** Bytes left in the current chunk of a chunked body read by {@link #readBodyLine}; -1 at its end. */
    private int chunkLeft;

    /** Connects to {@code port} on the loopback interface with a 10 s timeout for connecting and reading. */
    public RawHttp(int port) throws IOException {
        this(port, DEFAULT_TIMEOUT_MILLIS);
    }

    /** Connects to {@code port} on the loopback interface with {@code timeoutMillis} for connecting and reading. */
    protected RawHttp(int port, int timeoutMillis) throws IOException {
        socket = new Socket();
        socket.connect(new InetSocketAddress("127.0.0.1", port), timeoutMillis);
        socket.setSoTimeout(timeoutMillis);
        socket.setTcpNoDelay(true);
        in = new BufferedInputStream(socket.getInputStream());
        out = socket.getOutputStream();
    }

    /** The bytes from the server, for subclasses that read their own way. */
    protected final InputStream input() {
        return in;
    }

    // ---------------------------------------------------------------- writing

    /** Sends {@code text} as ISO-8859-1, one char one byte. */
    public RawHttp send(String text) throws IOException {
        return send(text.getBytes(StandardCharsets.ISO_8859_1));
    }

    /** Sends {@code bytes} as they are. */
    public RawHttp send(byte[] bytes) throws IOException {
        out.write(bytes);
        out.flush();
        return this;
    }

    /** Sends {@code GET path} with keep-alive. */
    public RawHttp get(String path) throws IOException {
        return send("GET " + path + " HTTP/1.1\r\nHost: test\r\n\r\n");
    }

    // ---------------------------------------------------------------- reading parsed responses

    /** Reads a status line and header fields; for a {@code 1xx} response that is all there is. */
    public Response readHead() throws IOException {
        String statusLine = readLine();
        Map<String, String> headers = new LinkedHashMap<>();
        for (String line = readLine(); !line.isEmpty(); line = readLine()) {
            int colon = line.indexOf(':');
            headers.put(line.substring(0, colon).trim().toLowerCase(Locale.ROOT), line.substring(colon + 1).trim());
        }
        return new Response(statusLine, headers, "");
    }

    /** Reads one whole response. */
    public Response read() throws IOException {
        return read(false);
    }

    /** Reads one whole response; {@code head} says whether it answers a HEAD request (no body follows). */
    public Response read(boolean head) throws IOException {
        Response response = readHead();
        int status = response.status();
        if (head || status < 200 || status == 204 || status == 304) {
            return response;
        }
        byte[] body;
        String length = response.header("content-length");
        if (length != null) {
            body = in.readNBytes(Integer.parseInt(length));
        } else if ("chunked".equalsIgnoreCase(response.header("transfer-encoding"))) {
            ByteArrayOutputStream all = new ByteArrayOutputStream();
            for (byte[] chunk = readChunk(); chunk != null; chunk = readChunk()) {
                all.write(chunk);
            }
            body = all.toByteArray();
        } else {
            body = in.readAllBytes();
        }
        return new Response(response.statusLine(), response.headers(), new String(body, StandardCharsets.UTF_8));
    }

    /** Reads the next chunk of a chunked body; null at the last chunk (trailer fields consumed). */
    public byte[] readChunk() throws IOException {
        int size = Integer.parseInt(readLine().trim(), 16);
        if (size == 0) {
            skipTrailers();
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
    public String readBodyLine() throws IOException {
        ByteArrayOutputStream line = new ByteArrayOutputStream();
        while (true) {
            if (chunkLeft == 0) {
                int size = Integer.parseInt(readLine().trim(), 16);
                if (size == 0) {
                    skipTrailers();
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

    private void skipTrailers() throws IOException {
        while (!readLine().isEmpty()) {
            // trailer fields
        }
    }

    /** One line without its CR and LF. */
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

    // ---------------------------------------------------------------- the connection

    /** Sets the socket read timeout. */
    public void setReadTimeout(int millis) throws IOException {
        socket.setSoTimeout(millis);
    }

    /**
     * Whether the server closed the connection: the next read ends the stream (FIN) or fails with a reset. False
     * when a byte arrives, and false when nothing arrives before the read timeout (an open, silent connection is
     * not a closed one).
     */
    public boolean closedByServer() throws IOException {
        try {
            return in.read() < 0;
        } catch (SocketTimeoutException stillOpen) {
            return false;
        } catch (IOException reset) {
            return true;
        }
    }

    /** Whether nothing arrives before the read timeout (a bounded negative check). */
    public boolean readsNothing() throws IOException {
        try {
            in.read();
            return false;
        } catch (SocketTimeoutException expected) {
            return true;
        }
    }

    /** Bytes received and not read yet. */
    public int available() throws IOException {
        return in.available();
    }

    /** Ends the client's direction with a FIN (a half-close): the server's bytes can still be read. */
    public void shutdownOutput() throws IOException {
        socket.shutdownOutput();
    }

    /** Closes with a reset (RST) instead of an orderly close (FIN): SO_LINGER 0, then close. */
    public void reset() throws IOException {
        socket.setSoLinger(true, 0);
        socket.close();
    }

    @Override
    public void close() throws IOException {
        socket.close();
    }
}
