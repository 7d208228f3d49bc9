package dev.fleche.perf.loadgen;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import javax.net.ssl.SSLSession;
import javax.net.ssl.SSLSocket;

/**
 * A one-request blocking HTTP/1.1 client ({@code Connection: close}) for control requests and checks: the
 * long-poll broadcast, body verification, the start-up probe. Responses are read to the end of the connection,
 * at most {@link #MAX_RESPONSE} bytes. Over HTTPS (the {@code tls} overloads) any certificate is trusted and
 * SNI is {@code localhost}, as in the generator.
 */
public final class BlockingHttp {
    static final int MAX_RESPONSE = 4 * 1024 * 1024;

    private BlockingHttp() {
    }

    /** A response: status, header fields (names in lower case, last value wins) and body (de-chunked). */
    public record Response(int status, Map<String, String> headers, byte[] body) {
        public String bodyText() {
            return new String(body, StandardCharsets.UTF_8);
        }

        public String header(String name) {
            return headers.get(name.toLowerCase(Locale.ROOT));
        }
    }

    /** {@code GET path}. */
    public static Response get(String host, int port, String path, Duration timeout) throws IOException {
        return exchange(host, port, "GET", path, null, null, timeout);
    }

    /** {@code GET path}, over HTTPS when {@code tls}. */
    public static Response get(String host, int port, String path, Duration timeout, boolean tls) throws IOException {
        return exchange(host, port, "GET", path, null, null, timeout, tls);
    }

    /**
     * One TLS handshake with {@code host:port} (nothing sent after it); returns what was negotiated, e.g.
     * {@code TLSv1.3 TLS_AES_256_GCM_SHA384}.
     */
    public static String tlsSession(String host, int port, Duration timeout) throws IOException {
        try (SSLSocket socket = tlsSocket(host, port, timeout)) {
            socket.startHandshake();
            SSLSession s = socket.getSession();
            return s.getProtocol() + " " + s.getCipherSuite();
        }
    }

    private static SSLSocket tlsSocket(String host, int port, Duration timeout) throws IOException {
        int millis = (int) Math.min(Integer.MAX_VALUE, Math.max(1, timeout.toMillis()));
        Socket plain = new Socket();
        try {
            plain.connect(new InetSocketAddress(host, port), millis);
            plain.setSoTimeout(millis);
            plain.setTcpNoDelay(true);
            SSLSocket socket = (SSLSocket) TlsClient.trustingContext().getSocketFactory()
                    .createSocket(plain, TlsClient.SERVER_NAME, port, true);
            socket.setUseClientMode(true);
            return socket;
        } catch (IOException | RuntimeException e) {
            plain.close();
            throw e;
        }
    }

    /**
     * Sends one request and reads the whole response.
     *
     * @param body the request body, or null for none
     * @param contentType its media type, or null
     */
    public static Response exchange(String host, int port, String method, String path, byte[] body,
                                    String contentType, Duration timeout) throws IOException {
        return exchange(host, port, method, path, body, contentType, timeout, false);
    }

    /** {@link #exchange(String, int, String, String, byte[], String, Duration)}, over HTTPS when {@code tls}. */
    public static Response exchange(String host, int port, String method, String path, byte[] body,
                                    String contentType, Duration timeout, boolean tls) throws IOException {
        int millis = (int) Math.min(Integer.MAX_VALUE, Math.max(1, timeout.toMillis()));
        try (Socket socket = tls ? tlsSocket(host, port, timeout) : new Socket()) {
            if (!tls) {
                socket.connect(new InetSocketAddress(host, port), millis);
                socket.setSoTimeout(millis);
                socket.setTcpNoDelay(true);
            }
            StringBuilder head = new StringBuilder(128).append(method).append(' ').append(path)
                    .append(" HTTP/1.1\r\nHost: ").append(host).append(':').append(port)
                    .append("\r\nConnection: close\r\n");
            if (body != null) {
                if (contentType != null) {
                    head.append("Content-Type: ").append(contentType).append("\r\n");
                }
                head.append("Content-Length: ").append(body.length).append("\r\n");
            } else if (!method.equals("GET") && !method.equals("HEAD")) {
                head.append("Content-Length: 0\r\n");
            }
            head.append("\r\n");
            OutputStream out = socket.getOutputStream();
            out.write(head.toString().getBytes(StandardCharsets.US_ASCII));
            if (body != null) {
                out.write(body);
            }
            out.flush();
            return parse(readAll(socket.getInputStream(), method.equals("HEAD")));
        }
    }

    private static byte[] readAll(InputStream in, boolean head) throws IOException {
        ByteArrayOutputStream all = new ByteArrayOutputStream(1024);
        byte[] buf = new byte[8192];
        for (int n; (n = in.read(buf)) >= 0; ) {
            all.write(buf, 0, n);
            if (all.size() > MAX_RESPONSE) {
                throw new IOException("response larger than " + MAX_RESPONSE + " bytes");
            }
            if (complete(all.toByteArray(), head)) {
                break; // a server that keeps the connection open despite "Connection: close"
            }
        }
        return all.toByteArray();
    }

    /** Whether {@code bytes} hold a complete response with a Content-Length body (other framings: read to EOF). */
    private static boolean complete(byte[] bytes, boolean head) {
        int end = headEnd(bytes);
        if (end < 0) {
            return false;
        }
        Map<String, String> fields = fields(new String(bytes, 0, end, StandardCharsets.ISO_8859_1));
        String length = fields.get("content-length");
        if (head) {
            return true;
        }
        String te = fields.get("transfer-encoding");
        if (te != null && te.toLowerCase(Locale.ROOT).contains("chunked")) {
            return endsWith(bytes, "\r\n0\r\n\r\n") || bytes.length - end - 4 == 5 && endsWith(bytes, "0\r\n\r\n");
        }
        if (length != null) {
            return bytes.length - end - 4 >= Long.parseLong(length.trim());
        }
        return false;
    }

    private static boolean endsWith(byte[] bytes, String suffix) {
        int n = suffix.length();
        if (bytes.length < n) {
            return false;
        }
        for (int i = 0; i < n; i++) {
            if (bytes[bytes.length - n + i] != suffix.charAt(i)) {
                return false;
            }
        }
        return true;
    }

    private static Response parse(byte[] bytes) throws IOException {
        int end = headEnd(bytes);
        if (end < 0) {
            throw new IOException("incomplete response head (" + bytes.length + " bytes)");
        }
        String head = new String(bytes, 0, end, StandardCharsets.ISO_8859_1);
        int sp = head.indexOf(' ');
        if (!head.startsWith("HTTP/1.") || sp < 0 || head.length() < sp + 4) {
            throw new IOException("bad status line: " + head.lines().findFirst().orElse(""));
        }
        int status = Integer.parseInt(head.substring(sp + 1, sp + 4));
        Map<String, String> fields = fields(head);
        byte[] body = java.util.Arrays.copyOfRange(bytes, end + 4, bytes.length);
        String te = fields.get("transfer-encoding");
        if (te != null && te.toLowerCase(Locale.ROOT).contains("chunked")) {
            body = dechunk(body);
        } else if (fields.containsKey("content-length")) {
            int n = (int) Math.min(body.length, Long.parseLong(fields.get("content-length").trim()));
            body = java.util.Arrays.copyOf(body, n);
        }
        return new Response(status, fields, body);
    }

    private static Map<String, String> fields(String head) {
        Map<String, String> fields = new LinkedHashMap<>();
        String[] lines = head.split("\r\n");
        for (int i = 1; i < lines.length; i++) {
            int colon = lines[i].indexOf(':');
            if (colon > 0) {
                fields.put(lines[i].substring(0, colon).trim().toLowerCase(Locale.ROOT),
                        lines[i].substring(colon + 1).trim());
            }
        }
        return fields;
    }

    private static int headEnd(byte[] b) {
        for (int i = 0; i + 3 < b.length; i++) {
            if (b[i] == '\r' && b[i + 1] == '\n' && b[i + 2] == '\r' && b[i + 3] == '\n') {
                return i;
            }
        }
        return -1;
    }

    private static byte[] dechunk(byte[] in) throws IOException {
        ByteArrayOutputStream out = new ByteArrayOutputStream(in.length);
        int at = 0;
        while (at < in.length) {
            int eol = at;
            while (eol + 1 < in.length && !(in[eol] == '\r' && in[eol + 1] == '\n')) {
                eol++;
            }
            if (eol + 1 >= in.length) {
                throw new IOException("truncated chunked body");
            }
            String line = new String(in, at, eol - at, StandardCharsets.US_ASCII);
            int semi = line.indexOf(';');
            int size = Integer.parseInt((semi < 0 ? line : line.substring(0, semi)).trim(), 16);
            at = eol + 2;
            if (size == 0) {
                return out.toByteArray();
            }
            if (at + size > in.length) {
                throw new IOException("truncated chunk");
            }
            out.write(in, at, size);
            at += size + 2;
        }
        throw new IOException("chunked body without its last chunk");
    }
}
