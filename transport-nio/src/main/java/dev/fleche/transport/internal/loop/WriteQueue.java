package dev.fleche.transport.internal.loop;

import dev.fleche.transport.internal.channel.ConnectionChannel;
import dev.fleche.transport.internal.channel.FileRegion;
import dev.fleche.transport.internal.channel.PlainChannel;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.ArrayDeque;
import java.util.Arrays;

/**
 * What a connection writes, on its way to its {@link ConnectionChannel}: bytes are staged in the reactor's staging
 * buffer ({@link Reactor#stage}: the reactor writes another owner's bytes first, so a buffer holds one connection's
 * bytes), written in order, and what the channel does not take is queued — a {@link FileRegion} in its turn, sent with
 * {@code transferTo}. It holds the queue, its byte count (the reactor's queued-output gauge moves with it) and the
 * write-stall clock; it never decides the connection's state (the connection reads {@link #queued()} and acts) and
 * frames nothing: HTTP/1.1 frames responses into it ({@code http1.Outbound}), HTTP/2 its frames
 * ({@code http2.Http2Framer}). Reactor thread only, except {@link #queuedBytes()}, read by blocked writers.
 *
 * <p>Writes only stage bytes: the reactor flushes the staging buffer's owner once a unit of work is done (a
 * readiness event, a task, the timers), so that what one unit produces (pipelined responses, a burst of frames)
 * leaves in one write.
 */
public class WriteQueue {
    /** Bodies up to this are copied into the staging buffer; larger ones are queued as they are. */
    private static final int INLINE_BODY_BYTES = 8192;
    /** Staged bytes beyond this are written at once rather than at the end of the unit of work. */
    public static final int STAGING_FLUSH_BYTES = 16 * 1024;
    /** The most queued buffers written in one call (a gathering write; TLS fills its records from them). */
    private static final int GATHER = 16;
    /**
     * A queued buffer smaller than this is written together with those behind it (a response's head with its body,
     * an HTTP/2 frame's header with its payload: one system call, one TLS record); a larger one goes alone.
     */
    private static final int SMALL = 4096;

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
    /** The buffers of one gathering write (null until the queue first holds more than one). */
    private ByteBuffer[] batch;
    /** File regions queued (plain channel only), one {@link #FILE_MARK} each in {@link #queue}; null until one is. */
    private ArrayDeque<FileRegion> files;
    /** Bytes queued for the channel and not yet written; read by blocked writers on other threads. */
    private volatile long queuedBytes;
    private long lastWriteProgress;
    /** The channel holds bytes of its own it could not write yet (TLS records): they go before ours. */
    private boolean channelHolding;

    public WriteQueue(Reactor reactor, ConnectionChannel channel, Reactor.Attachment owner) {
        this.reactor = reactor;
        this.channel = channel;
        this.owner = owner;
    }

    /**
     * Queues {@code region} of a file behind what is staged: it goes from its channel to the socket, in its turn.
     * Plain channels only (the connection decides).
     */
    protected final void file(FileRegion region) {
        stagingToQueue();
        if (files == null) {
            files = new ArrayDeque<>(2);
        }
        files.add(region);
        enqueue(FILE_MARK);
        addQueued(region.remaining());
    }

    /** Where the staged bytes end now; a failed head is cut back to it with {@link #truncate}. */
    public final int mark() {
        return stage().size();
    }

    public final void truncate(int mark) {
        stage().truncate(mark);
    }

    /** The reactor's staging buffer, handed to this connection (the reactor writes another owner's bytes first). */
    protected final ByteSink stage() {
        return reactor.stage(owner);
    }

    /** Bytes staged by this connection and not yet written. */
    public final int stagedBytes() {
        return reactor.stagedBy(owner);
    }

    /**
     * Bytes framed by the caller (HTTP/2 frames): copied into the staging buffer when small, else queued as they
     * are, after what is staged (the array must not change until written).
     */
    public final void raw(byte[] bytes, int offset, int length) {
        if (length <= INLINE_BODY_BYTES) {
            stage().put(bytes, offset, length);
            return;
        }
        stagingToQueue();
        enqueue(ByteBuffer.wrap(bytes, offset, length));
    }

    /**
     * The remaining bytes of {@code bytes}, a buffer that must not change until written (it may be direct: written
     * from where it is): copied into the staging buffer when small, else queued as it is, after what is staged.
     */
    public final void raw(ByteBuffer bytes) {
        if (bytes.hasArray()) {
            raw(bytes.array(), bytes.arrayOffset() + bytes.position(), bytes.remaining());
            return;
        }
        if (bytes.remaining() <= INLINE_BODY_BYTES) {
            stage().put(bytes);
            return;
        }
        stagingToQueue();
        enqueue(bytes.slice());
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
    public final boolean queued() {
        return channelHolding || (queue != null && !queue.isEmpty());
    }

    /** Whether anything of this connection waits to be written, staged or queued. */
    public final boolean pending() {
        return queued() || stagedBytes() > 0;
    }

    /** The bytes produced for the client that its socket has not taken: staged and queued. */
    public final long unsentBytes() {
        return stagedBytes() + queuedBytes;
    }

    /** Queued bytes not yet written, for blocked writers on any thread. */
    public final long queuedBytes() {
        return queuedBytes;
    }

    public final long lastWriteProgress() {
        return lastWriteProgress;
    }

    /**
     * Writes the staged bytes, then the queue, as far as the channel takes them; the rest stays queued (the
     * connection keeps {@code OP_WRITE} on while {@link #queued()}). Returns the number of bytes written.
     */
    public final long flush() throws IOException {
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
            int n = gather(waiting);
            ByteBuffer last = n == 1 ? head : batch[n - 1];
            total += n == 1 ? channel.write(head) : channel.write(batch, 0, n);
            if (n > 1) {
                Arrays.fill(batch, 0, n, null);
            }
            for (int i = 0; i < n && !waiting.peek().hasRemaining(); i++) {
                waiting.poll();
            }
            if (last.hasRemaining()) {
                break; // the channel took what it could
            }
        }
        if (total > 0) {
            addQueued(-total);
        }
        return total;
    }

    /**
     * When the head of {@code waiting} is small, puts it and the byte buffers behind it (up to a file's mark, at most
     * {@value #GATHER} of them) in {@link #batch} for one gathering write; returns how many (1: the head alone, not
     * put there).
     */
    private int gather(ArrayDeque<ByteBuffer> waiting) {
        if (waiting.size() == 1 || waiting.peek().remaining() >= SMALL) {
            return 1; // alone, or a large buffer, which goes alone
        }
        if (batch == null) {
            batch = new ByteBuffer[GATHER];
        }
        int n = 0;
        for (ByteBuffer buffer : waiting) {
            if (buffer == FILE_MARK || n == GATHER) {
                break;
            }
            batch[n++] = buffer;
        }
        if (n == 1) {
            batch[0] = null; // a file's mark behind it: the head alone
        }
        return n;
    }

    /** On close: forgets the queued bytes, and closes the files it had yet to send. */
    public final void drop() {
        queue = null;
        addQueued(-queuedBytes);
        if (files != null) {
            for (FileRegion region : files) {
                region.close();
            }
            files = null;
        }
    }
}
