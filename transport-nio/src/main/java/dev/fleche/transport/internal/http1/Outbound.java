package dev.fleche.transport.internal.http1;

import dev.fleche.transport.internal.loop.ByteSink;
import dev.fleche.transport.internal.channel.ConnectionChannel;
import dev.fleche.transport.internal.channel.FileRegion;
import dev.fleche.transport.internal.channel.PlainChannel;
import dev.fleche.transport.internal.rules.RateWindow;
import dev.fleche.transport.internal.loop.Reactor;
import dev.fleche.transport.internal.exchange.ResponseHead;
import dev.fleche.transport.MinDataRate;

import dev.fleche.transport.HttpFields;
import dev.fleche.transport.http1.RequestHead;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.ArrayDeque;
import java.util.Arrays;

/**
 * The outbound part of an HTTP/1.1 connection, built like {@code Inbound} from what it works with (the reactor, the
 * channel): frames responses (whole, streamed, {@code 100 Continue}, refusals, a head whose body is a
 * {@link FileRegion}) into the reactor's staging buffer, writes them through the {@link ConnectionChannel} in request
 * order, and queues what the channel does not take — a file region in its turn, sent with {@code transferTo}. It
 * holds the framing of the response in flight (streamed, chunked, closing) and the write-stall clock. It never
 * decides the connection's state (the connection reads {@link #queued()} and acts) and never touches another
 * connection: the reactor hands its staging buffer over ({@link Reactor#stage}). Reactor thread only, except
 * {@link #queuedBytes()}, read by blocked writers.
 *
 * <p>Writes only stage bytes: the reactor flushes the staging buffer's owner once a unit of work is done (a
 * readiness event, a task, the timers), so that responses produced together (pipelining) leave in one write.
 */
public final class Outbound {
    /** Bodies up to this are copied into the staging buffer; larger ones are queued as they are. */
    private static final int INLINE_BODY_BYTES = 8192;
    /** Staged bytes beyond this are written at once rather than at the end of the unit of work. */
    public static final int STAGING_FLUSH_BYTES = 16 * 1024;

    /**
     * In the queue, the place of the next {@link FileRegion} of {@link #files}: the queue stays one of byte buffers, and
     * a region goes out exactly in its turn. Only its identity counts.
     */
    private static final ByteBuffer FILE_MARK = ByteBuffer.allocate(0);

    private final Reactor reactor;
    private final ConnectionChannel channel;
    /** Whose bytes these are in the reactor's staging buffer. */
    private final Reactor.Attachment owner;
    private ArrayDeque<ByteBuffer> queue;
    /** File regions queued (plain channel only), one {@link #FILE_MARK} each in {@link #queue}; null until one is. */
    private ArrayDeque<FileRegion> files;
    /** Bytes queued for the channel and not yet written; read by blocked writers on other threads. */
    private volatile long queuedBytes;
    private long lastWriteProgress;
    /** The channel holds bytes of its own it could not write yet (TLS records): they go before ours. */
    private boolean channelHolding;

    // the response in flight
    private boolean streamBody;
    private boolean streamChunked;
    private boolean streamCloses;
    /** The minimum response rate's window, made the first time bytes wait for the client (null until then). */
    private RateWindow rate;

    public Outbound(Reactor reactor, ConnectionChannel channel, Reactor.Attachment owner) {
        this.reactor = reactor;
        this.channel = channel;
        this.owner = owner;
    }

    /** A new exchange starts: forgets the previous response's framing. */
    void newExchange() {
        streamBody = false;
        streamChunked = false;
        streamCloses = false;
    }

    // ---------------------------------------------------------------- framing

    /** Frames a whole response to {@code request}. */
    void whole(RequestHead request, int status, String reason, HttpFields fields, byte[] body, boolean close) {
        boolean isHead = isHead(request);
        reactor.encoder.encodeHead(stage(), status, reason, fields, body.length, false, close, keepAliveOn10(request),
                isHead);
        if (!isHead && ResponseEncoder.bodyAllowed(status)) {
            appendBody(body, body.length);
        }
    }

    /** Frames the head of a streamed response; RFC 9112 6.1: no chunked coding towards an HTTP/1.0 client. */
    void streamHead(RequestHead request, ResponseHead head, boolean close) {
        boolean chunked = head.chunked() && request.minorVersion() != 0;
        boolean isHead = isHead(request);
        reactor.encoder.encodeHead(stage(), head.status(), head.reason(), head.fields(),
                head.contentLength(), chunked, close, keepAliveOn10(request), isHead);
        streamCloses = close;
        streamBody = !isHead && ResponseEncoder.bodyAllowed(head.status());
        streamChunked = chunked && streamBody;
    }

    private static boolean isHead(RequestHead request) {
        return "HEAD".equals(request.method());
    }

    /** An HTTP/1.0 request that asked for keep-alive: the response says so. */
    private static boolean keepAliveOn10(RequestHead request) {
        return request.minorVersion() == 0 && request.keepAlive();
    }

    /** Frames a part of a streamed body (dropped when the response has no body, or its head was refused). */
    void streamData(byte[] data, int length) {
        if (length > 0 && streamBody) {
            if (streamChunked) {
                ByteSink sink = stage();
                sink.putHex(length);
                sink.put(ResponseEncoder.CRLF);
                appendBody(data, length);
                stage().put(ResponseEncoder.CRLF);
            } else {
                appendBody(data, length);
            }
        }
    }

    /** Ends a streamed body; returns whether the connection closes after it. */
    boolean streamEnd() {
        if (streamChunked) {
            stage().putAscii("0\r\n\r\n");
        }
        return streamCloses;
    }

    /**
     * Frames the head of a response whose body is {@code region} of a file, and queues the region behind it: the
     * file goes from its channel to the socket ({@link FileRegion}). Plain channels only (the connection decides).
     * A response to {@code HEAD} gets the head alone, and the region is closed.
     */
    void file(RequestHead request, int status, HttpFields fields, FileRegion region, boolean close) {
        boolean isHead = isHead(request);
        reactor.encoder.encodeHead(stage(), status, null, fields, region.remaining(), false, close,
                keepAliveOn10(request), isHead);
        if (isHead || !ResponseEncoder.bodyAllowed(status) || region.done()) {
            region.close();
            return;
        }
        stagingToQueue();
        if (files == null) {
            files = new ArrayDeque<>(2);
        }
        files.add(region);
        enqueue(FILE_MARK);
        addQueued(region.remaining());
    }

    /** Frames a refusal of the transport's own; the connection closes after it. */
    void refusal(int status, String reason, boolean head) {
        reactor.encoder.encodeRefusal(stage(), status, reason, reactor.options.errorRenderer(), null, head);
        streamCloses = true;
    }

    /** Frames {@code 100 Continue} (the connection asks once per exchange). */
    void sendContinue() {
        stage().put(ResponseEncoder.CONTINUE);
    }

    /** Where the staged bytes end now; a failed head is cut back to it with {@link #truncate}. */
    int mark() {
        return stage().size();
    }

    void truncate(int mark) {
        stage().truncate(mark);
    }

    // ---------------------------------------------------------------- staging and queue

    /** The reactor's staging buffer, handed to this connection (the reactor writes another owner's bytes first). */
    private ByteSink stage() {
        return reactor.stage(owner);
    }

    /** Bytes staged by this connection and not yet written. */
    public int stagedBytes() {
        return reactor.stagedBy(owner);
    }

    private void appendBody(byte[] body, int length) {
        raw(body, 0, length);
    }

    /**
     * Bytes framed by the caller (HTTP/2 frames): copied into the staging buffer when small, else queued as they
     * are, after what is staged (the array must not change until written).
     */
    public void raw(byte[] bytes, int offset, int length) {
        if (length <= INLINE_BODY_BYTES) {
            stage().put(bytes, offset, length);
            return;
        }
        stagingToQueue();
        enqueue(ByteBuffer.wrap(bytes, offset, length));
    }

    /** Moves the staged bytes behind the queue; the connection stays the staging owner so that the reactor flushes it. */
    private void stagingToQueue() {
        ByteSink staging = stage();
        if (staging.size() > 0) {
            enqueue(ByteBuffer.wrap(staging.toByteArray()));
            staging.clear();
        }
    }

    private void enqueue(ByteBuffer buffer) {
        if (queue == null) {
            queue = new ArrayDeque<>(4);
        }
        if (queue.isEmpty()) {
            lastWriteProgress = reactor.now; // the write-stall clock starts when bytes start waiting
        }
        queue.add(buffer);
        addQueued(buffer.remaining());
    }

    /** {@code n} more bytes queued (fewer when negative): this connection's count and its reactor's gauge. */
    private void addQueued(long n) {
        queuedBytes += n;
        reactor.counters.queuedOutputBytes += n;
    }

    /** Whether bytes are queued that the channel has not taken yet, or that the channel has not sent yet. */
    public boolean queued() {
        return channelHolding || (queue != null && !queue.isEmpty());
    }

    /** Whether anything of this connection waits to be written, staged or queued. */
    boolean pending() {
        return queued() || stagedBytes() > 0;
    }

    /** Queued bytes not yet written, for blocked writers on any thread. */
    public long queuedBytes() {
        return queuedBytes;
    }

    public long lastWriteProgress() {
        return lastWriteProgress;
    }

    /**
     * Writes the staged bytes, then the queue, as far as the channel takes them; the rest stays queued (the
     * connection keeps {@code OP_WRITE} on while {@link #queued()}). Returns the number of bytes written.
     */
    public long flush() throws IOException {
        long written = 0;
        if (reactor.stages(owner)) {
            ByteSink staging = reactor.staging;
            int size = staging.size();
            try {
                if (size > 0 && !queued() && channelFlushed(channel)) {
                    ByteBuffer direct = ByteBuffer.wrap(staging.array(), 0, size);
                    written += channel.write(direct);
                    if (direct.hasRemaining()) {
                        enqueue(ByteBuffer.wrap(Arrays.copyOfRange(staging.array(), direct.position(), size)));
                    }
                } else if (size > 0) {
                    enqueue(ByteBuffer.wrap(staging.toByteArray()));
                }
            } finally {
                reactor.releaseStaging(owner);
            }
        }
        written += writeQueue(channel);
        if (written > 0) {
            lastWriteProgress = reactor.now;
        }
        return written;
    }

    /** Lets the channel write bytes of its own first (TLS records); returns whether it holds none now. */
    private boolean channelFlushed(ConnectionChannel channel) throws IOException {
        channelHolding = !channel.flush();
        return !channelHolding;
    }

    private long writeQueue(ConnectionChannel channel) throws IOException {
        ArrayDeque<ByteBuffer> waiting = queue;
        if (!channelFlushed(channel) || waiting == null || waiting.isEmpty()) {
            return 0;
        }
        long total = 0;
        while (!waiting.isEmpty()) {
            ByteBuffer head = waiting.peek();
            if (head == FILE_MARK) {
                FileRegion region = files.peek();
                total += region.transferTo(((PlainChannel) channel).socket()); // Changed: the connection closes
                if (!region.done()) {
                    break;
                }
                region.close();
                files.poll();
                waiting.poll();
                continue;
            }
            total += channel.write(head);
            if (head.hasRemaining()) {
                break;
            }
            waiting.poll();
        }
        if (total > 0) {
            addQueued(-total);
        }
        return total;
    }

    /** On close: forgets the queued bytes, and closes the files it had yet to send. */
    public void drop() {
        queue = null;
        addQueued(-queuedBytes);
        if (files != null) {
            for (FileRegion region : files) {
                region.close();
            }
            files = null;
        }
    }

    // ---------------------------------------------------------------- minimum data rate

    /** The rate window, made on first use; null when {@code min} is null (the rate is off). */
    RateWindow rateWindow(MinDataRate min) {
        return rate != null ? rate : (rate = RateWindow.of(min));
    }

    /** The rate window, or null when none was made. */
    RateWindow rate() {
        return rate;
    }
}
