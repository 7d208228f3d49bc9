package dev.fleche.jersey;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;

/** A raw-socket HTTP/1.1 client for exchanges whose exact bytes matter (Host, 100-continue, HEAD). */
final class RawHttp implements AutoCloseable {
    /** A response: status line, header fields (lower-case names), body. */
    record Response(String statusLine, Map<String, String> headers, String body) {
        int status() {
            return Integer.parseInt(statusLine.split(" ")[1]);
        }

        String header(String name) {
            return headers.get(name.toLowerCase(Locale.ROOT));
        }
    }

    private final Socket socket;
    private final InputStream in;
    private final OutputStream out;

    RawHttp(int port) throws IOException {
        socket = new Socket("127.0.0.1", port);
        socket.setSoTimeout(10_000);
        in = socket.getInputStream();
        out = socket.getOutputStream();
    }

    /** Sends {@code text} (CRLF line ends expected) as ISO-8859-1 bytes. */
    void send(String text) throws IOException {
        out.write(text.getBytes(StandardCharsets.ISO_8859_1));
        out.flush();
    }

    /** Reads one response head; for {@code 1xx} there is no body. */
    Response readHead() throws IOException {
        String statusLine = readLine();
        Map<String, String> headers = new LinkedHashMap<>();
        for (String line = readLine(); !line.isEmpty(); line = readLine()) {
            int colon = line.indexOf(':');
            headers.put(line.substring(0, colon).trim().toLowerCase(Locale.ROOT), line.substring(colon + 1).trim());
        }
        return new Response(statusLine, headers, "");
    }

    /** Reads one complete response; {@code head} says whether it answers a HEAD request (no body). */
    Response read(boolean head) throws IOException {
        Response response = readHead();
        if (head || response.status() < 200 || response.status() == 204 || response.status() == 304) {
            return response;
        }
        String length = response.header("content-length");
        byte[] body;
        if (length != null) {
            body = in.readNBytes(Integer.parseInt(length));
        } else if ("chunked".equalsIgnoreCase(response.header("transfer-encoding"))) {
            body = readChunked();
        } else {
            body = in.readAllBytes();
        }
        return new Response(response.statusLine(), response.headers(), new String(body, StandardCharsets.UTF_8));
    }

    Response read() throws IOException {
        return read(false);
    }

    private byte[] readChunked() throws IOException {
        ByteArrayOutputStream body = new ByteArrayOutputStream();
        while (true) {
            int size = Integer.parseInt(readLine().trim(), 16);
            if (size == 0) {
                readLine();
                return body.toByteArray();
            }
            body.write(in.readNBytes(size));
            readLine();
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

    /** Whether the server has closed the connection (reads end of stream within the socket timeout). */
    boolean closedByServer() throws IOException {
        try {
            return in.read() < 0;
        } catch (IOException e) {
            return true;
        }
    }

    /** Bytes available without blocking. */
    int available() throws IOException {
        return in.available();
    }

    @Override
    public void close() throws IOException {
        socket.close();
    }
}
