package dev.fleche.perf.soak;

import java.io.BufferedInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The soak's clients, one blocking socket each: every {@link Kind} is one exchange (or one fault) against the
 * server. Checked kinds carry a fresh request id in {@code X-Request-Id}, read their response strictly
 * ({@link Response}) and check it ({@link ResponseCheck}), then check that nothing follows the response on the
 * connection they asked to close. Fault kinds abort in the middle of something and expect nothing.
 */
final class Traffic {

    /** What one tick does, with its weight in the mix; faults say so. */
    enum Kind {
        HELLO(22, false), ECHO(10, false), ECHO_CHUNKED(6, false), ASYNC(8, false), LONG_POLL(6, false),
        SSE(3, false), UPLOAD(5, false), PIPELINED(6, false), HALF_CLOSE(5, true),
        RESET_MID_REQUEST(5, true), RESET_MID_BODY(5, true), RESET_MID_RESPONSE(4, true), SLOWLORIS(3, true),
        STOPPED_READER(4, true);

        final int weight;
        final boolean fault;

        Kind(int weight, boolean fault) {
            this.weight = weight;
            this.fault = fault;
        }

        static Kind pick(int roll) {
            for (Kind kind : values()) {
                if (roll < kind.weight) {
                    return kind;
                }
                roll -= kind.weight;
            }
            throw new IllegalArgumentException("roll past the total weight");
        }

        static int totalWeight() {
            int total = 0;
            for (Kind kind : values()) {
                total += kind.weight;
            }
            return total;
        }
    }

    static final int READ_TIMEOUT_MS = 20_000;
    static final int MAX_ECHO = 1 << 20;
    private static final byte[] HELLO = "Hello, World!".getBytes(StandardCharsets.US_ASCII);

    private final int port;
    private final Tally tally;
    private final AtomicLong ids = new AtomicLong();

    Traffic(int port, Tally tally) {
        this.port = port;
        this.tally = tally;
    }

    Tally tally() {
        return tally;
    }

    /** Runs one exchange of {@code kind}, recording what it sent, checked, injected or found wrong. */
    void run(Kind kind) {
        String name = kind.name().toLowerCase();
        try {
            switch (kind) {
                case HELLO -> simple(name, "GET", "/hello", null, false, HELLO);
                case ECHO -> echo(name, false);
                case ECHO_CHUNKED -> echo(name, true);
                case ASYNC -> simple(name, "GET", "/async?delayMs=" + random(1, 200), null, false, HELLO);
                case LONG_POLL -> simple(name, "GET", "/poll", null, false, HELLO);
                case SSE -> sse(name);
                case UPLOAD -> upload(name);
                case PIPELINED -> pipelined(name);
                case HALF_CLOSE -> halfClose(name);
                case RESET_MID_REQUEST -> resetMidRequest();
                case RESET_MID_BODY -> resetMidBody();
                case RESET_MID_RESPONSE -> resetMidResponse();
                case SLOWLORIS -> slowloris();
                case STOPPED_READER -> stoppedReader();
            }
            if (kind.fault) {
                tally.fault(name);
            }
        } catch (IOException | RuntimeException e) {
            if (kind.fault) {
                tally.fault(name); // the server may close first: still injected
            } else {
                tally.problem(name, "failed: " + e);
            }
        }
    }

    /** A control request (broadcasts, stats): checked like the others, under its own kind. */
    String control(String kind, String method, String target) throws IOException {
        long id = ids.incrementAndGet();
        tally.sent(kind);
        try (Socket socket = connect()) {
            InputStream in = new BufferedInputStream(socket.getInputStream());
            write(socket, head(method, target, id, "Content-Length: 0\r\n", true));
            Response response = Response.read(in, false);
            String problem = new ResponseCheck(id, 200, null, "").problem(response);
            problem = problem != null ? problem : ResponseCheck.nothingMore(in);
            if (problem != null) {
                tally.problem(kind, problem);
            } else {
                tally.checked(kind);
            }
            return response.text();
        }
    }

    private void simple(String kind, String method, String target, byte[] body, boolean halfClose, byte[] expected)
            throws IOException {
        long id = ids.incrementAndGet();
        tally.sent(kind);
        try (Socket socket = connect()) {
            InputStream in = new BufferedInputStream(socket.getInputStream());
            String framing = body == null ? "" : "Content-Type: application/octet-stream\r\nContent-Length: "
                    + body.length + "\r\n";
            write(socket, head(method, target, id, framing, true));
            if (body != null) {
                write(socket, body);
            }
            if (halfClose) {
                socket.shutdownOutput();
            }
            finish(kind, in, ResponseCheck.exact(id, expected));
        }
    }

    private void finish(String kind, InputStream in, ResponseCheck check) throws IOException {
        String problem = check.problem(Response.read(in, false));
        problem = problem != null ? problem : ResponseCheck.nothingMore(in);
        if (problem != null) {
            tally.problem(kind, problem);
        } else {
            tally.checked(kind);
        }
    }

    private void echo(String kind, boolean chunked) throws IOException {
        byte[] body = randomBody();
        if (!chunked) {
            simple(kind, "POST", "/soak/echo", body, false, body);
            return;
        }
        long id = ids.incrementAndGet();
        tally.sent(kind);
        try (Socket socket = connect()) {
            InputStream in = new BufferedInputStream(socket.getInputStream());
            write(socket, head("POST", "/soak/echo", id,
                    "Content-Type: application/octet-stream\r\nTransfer-Encoding: chunked\r\n", true));
            OutputStream out = socket.getOutputStream();
            for (int at = 0; at < body.length; ) {
                int n = Math.min(body.length - at, random(1, 64 * 1024));
                out.write((Integer.toHexString(n) + "\r\n").getBytes(StandardCharsets.US_ASCII));
                out.write(body, at, n);
                out.write(CRLF);
                at += n;
            }
            out.write("0\r\n\r\n".getBytes(StandardCharsets.US_ASCII));
            out.flush();
            finish(kind, in, ResponseCheck.exact(id, body));
        }
    }

    private void upload(String kind) throws IOException {
        byte[] body = new byte[random(1, MAX_ECHO + 1)];
        simple(kind, "POST", "/upload", body, false, Integer.toString(body.length).getBytes(StandardCharsets.US_ASCII));
    }

    /** Subscribes, checks the stream's head and its first event, then leaves (closes) mid-stream. */
    private void sse(String kind) throws IOException {
        long id = ids.incrementAndGet();
        tally.sent(kind);
        try (Socket socket = connect()) {
            InputStream in = new BufferedInputStream(socket.getInputStream());
            write(socket, head("GET", "/sse", id, "Accept: text/event-stream\r\n", false));
            java.util.Map<String, String> fields = new java.util.TreeMap<>();
            int status = Response.head(in, fields);
            Response headOnly = new Response(status, fields, new byte[0]);
            String problem = new ResponseCheck(id, 200, null, "").problem(headOnly);
            if (problem == null && !String.valueOf(headOnly.field("Content-Type")).startsWith("text/event-stream")) {
                problem = "request " + id + ": SSE content type " + headOnly.field("Content-Type");
            }
            if (problem == null && !firstEvent(in)) {
                problem = "request " + id + ": the stream ended before an event";
            }
            if (problem != null) {
                tally.problem(kind, problem);
            } else {
                tally.checked(kind);
            }
        }
    }

    /** Reads the chunked stream's bytes until a {@code data:} line has arrived; false at its end. */
    private static boolean firstEvent(InputStream in) throws IOException {
        StringBuilder seen = new StringBuilder();
        byte[] buf = new byte[4096];
        while (seen.length() < 1 << 20) {
            int n = in.read(buf);
            if (n < 0) {
                return false;
            }
            seen.append(new String(buf, 0, n, StandardCharsets.UTF_8));
            if (seen.indexOf("data:") >= 0 && seen.indexOf("\n", seen.indexOf("data:")) >= 0) {
                return true;
            }
        }
        return false;
    }

    /** A burst of 2..10 requests in one write on one connection; each answer in order, each to its request. */
    private void pipelined(String kind) throws IOException {
        int count = random(2, 11);
        long first = ids.getAndAdd(count) + 1;
        StringBuilder burst = new StringBuilder();
        for (int i = 0; i < count; i++) {
            tally.sent(kind);
            burst.append(head("GET", "/hello", first + i, "", i == count - 1));
        }
        try (Socket socket = connect()) {
            InputStream in = new BufferedInputStream(socket.getInputStream());
            write(socket, burst.toString());
            for (int i = 0; i < count; i++) {
                String problem = ResponseCheck.exact(first + i, HELLO).problem(Response.read(in, false));
                if (problem != null) {
                    tally.problem(kind, problem);
                    return;
                }
                tally.checked(kind);
            }
            String extra = ResponseCheck.nothingMore(in);
            if (extra != null) {
                tally.problem(kind, extra);
            }
        }
    }

    // ---------------------------------------------------------------- faults

    /**
     * A whole request, then the client's half-close (FIN) before the answer. The server may answer (the response
     * must then be the right one, and alone) or treat the FIN as the client gone and close without a byte; both
     * are counted ({@code half_close_answered}, {@code half_close_unanswered}), anything else is a problem.
     */
    private void halfClose(String kind) throws IOException {
        long id = ids.incrementAndGet();
        try (Socket socket = connect()) {
            InputStream in = new BufferedInputStream(socket.getInputStream());
            write(socket, head("GET", "/hello", id, "", true));
            socket.shutdownOutput();
            in.mark(1);
            if (in.read() < 0) {
                tally.outcome(kind + "_unanswered");
                return;
            }
            in.reset();
            tally.sent(kind);
            finish(kind, in, ResponseCheck.exact(id, HELLO));
            tally.outcome(kind + "_answered");
        }
    }

    /** Half a request head, then a reset. */
    private void resetMidRequest() throws IOException {
        try (Socket socket = connect()) {
            String head = head("GET", "/hello", 0, "X-Padding: " + "p".repeat(random(1, 400)) + "\r\n", false);
            write(socket, head.substring(0, random(1, head.length() - 1)));
            reset(socket);
        }
    }

    /** A head announcing a body, part of the body (length or chunked), then a reset. */
    private void resetMidBody() throws IOException {
        try (Socket socket = connect()) {
            int length = random(1024, MAX_ECHO);
            boolean chunked = ThreadLocalRandom.current().nextBoolean();
            write(socket, head("POST", "/soak/echo", 0, chunked ? "Transfer-Encoding: chunked\r\n"
                    : "Content-Length: " + length + "\r\n", false));
            if (chunked) {
                write(socket, Integer.toHexString(length) + "\r\n");
            }
            write(socket, new byte[random(1, length)]);
            reset(socket);
        }
    }

    /** A large download, a few KiB read, then a reset. */
    private void resetMidResponse() throws IOException {
        try (Socket socket = connect()) {
            write(socket, head("GET", "/download?bytes=" + (4 << 20), 0, "", true));
            socket.getInputStream().readNBytes(random(1, 16 * 1024));
            reset(socket);
        }
    }

    /** A head sent a few bytes at a time, slower than the header timeout allows: the server must give up first. */
    private void slowloris() throws IOException {
        try (Socket socket = connect()) {
            write(socket, "GET /hello HTTP/1.1\r\nHost: soak\r\n");
            long deadline = System.nanoTime() + 6_000_000_000L;
            while (System.nanoTime() < deadline) {
                write(socket, "X-Slow: a\r\n");
                if (closedWithin(socket, 700)) {
                    return; // the server refused (408) or closed: the defence worked
                }
            }
            tally.problem("slowloris", "the server still waited for the head after 6 s (header timeout 3 s)");
        }
    }

    /** A download that is never read: the server's writes stall; then the client goes away. */
    private void stoppedReader() throws IOException {
        try (Socket socket = connect()) {
            socket.setReceiveBufferSize(4096);
            write(socket, head("GET", "/download?bytes=" + (8 << 20), 0, "", true));
            closedWithin(socket, 0); // nothing read
            sleepMillis(random(500, 4000));
            if (ThreadLocalRandom.current().nextBoolean()) {
                reset(socket);
            }
        }
    }

    // ---------------------------------------------------------------- helpers

    private static final byte[] CRLF = {'\r', '\n'};

    static String head(String method, String target, long id, String fields, boolean close) {
        return method + " " + target + " HTTP/1.1\r\nHost: soak\r\n" + RequestIdFilter.HEADER + ": " + id + "\r\n"
                + fields + (close ? "Connection: close\r\n" : "") + "\r\n";
    }

    private Socket connect() throws IOException {
        Socket socket = new Socket();
        socket.connect(new InetSocketAddress("127.0.0.1", port), READ_TIMEOUT_MS);
        socket.setSoTimeout(READ_TIMEOUT_MS);
        socket.setTcpNoDelay(true);
        return socket;
    }

    private static void write(Socket socket, String text) throws IOException {
        write(socket, text.getBytes(StandardCharsets.US_ASCII));
    }

    private static void write(Socket socket, byte[] bytes) throws IOException {
        OutputStream out = socket.getOutputStream();
        out.write(bytes);
        out.flush();
    }

    /** Closes with SO_LINGER 0: the peer sees a reset, not a FIN. */
    private static void reset(Socket socket) throws IOException {
        socket.setSoLinger(true, 0);
        socket.close();
    }

    /** Waits up to {@code millis} for the server to close (or send anything); true if the stream ended. */
    private static boolean closedWithin(Socket socket, int millis) throws IOException {
        if (millis <= 0) {
            return false;
        }
        int timeout = socket.getSoTimeout();
        socket.setSoTimeout(millis);
        try {
            byte[] sink = new byte[4096];
            socket.getInputStream().read(sink); // a 408, or the end: either way the server acted
            return true;
        } catch (java.net.SocketTimeoutException e) {
            return false;
        } finally {
            if (!socket.isClosed()) {
                socket.setSoTimeout(timeout);
            }
        }
    }

    private static void sleepMillis(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private static byte[] randomBody() {
        ThreadLocalRandom random = ThreadLocalRandom.current();
        int size = random.nextInt(8) == 0 ? random.nextInt(64 * 1024, MAX_ECHO + 1) : random.nextInt(1, 4096);
        byte[] body = new byte[size];
        random.nextBytes(body);
        return body;
    }

    private static int random(int from, int to) {
        return ThreadLocalRandom.current().nextInt(from, Math.max(from + 1, to));
    }
}
