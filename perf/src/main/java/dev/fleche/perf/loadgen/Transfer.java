package dev.fleche.perf.loadgen;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.StandardSocketOptions;
import java.nio.ByteBuffer;
import java.nio.channels.SelectionKey;
import java.nio.channels.Selector;
import java.nio.channels.SocketChannel;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Locale;

/**
 * One large body through one connection, timed: an upload ({@code POST} of {@code bytes} zeros with
 * {@code Content-Length}, streamed from one buffer; the server must answer {@code 200} with the count of bytes it
 * read) or a download ({@code GET}; the server must answer {@code 200} with a body of exactly {@code bytes}, in any
 * framing). Non-blocking, one selector: the response is read while the request is still being sent, so a server
 * that answers early (413, 500) is seen. A transfer that makes no progress for {@code stall} fails.
 *
 * <p>Over TLS ({@link LoadSpec.Tls}) the same exchange runs through a {@link TlsLink}; the time includes the
 * handshake.
 *
 * <p>Once connected, nothing is thrown for what the server does: every failure (status, wrong count, short body,
 * closed connection, stall) comes back as {@link Result#failure()}.
 */
public final class Transfer {
    private static final int BUFFER = 256 * 1024;

    /**
     * @param bytes body bytes sent (upload) or received (download)
     * @param seconds from the connect to the end of the response
     * @param failure what went wrong, or null
     */
    public record Result(long bytes, double seconds, String failure) {
        public boolean ok() {
            return failure == null;
        }

        /** MiB per second, NaN for a failed transfer. */
        public double mibPerSecond() {
            return ok() && seconds > 0 ? bytes / (1024.0 * 1024.0) / seconds : Double.NaN;
        }
    }

    private Transfer() {
    }

    /** {@code POST path} with {@code bytes} zeros ({@code application/octet-stream}); expects their count back. */
    public static Result upload(String host, int port, String path, long bytes, Duration stall) throws IOException {
        return upload(host, port, path, bytes, stall, LoadSpec.Tls.NONE);
    }

    /** {@link #download(String, int, String, long, Duration)} over {@code tls}. */
    public static Result download(String host, int port, String path, long bytes, Duration stall) throws IOException {
        return download(host, port, path, bytes, stall, LoadSpec.Tls.NONE);
    }

    /** {@link #upload(String, int, String, long, Duration)} over {@code tls}. */
    public static Result upload(String host, int port, String path, long bytes, Duration stall, LoadSpec.Tls tls)
            throws IOException {
        String head = "POST " + path + " HTTP/1.1\r\nHost: " + host + ":" + port
                + "\r\nContent-Type: application/octet-stream\r\nContent-Length: " + bytes + "\r\n\r\n";
        ResponseParser parser = new ResponseParser(Long.toString(bytes).getBytes(StandardCharsets.US_ASCII));
        return new Exchange(head, bytes, parser, stall, tls).run(host, port, () -> parser.bodyMatches() ? null
                : "the body is not the count " + bytes + " (" + parser.bodyLength() + " bytes)");
    }

    /** {@link #download(String, int, String, long, Duration)} over {@code tls}. */
    public static Result download(String host, int port, String path, long bytes, Duration stall, LoadSpec.Tls tls)
            throws IOException {
        String head = "GET " + path + " HTTP/1.1\r\nHost: " + host + ":" + port + "\r\n\r\n";
        ResponseParser parser = new ResponseParser(null);
        return new Exchange(head, 0, parser, stall, tls).run(host, port, () -> parser.bodyLength() == bytes ? null
                : "a body of " + parser.bodyLength() + " bytes, not " + bytes);
    }

    /** What a complete 200 response must also satisfy: null when it does, else what is wrong. */
    private interface Check {
        String problem();
    }

    /** The one exchange: writes the head and the body, reads and parses the response, both as the socket allows. */
    private static final class Exchange {
        private final ByteBuffer head;
        private final long bodyBytes;
        private final ResponseParser parser;
        private final long stallNanos;
        private final ByteBuffer zeros = ByteBuffer.allocateDirect(BUFFER);
        private final ByteBuffer in = ByteBuffer.allocateDirect(BUFFER);
        private final LoadSpec.Tls tlsMode;
        private TlsLink tls;
        private long bodyLeft;

        Exchange(String head, long bodyBytes, ResponseParser parser, Duration stall, LoadSpec.Tls tls) {
            this.tlsMode = tls;
            this.head = ByteBuffer.wrap(head.getBytes(StandardCharsets.US_ASCII));
            this.bodyBytes = bodyBytes;
            this.bodyLeft = bodyBytes;
            this.parser = parser;
            this.stallNanos = stall.toNanos();
        }

        Result run(String host, int port, Check check) throws IOException {
            long t0 = System.nanoTime();
            try (SocketChannel ch = SocketChannel.open(); Selector selector = Selector.open()) {
                ch.setOption(StandardSocketOptions.TCP_NODELAY, true);
                ch.connect(new InetSocketAddress(host, port));
                ch.configureBlocking(false);
                if (tlsMode != LoadSpec.Tls.NONE) {
                    tls = new TlsLink(new TlsClient(tlsMode, port, 1).newEngine(0), new TlsLink.Buffers());
                }
                SelectionKey key = ch.register(selector, SelectionKey.OP_READ | SelectionKey.OP_WRITE);
                String failure = loop(ch, key, selector);
                double seconds = (System.nanoTime() - t0) / 1e9;
                if (failure == null) {
                    failure = parser.status() != 200 ? "status " + parser.status() : check.problem();
                }
                if (failure == null && bodyLeft > 0) {
                    failure = "answered after " + (bodyBytes - bodyLeft) + " of " + bodyBytes + " body bytes";
                }
                long moved = bodyBytes > 0 ? bodyBytes - bodyLeft : parser.bodyLength();
                return new Result(moved, seconds, failure);
            }
        }

        /** Runs until the response is complete (null) or the exchange failed (what went wrong). */
        private String loop(SocketChannel ch, SelectionKey key, Selector selector) throws IOException {
            long progress = System.nanoTime();
            while (true) {
                long left = stallNanos - (System.nanoTime() - progress);
                if (left <= 0) {
                    return "no progress for " + stallNanos / 1_000_000_000 + " s (" + where() + ")";
                }
                selector.select(Math.max(1, left / 1_000_000));
                selector.selectedKeys().clear();
                try {
                    if (key.isValid() && key.isWritable() && write(ch) > 0) {
                        progress = System.nanoTime();
                    }
                    boolean sent = !head.hasRemaining() && bodyLeft == 0 && (tls == null || !tls.hasHeldOutput());
                    if (sent && key.interestOps() != SelectionKey.OP_READ) {
                        key.interestOps(SelectionKey.OP_READ);
                    }
                    do { // TLS: again while decrypted records did not fit the buffer
                        in.clear();
                        int n = tls == null ? ch.read(in) : tls.read(ch, in);
                        if (n < 0) {
                            return parser.endOfInput() ? null : "connection closed by the server (" + where() + ")";
                        }
                        if (n > 0) {
                            progress = System.nanoTime();
                            in.flip();
                            if (parser.feed(in)) {
                                return null;
                            }
                            if (parser.failed()) {
                                return "bad response: " + parser.failure();
                            }
                        }
                    } while (tls != null && tls.moreBuffered());
                } catch (IOException e) {
                    return "socket error: " + e.getMessage() + " (" + where() + ")";
                }
            }
        }

        private int write(SocketChannel ch) throws IOException {
            if (head.hasRemaining()) {
                return send(ch, head);
            }
            if (bodyLeft == 0) {
                if (tls != null && tls.hasHeldOutput()) {
                    tls.write(ch, head);
                }
                return 0;
            }
            zeros.clear().limit((int) Math.min(zeros.capacity(), bodyLeft));
            int n = send(ch, zeros);
            bodyLeft -= n;
            return n;
        }

        /** Writes what the socket takes of {@code src} (through TLS when on); returns the bytes of src taken. */
        private int send(SocketChannel ch, ByteBuffer src) throws IOException {
            if (tls == null) {
                return ch.write(src);
            }
            int before = src.position();
            tls.write(ch, src);
            return src.position() - before;
        }

        private String where() {
            if (head.hasRemaining() || bodyLeft > 0) {
                return String.format(Locale.ROOT, "%d of %d body bytes sent", bodyBytes - bodyLeft, bodyBytes);
            }
            return parser.headReceived() ? "status " + parser.status() + ", " + parser.bodyLength()
                    + " body bytes received" : "no response head";
        }
    }
}
