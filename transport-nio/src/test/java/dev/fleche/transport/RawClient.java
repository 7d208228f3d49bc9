package dev.fleche.transport;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import dev.fleche.transport.testing.RawHttp;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The transport's raw-socket test client: the shared {@link RawHttp} with a shorter timeout
 * ({@link #TIMEOUT_MILLIS}), plus whole responses as exact text. Text is ISO-8859-1 both ways, so one char is one
 * byte.
 *
 * <p>{@link #readResponse()} knows just enough HTTP/1.1 framing to find where one response ends (interim
 * {@code 1xx}, {@code Content-Length}, chunked, or up to EOF) and returns it byte for byte, with only the value of
 * {@code Date} replaced (see {@link #normalize}), so that tests can compare whole responses with text blocks.
 */
final class RawClient extends RawHttp {
    static final int TIMEOUT_MILLIS = 5_000;
    static final String HOST = "127.0.0.1";

    private static final int MAX_HEAD = 64 * 1024;
    private static final Pattern DATE = Pattern.compile("\r\nDate: ([^\r\n]*)\r\n");
    /** IMF-fixdate (RFC 9110 5.6.7): two-digit day, English names, GMT. */
    private static final Pattern IMF_FIXDATE = Pattern.compile(
            "(Mon|Tue|Wed|Thu|Fri|Sat|Sun), \\d{2} (Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec) \\d{4} "
                    + "\\d{2}:\\d{2}:\\d{2} GMT");

    private final InputStream in;

    private RawClient(int port) throws IOException {
        super(port, TIMEOUT_MILLIS);
        this.in = input();
    }

    /** Connects to {@code server} on the loopback interface. */
    static RawClient connect(HttpServer server) throws IOException {
        return connect(server.port());
    }

    static RawClient connect(int port) throws IOException {
        return new RawClient(port);
    }

    /** Options for a test server: loopback, a free port, two reactors; tests add what they need. */
    static ServerOptions.Builder loopback() {
        return ServerOptions.builder().address(HOST, 0).reactors(2);
    }

    // ---------------------------------------------------------------- writing

    @Override
    public RawClient send(String text) throws IOException {
        super.send(text);
        return this;
    }

    @Override
    public RawClient send(byte[] bytes) throws IOException {
        super.send(bytes);
        return this;
    }

    // ---------------------------------------------------------------- reading

    /** Exactly {@code n} bytes; fails on EOF or timeout before that. */
    byte[] readBytes(int n) throws IOException {
        byte[] bytes = in.readNBytes(n);
        if (bytes.length != n) {
            fail("EOF after " + bytes.length + " of " + n + " bytes: " + text(bytes));
        }
        return bytes;
    }

    /** Bytes up to and including the first occurrence of {@code suffix}, as text, {@code Date} normalised. */
    String readUntil(String suffix) throws IOException {
        StringBuilder text = new StringBuilder();
        while (text.length() < suffix.length() || !text.substring(text.length() - suffix.length()).equals(suffix)) {
            int b = in.read();
            if (b < 0) {
                fail("EOF before \"" + suffix + "\"; got: " + text);
            }
            text.append((char) b);
        }
        return normalize(text.toString());
    }

    /** The next complete response (or interim 1xx response), {@code Date} normalised. */
    String readResponse() throws IOException {
        return readResponse(false);
    }

    /** The next response to a {@code HEAD} request: its head only, since no body follows. */
    String readHeadResponse() throws IOException {
        return readResponse(true);
    }

    private String readResponse(boolean toHead) throws IOException {
        String head = readHeadText();
        int status = Integer.parseInt(head.substring(9, 12));
        StringBuilder response = new StringBuilder(head);
        if (toHead || status < 200 || status == 204 || status == 304) {
            return normalize(response.toString());
        }
        String length = field(head, "Content-Length");
        if ("chunked".equalsIgnoreCase(field(head, "Transfer-Encoding"))) {
            readChunked(response);
        } else if (length != null) {
            response.append(text(readBytes(Integer.parseInt(length))));
        } else {
            response.append(text(in.readAllBytes()));
        }
        return normalize(response.toString());
    }

    private String readHeadText() throws IOException {
        StringBuilder head = new StringBuilder();
        while (!head.toString().endsWith("\r\n\r\n")) {
            int b = in.read();
            if (b < 0) {
                fail(head.length() == 0 ? "EOF instead of a response" : "EOF inside a response head: " + head);
            }
            if (head.length() == MAX_HEAD) {
                fail("response head longer than " + MAX_HEAD);
            }
            head.append((char) b);
        }
        return head.toString();
    }

    private void readChunked(StringBuilder response) throws IOException {
        while (true) {
            String line = readLineText();
            response.append(line);
            String size = line.substring(0, line.length() - 2);
            int semicolon = size.indexOf(';');
            long n = Long.parseLong(semicolon < 0 ? size : size.substring(0, semicolon), 16);
            if (n == 0) {
                String trailer;
                do {
                    trailer = readLineText();
                    response.append(trailer);
                } while (!trailer.equals("\r\n"));
                return;
            }
            response.append(text(readBytes((int) n + 2)));
        }
    }

    private String readLineText() throws IOException {
        StringBuilder line = new StringBuilder();
        while (!line.toString().endsWith("\r\n")) {
            int b = in.read();
            if (b < 0) {
                fail("EOF inside a chunked body");
            }
            line.append((char) b);
        }
        return line.toString();
    }

    private static String field(String head, String name) {
        for (String line : head.split("\r\n")) {
            int colon = line.indexOf(':');
            if (colon > 0 && line.substring(0, colon).equalsIgnoreCase(name)) {
                return line.substring(colon + 1).trim();
            }
        }
        return null;
    }

    /** Everything until the server closes the connection, {@code Date} normalised. */
    String readToEof() throws IOException {
        return normalize(text(in.readAllBytes()));
    }

    /** Asserts that the server closed the connection and sent nothing more. */
    void assertEof() throws IOException {
        int b;
        try {
            b = in.read();
        } catch (SocketTimeoutException e) {
            throw new AssertionError("connection still open after " + TIMEOUT_MILLIS + " ms", e);
        }
        assertEquals(-1, b, "expected EOF, got more bytes");
    }

    // ---------------------------------------------------------------- text

    static String text(byte[] bytes) {
        return new String(bytes, StandardCharsets.ISO_8859_1);
    }

    /**
     * Replaces the value of every {@code Date} field with {@code <date>} after checking it is an IMF-fixdate
     * within a minute of now, so that expected responses can be exact.
     */
    static String normalize(String response) {
        Matcher m = DATE.matcher(response);
        StringBuilder normalized = new StringBuilder();
        while (m.find()) {
            String value = m.group(1);
            assertTrue(IMF_FIXDATE.matcher(value).matches(), "Date is not an IMF-fixdate: " + value);
            long seconds = java.time.ZonedDateTime.parse(value,
                    java.time.format.DateTimeFormatter.ofPattern("EEE, dd MMM yyyy HH:mm:ss zzz", Locale.US))
                    .toEpochSecond();
            assertTrue(Math.abs(seconds - System.currentTimeMillis() / 1000) < 60, "Date is not now: " + value);
            m.appendReplacement(normalized, "\r\nDate: <date>\r\n");
        }
        m.appendTail(normalized);
        return normalized.toString();
    }

    /** Reads everything an input stream has (used by handlers), as UTF-8. */
    static String utf8(InputStream body) throws IOException {
        ByteArrayOutputStream all = new ByteArrayOutputStream();
        body.transferTo(all);
        return all.toString(StandardCharsets.UTF_8);
    }
}
