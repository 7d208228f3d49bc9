package dev.fleche.transport;

import java.net.InetSocketAddress;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.Objects;
import java.util.Set;
import java.util.function.LongSupplier;

/**
 * The settings of an {@link HttpServer}: immutable, built by {@link #builder()}, validated by
 * {@link Builder#build()}.
 *
 * <table>
 *   <caption>Settings, defaults and meaning</caption>
 *   <tr><th>setting</th><th>default</th><th>meaning</th></tr>
 *   <tr><td>{@code address}</td><td>{@code 0.0.0.0:8080}</td><td>where to listen; port 0 picks a free port
 *       ({@link HttpServer#port()} tells which)</td></tr>
 *   <tr><td>{@code reactors}</td><td>available processors</td><td>reactor threads, each with its own selector,
 *       connections, task queue and timer</td></tr>
 *   <tr><td>{@code backlog}</td><td>1024</td><td>listen backlog</td></tr>
 *   <tr><td>{@code maxConnections}</td><td>16,000</td><td>open connections; beyond it new ones get
 *       {@code 503} and are closed (with TLS: closed without a byte)</td></tr>
 *   <tr><td>{@code maxRequestLineBytes}</td><td>8 KiB</td><td>longer request line: {@code 414}</td></tr>
 *   <tr><td>{@code maxHeaderBytes}</td><td>16 KiB</td><td>larger header (or trailer) section: {@code 431}</td></tr>
 *   <tr><td>{@code maxHeaderCount}</td><td>100</td><td>more header fields: {@code 431}</td></tr>
 *   <tr><td>{@code maxBodyBytes}</td><td>{@code -1}: none</td><td>the largest request body of any request:
 *       beyond it {@code 413} and close (before reading, and before any {@code 100 Continue}, when
 *       {@code Content-Length} says so; on the size line of a chunk that alone goes beyond it). It bounds what a
 *       handler <em>streams</em> (an upload of any size is fine by default): what Fleche itself holds of a body is
 *       bounded anyway — a body received whole is at most {@code bodyAggregationBytes}, a streamed one waits in at
 *       most {@code inboundWindowBytes}. {@code -1} means no limit</td></tr>
 *   <tr><td>{@code maxBufferedBodyBytes}</td><td>10 MiB</td><td>the largest body of a request whose handler holds
 *       the body in memory whole and says so with {@link HttpExchange#expectBufferedBody()} (the Jersey container
 *       does for every entity it reads into a {@code String}, {@code byte[]}, JSON or XML object, form...):
 *       beyond it {@code 413} and close, as for {@code maxBodyBytes}. The smaller of the two applies. {@code -1}
 *       means no limit</td></tr>
 *   <tr><td>{@code bodyAggregationBytes}</td><td>16 KiB</td><td>bodies with a {@code Content-Length} up to this
 *       are received whole before the handler is called, so reading them never blocks</td></tr>
 *   <tr><td>{@code maxDiscardBytes}</td><td>64 KiB</td><td>a request body the handler left unread, up to this, is
 *       read and discarded after the response to keep the connection; a larger one closes it</td></tr>
 *   <tr><td>{@code inboundWindowBytes}</td><td>64 KiB</td><td>request body bytes queued for a handler before the
 *       reactor stops reading the socket</td></tr>
 *   <tr><td>{@code outboundHighWaterBytes}</td><td>64 KiB</td><td>response bytes queued for a slow client
 *       before writers block (they resume below half of it)</td></tr>
 *   <tr><td>{@code idleTimeout}</td><td>60 s</td><td>a keep-alive connection with no request in progress is
 *       closed after this</td></tr>
 *   <tr><td>{@code headerTimeout}</td><td>20 s</td><td>a request head not complete after this: {@code 408} and
 *       close (slowloris)</td></tr>
 *   <tr><td>{@code bodyTimeout}</td><td>30 s</td><td>no request body bytes for this long while the body is
 *       expected: the exchange fails ({@code 408} when nothing was answered yet) and the connection closes</td></tr>
 *   <tr><td>{@code writeStallTimeout}</td><td>30 s</td><td>queued response bytes making no progress for this
 *       long: the exchange fails with an {@code IOException} and the connection closes</td></tr>
 *   <tr><td>{@code minRequestBodyRate}</td><td>{@link MinDataRate#DEFAULT}: 240 B/s over 5 s windows</td><td>a
 *       client sending a request body slower than this (only while the body is being read: not while the handler
 *       has stopped reading it, nor before {@code 100 Continue} is sent) gets {@code 408} when nothing was answered
 *       yet, else the connection closes. {@code null} turns it off. On by default, as in Kestrel: a trickled body
 *       holds the worker that reads it, and {@code bodyTimeout} only catches a body that stops entirely</td></tr>
 *   <tr><td>{@code minResponseRate}</td><td>{@link MinDataRate#DEFAULT}: 240 B/s over 5 s windows</td><td>a client
 *       taking response bytes slower than this, while bytes wait for it (a full socket), is closed (a timeout,
 *       event {@code timeout phase=response-rate}); waiting for the application never counts. {@code null} turns
 *       it off. On by default, as in Kestrel: a slow reader holds the writer blocked above
 *       {@code outboundHighWaterBytes}, and {@code writeStallTimeout} only catches a reader that stops
 *       entirely</td></tr>
 *   <tr><td>{@code errorRenderer}</td><td>{@link ErrorRenderer#PLAIN_TEXT}</td><td>the body of error
 *       responses the transport sends by itself</td></tr>
 *   <tr><td>{@code nanoClock}</td><td>{@code System::nanoTime}</td><td>the clock of every timeout and timer
 *       (inject one in tests)</td></tr>
 *   <tr><td>{@code tls}</td><td>{@code null}: plain HTTP</td><td>serve HTTPS with these {@link TlsOptions}</td></tr>
 *   <tr><td>{@code accessLog}</td><td>{@code null}: no access log</td><td>write one line per request (refusals
 *       included) as these {@link AccessLog} settings say</td></tr>
 *   <tr><td>{@code http2PriorKnowledge}</td><td>{@code true}</td><td>a clear-text connection that starts with the
 *       HTTP/2 connection preface speaks HTTP/2 (h2c, RFC 9113 3.3)</td></tr>
 *   <tr><td>{@code http2Upgrade}</td><td>{@code true}</td><td>a clear-text request without a body carrying
 *       {@code Upgrade: h2c} and {@code HTTP2-Settings} is answered {@code 101} and then as HTTP/2 stream 1</td></tr>
 *   <tr><td>{@code http2Alpn}</td><td>{@code true}</td><td>on TLS, ALPN offers {@code h2} before
 *       {@code http/1.1}</td></tr>
 *   <tr><td>{@code http2MaxConcurrentStreams}</td><td>128</td><td>{@code SETTINGS_MAX_CONCURRENT_STREAMS}: a
 *       stream beyond it is refused with {@code RST_STREAM REFUSED_STREAM}</td></tr>
 *   <tr><td>{@code http2InitialWindowBytes}</td><td>64 KiB</td><td>{@code SETTINGS_INITIAL_WINDOW_SIZE}: request
 *       body bytes a client may send on a stream before the handler takes them</td></tr>
 *   <tr><td>{@code http2MaxFrameBytes}</td><td>16 KiB</td><td>{@code SETTINGS_MAX_FRAME_SIZE}: a larger frame is a
 *       {@code FRAME_SIZE_ERROR}</td></tr>
 *   <tr><td>{@code http2HeaderTableBytes}</td><td>4 KiB</td><td>{@code SETTINGS_HEADER_TABLE_SIZE}: the HPACK
 *       dynamic table of the request decoder</td></tr>
 *   <tr><td>{@code http2MaxResets}</td><td>200</td><td>streams reset in {@link #HTTP2_FLOOD_WINDOW} (10 s) by the
 *       client, or by the server for the client's doing (a stream refused beyond {@code MAX_CONCURRENT_STREAMS},
 *       malformed, too large or too slow; a {@code 431} or {@code 414} before it became a stream); beyond it
 *       {@code GOAWAY ENHANCE_YOUR_CALM} (rapid reset, CVE-2023-44487, and "MadeYouReset")</td></tr>
 *   <tr><td>{@code http2MaxControlFrames}</td><td>1,000</td><td>SETTINGS, PING, PRIORITY, unknown and empty
 *       frames a client may send in 10 s; beyond it {@code GOAWAY ENHANCE_YOUR_CALM}</td></tr>
 *   <tr><td>{@code http2MaxContinuationFrames}</td><td>16</td><td>CONTINUATION frames of one header block; beyond
 *       it (or beyond {@code maxHeaderBytes} of block) {@code GOAWAY ENHANCE_YOUR_CALM}, before any HPACK
 *       decoding</td></tr>
 *   <tr><td>{@code staticContent}</td><td>none</td><td>static files served at these prefixes before the handler
 *       runs ({@link StaticContent}, {@link StaticHandler}); every other path stays the handler's</td></tr>
 *   <tr><td>{@code proxyProtocol}</td><td>{@code null}: off</td><td>every connection begins with a PROXY protocol
 *       header (version 1 or 2) from one of its trusted proxies, whose client address becomes the connection's
 *       ({@link ProxyProtocol})</td></tr>
 *   <tr><td>{@code unixSocket}</td><td>{@code null}: TCP on {@code address}</td><td>listen on a Unix domain socket
 *       at this path instead ({@code address} is then unused): HTTP/1.1, h2c, TLS and PROXY all work over it. A stale
 *       socket file there (no server answers on it) is replaced; the file is deleted at stop</td></tr>
 *   <tr><td>{@code unixSocketPermissions}</td><td>{@code rw-rw----}</td><td>the socket file's permissions, set
 *       right after it is bound: who may connect</td></tr>
 *   <tr><td>{@code http2MaxQueuedOutputBytes}</td><td>256 KiB</td><td>bytes an HTTP/2 connection has produced and its
 *       socket has not taken: at this budget it stops reading frames (so it neither parses requests nor produces
 *       answers) and holds response DATA back, until the client drains below half of it; a client that takes
 *       nothing for {@code writeStallTimeout} is closed. Four of the RFC's default stream windows (65,535
 *       bytes): what a few streams' windows frame at once, beyond what the kernel's socket buffer already
 *       holds</td></tr>
 * </table>
 */
public record ServerOptions(
        InetSocketAddress address,
        int reactors,
        int backlog,
        int maxConnections,
        int maxRequestLineBytes,
        int maxHeaderBytes,
        int maxHeaderCount,
        long maxBodyBytes,
        long maxBufferedBodyBytes,
        int bodyAggregationBytes,
        long maxDiscardBytes,
        int inboundWindowBytes,
        int outboundHighWaterBytes,
        Duration idleTimeout,
        Duration headerTimeout,
        Duration bodyTimeout,
        Duration writeStallTimeout,
        MinDataRate minRequestBodyRate,
        MinDataRate minResponseRate,
        ErrorRenderer errorRenderer,
        LongSupplier nanoClock,
        TlsOptions tls,
        AccessLog accessLog,
        boolean http2PriorKnowledge,
        boolean http2Upgrade,
        boolean http2Alpn,
        int http2MaxConcurrentStreams,
        int http2InitialWindowBytes,
        int http2MaxFrameBytes,
        int http2HeaderTableBytes,
        int http2MaxResets,
        int http2MaxControlFrames,
        int http2MaxContinuationFrames,
        java.util.List<StaticContent> staticContent,
        ProxyProtocol proxyProtocol,
        Path unixSocket,
        Set<PosixFilePermission> unixSocketPermissions,
        int http2MaxQueuedOutputBytes) {

    /** Validates every setting; use {@link #builder()} rather than this constructor. */
    public ServerOptions {
        Objects.requireNonNull(address, "address");
        Objects.requireNonNull(nanoClock, "nanoClock");
        Objects.requireNonNull(errorRenderer, "errorRenderer");
        positive("reactors", reactors);
        positive("backlog", backlog);
        positive("maxConnections", maxConnections);
        atLeast("maxRequestLineBytes", maxRequestLineBytes, 64);
        atLeast("maxHeaderBytes", maxHeaderBytes, 256);
        positive("maxHeaderCount", maxHeaderCount);
        atLeast("maxBodyBytes", maxBodyBytes, -1);
        atLeast("maxBufferedBodyBytes", maxBufferedBodyBytes, -1);
        atLeast("bodyAggregationBytes", bodyAggregationBytes, 0);
        if (maxDiscardBytes < 0) {
            throw new IllegalArgumentException("maxDiscardBytes must be >= 0, was " + maxDiscardBytes);
        }
        atLeast("inboundWindowBytes", inboundWindowBytes, 1024);
        atLeast("outboundHighWaterBytes", outboundHighWaterBytes, 1024);
        duration("idleTimeout", idleTimeout);
        duration("headerTimeout", headerTimeout);
        duration("bodyTimeout", bodyTimeout);
        duration("writeStallTimeout", writeStallTimeout);
        positive("http2MaxConcurrentStreams", http2MaxConcurrentStreams);
        atLeast("http2InitialWindowBytes", http2InitialWindowBytes, 1024);
        atLeast("http2MaxFrameBytes", http2MaxFrameBytes, 16_384);
        if (http2MaxFrameBytes > 16_777_215) {
            throw new IllegalArgumentException("http2MaxFrameBytes must be <= 16777215, was " + http2MaxFrameBytes);
        }
        atLeast("http2HeaderTableBytes", http2HeaderTableBytes, 0);
        positive("http2MaxResets", http2MaxResets);
        positive("http2MaxControlFrames", http2MaxControlFrames);
        atLeast("http2MaxContinuationFrames", http2MaxContinuationFrames, 0);
        staticContent = staticContent == null ? java.util.List.of() : java.util.List.copyOf(staticContent);
        unixSocketPermissions = Set.copyOf(Objects.requireNonNull(unixSocketPermissions, "unixSocketPermissions"));
        atLeast("http2MaxQueuedOutputBytes", http2MaxQueuedOutputBytes, 1024);
    }

    /** The default of {@code unixSocketPermissions}: the owner and the group may connect. */
    public static final Set<PosixFilePermission> DEFAULT_UNIX_SOCKET_PERMISSIONS =
            Set.copyOf(PosixFilePermissions.fromString("rw-rw----"));

    /** The window over which {@code http2MaxResets} and {@code http2MaxControlFrames} are counted. */
    public static final Duration HTTP2_FLOOD_WINDOW = Duration.ofSeconds(10);

    /** The default of {@code maxBufferedBodyBytes}: 10 MiB, as Quarkus bounds every request body. */
    public static final long DEFAULT_MAX_BUFFERED_BODY_BYTES = 10L * 1024 * 1024;

    /** {@code maxBodyBytes} as a number to compare with: {@link Long#MAX_VALUE} when there is no limit. */
    public long bodyLimit() {
        return maxBodyBytes < 0 ? Long.MAX_VALUE : maxBodyBytes;
    }

    /**
     * The limit of a body its handler holds in memory whole: the smaller of {@code maxBufferedBodyBytes} and
     * {@code maxBodyBytes}; {@link Long#MAX_VALUE} when neither limits it.
     */
    public long bufferedBodyLimit() {
        return Math.min(bodyLimit(), maxBufferedBodyBytes < 0 ? Long.MAX_VALUE : maxBufferedBodyBytes);
    }

    /** A builder holding every default of the table above. */
    public static Builder builder() {
        return new Builder();
    }

    /** A builder starting from these settings. */
    public Builder toBuilder() {
        return new Builder(this);
    }

    private static void positive(String name, long value) {
        atLeast(name, value, 1);
    }

    private static void atLeast(String name, long value, long min) {
        if (value < min) {
            throw new IllegalArgumentException(name + " must be >= " + min + ", was " + value);
        }
    }

    private static void duration(String name, Duration value) {
        Objects.requireNonNull(value, name);
        if (value.isNegative() || value.isZero()) {
            throw new IllegalArgumentException(name + " must be positive, was " + value);
        }
    }

    /** Builds {@link ServerOptions}; every setter returns {@code this}. */
    public static final class Builder {
        private InetSocketAddress address = new InetSocketAddress(8080);
        private int reactors = Runtime.getRuntime().availableProcessors();
        private int backlog = 1024;
        private int maxConnections = 16_000;
        private int maxRequestLineBytes = 8 * 1024;
        private int maxHeaderBytes = 16 * 1024;
        private int maxHeaderCount = 100;
        private long maxBodyBytes = -1;
        private long maxBufferedBodyBytes = DEFAULT_MAX_BUFFERED_BODY_BYTES;
        private int bodyAggregationBytes = 16 * 1024;
        private long maxDiscardBytes = 64 * 1024;
        private int inboundWindowBytes = 64 * 1024;
        private int outboundHighWaterBytes = 64 * 1024;
        private Duration idleTimeout = Duration.ofSeconds(60);
        private Duration headerTimeout = Duration.ofSeconds(20);
        private Duration bodyTimeout = Duration.ofSeconds(30);
        private Duration writeStallTimeout = Duration.ofSeconds(30);
        private MinDataRate minRequestBodyRate = MinDataRate.DEFAULT;
        private MinDataRate minResponseRate = MinDataRate.DEFAULT;
        private ErrorRenderer errorRenderer = ErrorRenderer.PLAIN_TEXT;
        private LongSupplier nanoClock = System::nanoTime;
        private TlsOptions tls;
        private AccessLog accessLog;
        private boolean http2PriorKnowledge = true;
        private boolean http2Upgrade = true;
        private boolean http2Alpn = true;
        private int http2MaxConcurrentStreams = 128;
        private int http2InitialWindowBytes = 64 * 1024;
        private int http2MaxFrameBytes = 16 * 1024;
        private int http2HeaderTableBytes = 4 * 1024;
        private int http2MaxResets = 200;
        private int http2MaxControlFrames = 1_000;
        private int http2MaxContinuationFrames = 16;
        private final java.util.List<StaticContent> staticContent = new java.util.ArrayList<>();
        private ProxyProtocol proxyProtocol;
        private Path unixSocket;
        private Set<PosixFilePermission> unixSocketPermissions = DEFAULT_UNIX_SOCKET_PERMISSIONS;
        private int http2MaxQueuedOutputBytes = 256 * 1024;

        private Builder() {
        }

        private Builder(ServerOptions o) {
            address = o.address;
            reactors = o.reactors;
            backlog = o.backlog;
            maxConnections = o.maxConnections;
            maxRequestLineBytes = o.maxRequestLineBytes;
            maxHeaderBytes = o.maxHeaderBytes;
            maxHeaderCount = o.maxHeaderCount;
            maxBodyBytes = o.maxBodyBytes;
            maxBufferedBodyBytes = o.maxBufferedBodyBytes;
            bodyAggregationBytes = o.bodyAggregationBytes;
            maxDiscardBytes = o.maxDiscardBytes;
            inboundWindowBytes = o.inboundWindowBytes;
            outboundHighWaterBytes = o.outboundHighWaterBytes;
            idleTimeout = o.idleTimeout;
            headerTimeout = o.headerTimeout;
            bodyTimeout = o.bodyTimeout;
            writeStallTimeout = o.writeStallTimeout;
            minRequestBodyRate = o.minRequestBodyRate;
            minResponseRate = o.minResponseRate;
            errorRenderer = o.errorRenderer;
            nanoClock = o.nanoClock;
            tls = o.tls;
            accessLog = o.accessLog;
            http2PriorKnowledge = o.http2PriorKnowledge;
            http2Upgrade = o.http2Upgrade;
            http2Alpn = o.http2Alpn;
            http2MaxConcurrentStreams = o.http2MaxConcurrentStreams;
            http2InitialWindowBytes = o.http2InitialWindowBytes;
            http2MaxFrameBytes = o.http2MaxFrameBytes;
            http2HeaderTableBytes = o.http2HeaderTableBytes;
            http2MaxResets = o.http2MaxResets;
            http2MaxControlFrames = o.http2MaxControlFrames;
            http2MaxContinuationFrames = o.http2MaxContinuationFrames;
            staticContent.addAll(o.staticContent);
            proxyProtocol = o.proxyProtocol;
            unixSocket = o.unixSocket;
            unixSocketPermissions = o.unixSocketPermissions;
            http2MaxQueuedOutputBytes = o.http2MaxQueuedOutputBytes;
        }

        public Builder address(InetSocketAddress value) { address = value; return this; }
        /** Listens on {@code host:port}; port 0 picks a free port. */
        public Builder address(String host, int port) { address = new InetSocketAddress(host, port); return this; }
        /** Listens on every interface at {@code port}. */
        public Builder port(int port) { address = new InetSocketAddress(port); return this; }
        public Builder reactors(int value) { reactors = value; return this; }
        public Builder backlog(int value) { backlog = value; return this; }
        public Builder maxConnections(int value) { maxConnections = value; return this; }
        public Builder maxRequestLineBytes(int value) { maxRequestLineBytes = value; return this; }
        public Builder maxHeaderBytes(int value) { maxHeaderBytes = value; return this; }
        public Builder maxHeaderCount(int value) { maxHeaderCount = value; return this; }
        /** The largest request body; {@code -1}: no limit (the default). */
        public Builder maxBodyBytes(long value) { maxBodyBytes = value; return this; }
        /** The largest body of a request whose handler buffers it; {@code -1}: no limit. */
        public Builder maxBufferedBodyBytes(long value) { maxBufferedBodyBytes = value; return this; }
        public Builder bodyAggregationBytes(int value) { bodyAggregationBytes = value; return this; }
        public Builder maxDiscardBytes(long value) { maxDiscardBytes = value; return this; }
        public Builder inboundWindowBytes(int value) { inboundWindowBytes = value; return this; }
        public Builder outboundHighWaterBytes(int value) { outboundHighWaterBytes = value; return this; }
        public Builder idleTimeout(Duration value) { idleTimeout = value; return this; }
        public Builder headerTimeout(Duration value) { headerTimeout = value; return this; }
        public Builder bodyTimeout(Duration value) { bodyTimeout = value; return this; }
        public Builder writeStallTimeout(Duration value) { writeStallTimeout = value; return this; }
        /** The least rate of a request body being read; {@code null} turns the check off. */
        public Builder minRequestBodyRate(MinDataRate value) { minRequestBodyRate = value; return this; }
        /** The least rate at which a client takes a blocked response; {@code null} turns the check off. */
        public Builder minResponseRate(MinDataRate value) { minResponseRate = value; return this; }
        public Builder errorRenderer(ErrorRenderer value) { errorRenderer = value; return this; }
        public Builder nanoClock(LongSupplier value) { nanoClock = value; return this; }
        /** Serves HTTPS with {@code value}; {@code null} (the default) serves plain HTTP. */
        public Builder tls(TlsOptions value) { tls = value; return this; }
        /** Writes an access log with {@code value}; {@code null} (the default) writes none. */
        public Builder accessLog(AccessLog value) { accessLog = value; return this; }
        /** h2c by prior knowledge: a clear-text connection starting with the HTTP/2 preface (default on). */
        public Builder http2PriorKnowledge(boolean value) { http2PriorKnowledge = value; return this; }
        /** h2c by {@code Upgrade: h2c} with {@code HTTP2-Settings} on a request without a body (default on). */
        public Builder http2Upgrade(boolean value) { http2Upgrade = value; return this; }
        /** ALPN offers {@code h2} before {@code http/1.1} on TLS (default on). */
        public Builder http2Alpn(boolean value) { http2Alpn = value; return this; }
        /** Turns every HTTP/2 entry on or off at once. */
        public Builder http2(boolean value) {
            http2PriorKnowledge = value;
            http2Upgrade = value;
            http2Alpn = value;
            return this;
        }
        public Builder http2MaxConcurrentStreams(int value) { http2MaxConcurrentStreams = value; return this; }
        public Builder http2InitialWindowBytes(int value) { http2InitialWindowBytes = value; return this; }
        public Builder http2MaxFrameBytes(int value) { http2MaxFrameBytes = value; return this; }
        public Builder http2HeaderTableBytes(int value) { http2HeaderTableBytes = value; return this; }
        public Builder http2MaxResets(int value) { http2MaxResets = value; return this; }
        public Builder http2MaxControlFrames(int value) { http2MaxControlFrames = value; return this; }
        public Builder http2MaxContinuationFrames(int value) { http2MaxContinuationFrames = value; return this; }
        /** Adds static files served at their prefix before the handler ({@link StaticContent}). */
        public Builder staticContent(StaticContent value) {
            staticContent.add(java.util.Objects.requireNonNull(value, "staticContent"));
            return this;
        }
        /** Every connection must begin with a PROXY header from a trusted proxy; {@code null} (the default): off. */
        public Builder proxyProtocol(ProxyProtocol value) { proxyProtocol = value; return this; }
        /** Listens on a Unix domain socket at {@code path} instead of TCP; {@code null} (the default): TCP. */
        public Builder unixSocket(Path path) { unixSocket = path; return this; }
        /** The socket file's permissions (default {@code rw-rw----}). */
        public Builder unixSocketPermissions(Set<PosixFilePermission> value) {
            unixSocketPermissions = value;
            return this;
        }
        /** The socket file's permissions as {@code ls -l} writes them, e.g. {@code "rw-rw-rw-"}. */
        public Builder unixSocketPermissions(String value) {
            unixSocketPermissions = PosixFilePermissions.fromString(value);
            return this;
        }
        /** The output an HTTP/2 connection may hold for its client before it stops reading frames. */
        public Builder http2MaxQueuedOutputBytes(int value) { http2MaxQueuedOutputBytes = value; return this; }

        /** Validates and returns the options; throws {@link IllegalArgumentException} naming a bad setting. */
        public ServerOptions build() {
            return new ServerOptions(address, reactors, backlog, maxConnections, maxRequestLineBytes,
                    maxHeaderBytes, maxHeaderCount, maxBodyBytes, maxBufferedBodyBytes, bodyAggregationBytes, maxDiscardBytes,
                    inboundWindowBytes, outboundHighWaterBytes, idleTimeout, headerTimeout, bodyTimeout,
                    writeStallTimeout, minRequestBodyRate, minResponseRate, errorRenderer, nanoClock, tls,
                    accessLog, http2PriorKnowledge, http2Upgrade, http2Alpn, http2MaxConcurrentStreams,
                    http2InitialWindowBytes, http2MaxFrameBytes, http2HeaderTableBytes, http2MaxResets,
                    http2MaxControlFrames, http2MaxContinuationFrames, staticContent,
                    proxyProtocol, unixSocket, unixSocketPermissions, http2MaxQueuedOutputBytes);
        }
    }
}
