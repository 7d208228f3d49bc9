package dev.fleche.perf.loadgen;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Objects;

/**
 * What one load-generator run does. Built by {@link #builder()}, which validates.
 *
 * <table>
 *   <caption>Settings and defaults</caption>
 *   <tr><th>setting</th><th>default</th><th>meaning</th></tr>
 *   <tr><td>mode</td><td>CLOSED</td><td>{@link Mode}</td></tr>
 *   <tr><td>host, port</td><td>127.0.0.1, 8080</td><td>the server</td></tr>
 *   <tr><td>method, path, body, contentType</td><td>GET /hello, none</td><td>the request</td></tr>
 *   <tr><td>connections</td><td>100</td><td>concurrent connections</td></tr>
 *   <tr><td>depth</td><td>1</td><td>requests in flight per connection (HTTP/1.1 pipelining when &gt; 1)</td></tr>
 *   <tr><td>rate</td><td>0</td><td>OPEN: requests per second over all connections</td></tr>
 *   <tr><td>warmup, duration</td><td>0 s, 10 s</td><td>load before recording; recorded load (SSE: the broadcasts
 *       of each, one per interval)</td></tr>
 *   <tr><td>threads</td><td>2</td><td>selector threads (connections are split among them)</td></tr>
 *   <tr><td>expectStatus, expectBody</td><td>200, none</td><td>every response is checked against them</td></tr>
 *   <tr><td>timeout</td><td>10 s</td><td>a response slower than this is an error and its connection is reopened</td></tr>
 *   <tr><td>perAddress</td><td>5000</td><td>connections per loopback source address (127.0.0.1, .2, ...)</td></tr>
 *   <tr><td>cycles</td><td>1</td><td>LONG_POLL: broadcasts</td></tr>
 *   <tr><td>interval</td><td>1 s</td><td>SSE: between two broadcasts</td></tr>
 *   <tr><td>hold</td><td>0 s</td><td>IDLE: how long to hold the connections open (CLI: 0 = until a line on stdin)</td></tr>
 *   <tr><td>hlog</td><td>none</td><td>HdrHistogram interval log written during the recorded load</td></tr>
 *   <tr><td>tls</td><td>NONE</td><td>{@link Tls}: plain HTTP, or HTTPS with or without session resumption</td></tr>
 *   <tr><td>connectionPerRequest</td><td>false</td><td>CLOSED: every request on a new connection
 *       ({@code Connection: close}; the client closes once the response arrived and connects again at once);
 *       latency counts from the connect</td></tr>
 * </table>
 */
public record LoadSpec(Mode mode, String host, int port, String method, String path, byte[] body,
                       String contentType, int connections, int depth, double rate, Duration warmup,
                       Duration duration, int threads, int expectStatus, byte[] expectBody, Duration timeout,
                       int perAddress, int cycles, Duration interval, Duration hold, Path hlog, Tls tls,
                       boolean connectionPerRequest) {

    /** Whether the generator speaks TLS, and whether it resumes sessions (see {@code TlsClient}). */
    public enum Tls {
        /** Plain HTTP. */
        NONE,
        /** HTTPS; the client keeps sessions and resumes them on later connections (TLS 1.3 PSK, TLS 1.2). */
        RESUME,
        /** HTTPS; no session is ever offered again: every handshake is a full one. */
        FULL
    }

    /** What the generator does with its connections. */
    public enum Mode {
        /** Each connection sends its next request as soon as a response arrives (keeps {@code depth} in flight). */
        CLOSED,
        /** Requests go out at a fixed rate; latency counts from when each was due (coordinated omission corrected). */
        OPEN,
        /** Every connection waits on {@code path}; one broadcast resumes all; measures the time to resume them. */
        LONG_POLL,
        /**
         * Every connection subscribes to the event stream at {@code path}; once the server counts them all, the
         * engine has it broadcast one event per {@code interval}; every event is checked and its lateness recorded.
         */
        SSE,
        /** Opens the connections, one checked request each, then holds them idle. */
        IDLE
    }

    public LoadSpec {
        Objects.requireNonNull(mode, "mode");
        Objects.requireNonNull(host, "host");
        Objects.requireNonNull(tls, "tls");
        if (connectionPerRequest && (mode != Mode.CLOSED || depth != 1)) {
            throw new IllegalArgumentException("a connection per request is for the closed loop, depth 1");
        }
        if (tls != Tls.NONE && (mode == Mode.LONG_POLL || mode == Mode.SSE)) {
            throw new IllegalArgumentException(mode + " runs over plain HTTP only (its control requests are plain)");
        }
        if (port < 1 || port > 65535) {
            throw new IllegalArgumentException("port must be 1..65535, was " + port);
        }
        if (path == null || !path.startsWith("/")) {
            throw new IllegalArgumentException("path must start with /, was " + path);
        }
        positive("connections", connections);
        positive("depth", depth);
        positive("threads", threads);
        positive("perAddress", perAddress);
        positive("cycles", cycles);
        if (mode == Mode.OPEN && !(rate > 0)) {
            throw new IllegalArgumentException("open loop needs a rate > 0");
        }
        if (mode != Mode.CLOSED && mode != Mode.OPEN && depth != 1) {
            throw new IllegalArgumentException(mode + " does not pipeline (depth must be 1)");
        }
        if (warmup.isNegative() || duration.isNegative() || timeout.isNegative() || timeout.isZero()
                || interval.isNegative() || interval.isZero() || hold.isNegative()) {
            throw new IllegalArgumentException("durations must be >= 0 (timeout and interval > 0)");
        }
        threads = Math.min(threads, connections);
    }

    private static void positive(String name, long value) {
        if (value < 1) {
            throw new IllegalArgumentException(name + " must be >= 1, was " + value);
        }
    }

    public static Builder builder() {
        return new Builder();
    }

    public Builder toBuilder() {
        Builder b = new Builder();
        b.mode = mode; b.host = host; b.port = port; b.method = method; b.path = path; b.body = body;
        b.contentType = contentType; b.connections = connections; b.depth = depth; b.rate = rate;
        b.warmup = warmup; b.duration = duration; b.threads = threads; b.expectStatus = expectStatus;
        b.expectBody = expectBody; b.timeout = timeout; b.perAddress = perAddress; b.cycles = cycles;
        b.interval = interval; b.hold = hold; b.hlog = hlog; b.tls = tls;
        b.connectionPerRequest = connectionPerRequest;
        return b;
    }

    /** SSE: the broadcasts of the warm-up, one per interval (none when the warm-up is shorter than half of one). */
    public long warmupTicks() {
        return Math.round((double) warmup.toNanos() / interval.toNanos());
    }

    /** SSE: the broadcasts of the measured window, one per interval, at least one. */
    public long ticks() {
        return Math.max(1, Math.round((double) duration.toNanos() / interval.toNanos()));
    }

    /** The request bytes, {@code Host} and (with a body) {@code Content-Type}/{@code Content-Length} included. */
    byte[] requestBytes() {
        StringBuilder head = new StringBuilder(128)
                .append(method).append(' ').append(path).append(" HTTP/1.1\r\n")
                .append("Host: ").append(host).append(':').append(port).append("\r\n");
        if (connectionPerRequest) {
            head.append("Connection: close\r\n");
        }
        if (body != null) {
            if (contentType != null) {
                head.append("Content-Type: ").append(contentType).append("\r\n");
            }
            head.append("Content-Length: ").append(body.length).append("\r\n");
        }
        head.append("\r\n");
        byte[] h = head.toString().getBytes(StandardCharsets.US_ASCII);
        if (body == null) {
            return h;
        }
        byte[] all = new byte[h.length + body.length];
        System.arraycopy(h, 0, all, 0, h.length);
        System.arraycopy(body, 0, all, h.length, body.length);
        return all;
    }

    /** A one-line description for reports. */
    public String describe() {
        String what = method + " " + path + switch (tls) {
            case NONE -> "";
            case RESUME -> " · TLS, sessions resumed";
            case FULL -> " · TLS, full handshakes";
        } + (connectionPerRequest ? " · a connection per request" : "");
        return switch (mode) {
            case CLOSED -> String.format("closed loop · %s · %d connections · depth %d · %d threads · %s after %s warm-up",
                    what, connections, depth, threads, seconds(duration), seconds(warmup));
            case OPEN -> String.format("open loop · %s · %.0f req/s · %d connections · %d threads · %s after %s warm-up",
                    what, rate, connections, threads, seconds(duration), seconds(warmup));
            case LONG_POLL -> String.format("long-poll · %s · %d clients · %d broadcast(s)", what, connections, cycles);
            case SSE -> String.format("sse · %s · %d clients · a broadcast every %s: %d warm-up, %d measured",
                    what, connections, seconds(interval), warmupTicks(), ticks());
            case IDLE -> String.format("idle · %s · %d connections", what, connections);
        };
    }

    private static String seconds(Duration d) {
        return d.toMillis() % 1000 == 0 ? d.toSeconds() + " s" : d.toMillis() / 1000.0 + " s";
    }

    /** Collects the settings; {@link #build()} validates them. */
    public static final class Builder {
        private Mode mode = Mode.CLOSED;
        private String host = "127.0.0.1";
        private int port = 8080;
        private String method = "GET";
        private String path = "/hello";
        private byte[] body;
        private String contentType;
        private int connections = 100;
        private int depth = 1;
        private double rate;
        private Duration warmup = Duration.ZERO;
        private Duration duration = Duration.ofSeconds(10);
        private int threads = 2;
        private int expectStatus = 200;
        private byte[] expectBody;
        private Duration timeout = Duration.ofSeconds(10);
        private int perAddress = 5000;
        private int cycles = 1;
        private Duration interval = Duration.ofSeconds(1);
        private Duration hold = Duration.ZERO;
        private Path hlog;
        private Tls tls = Tls.NONE;
        private boolean connectionPerRequest;

        public Builder mode(Mode v) { mode = v; return this; }
        public Builder host(String v) { host = v; return this; }
        public Builder port(int v) { port = v; return this; }
        public Builder method(String v) { method = v; return this; }
        public Builder path(String v) { path = v; return this; }
        public Builder body(byte[] v) { body = v; return this; }
        public Builder body(String v) { body = v == null ? null : v.getBytes(StandardCharsets.UTF_8); return this; }
        public Builder contentType(String v) { contentType = v; return this; }
        public Builder connections(int v) { connections = v; return this; }
        public Builder depth(int v) { depth = v; return this; }
        public Builder rate(double v) { rate = v; return this; }
        public Builder warmup(Duration v) { warmup = v; return this; }
        public Builder duration(Duration v) { duration = v; return this; }
        public Builder threads(int v) { threads = v; return this; }
        public Builder expectStatus(int v) { expectStatus = v; return this; }
        public Builder expectBody(byte[] v) { expectBody = v; return this; }
        public Builder expectBody(String v) { expectBody = v == null ? null : v.getBytes(StandardCharsets.UTF_8); return this; }
        public Builder timeout(Duration v) { timeout = v; return this; }
        public Builder perAddress(int v) { perAddress = v; return this; }
        public Builder cycles(int v) { cycles = v; return this; }
        public Builder interval(Duration v) { interval = v; return this; }
        public Builder hold(Duration v) { hold = v; return this; }
        public Builder hlog(Path v) { hlog = v; return this; }
        public Builder tls(Tls v) { tls = v; return this; }
        public Builder connectionPerRequest(boolean v) { connectionPerRequest = v; return this; }

        public LoadSpec build() {
            return new LoadSpec(mode, host, port, method, path, body, contentType, connections, depth, rate, warmup,
                    duration, threads, expectStatus, expectBody, timeout, perAddress, cycles, interval, hold, hlog,
                    tls, connectionPerRequest);
        }
    }
}
