package dev.fleche.transport.internal.exchange;

import dev.fleche.transport.internal.rules.Refusal;
import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.util.ArrayDeque;
import java.util.function.LongConsumer;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;

/**
 * A request body streamed to a handler thread. The reactor puts what it reads into this body's chunks — by copy
 * ({@link #offer}: HTTP/2 DATA, a chunked body's decoded bytes), or by reading the socket straight into the free end
 * of the last chunk ({@link #writable} then {@link #commit}: an HTTP/1.1 body with a {@code Content-Length}, plain or
 * TLS, so no byte of it is copied by the transport between the socket and the handler's array). The handler blocks
 * in {@link #read} until bytes, the end, or a failure arrive, and copies out of the chunks; a chunk it has emptied
 * goes back to this body's pool (at most {@value #POOLED} kept), so a body of any size allocates a few chunks, not
 * one array per read. When more than the inbound window is queued the reactor stops reading the socket; the reader
 * asks it to resume once it has taken half of it, and is woken only while it waits. The first read sends
 * {@code 100 Continue} when the client asked for it. Locks, not {@code synchronized}, so virtual threads never pin
 * while they wait. It reaches its connection only through the {@link ConnectionDoor}.
 *
 * <p>Chunks: the reactor alone writes the free end of the last one (the tail), without the lock, between
 * {@link #writable} and {@link #commit}; the reader reads only committed bytes, under the lock, and never recycles
 * the tail. A refusal that drops the chunks while the reactor writes makes that commit count for nothing.
 */
public final class BodyInput extends InputStream {
    /** The largest chunk: one socket read of a {@code Content-Length} body at most. */
    public static final int CHUNK_BYTES = 64 * 1024;
    /** The first chunk of a body whose length is not known (a small body stays small; the next are full size). */
    static final int SMALL_CHUNK_BYTES = 16 * 1024;
    /** Emptied chunks kept for reuse: enough for a full window and a read beyond it. */
    static final int POOLED = 3;
    /**
     * Least free space of the tail worth reading into: a TLS record's plaintext, so that the channel decrypts
     * straight into it (less goes through the channel's own buffer first).
     */
    static final int MIN_DIRECT_BYTES = 17 * 1024;

    /** A chunk: bytes {@code [start, end)} committed and not yet read; {@code [end, length)} free. */
    private static final class Chunk {
        final byte[] bytes;
        final ByteBuffer view;
        int start;
        int end;

        Chunk(byte[] bytes) {
            this.bytes = bytes;
            this.view = ByteBuffer.wrap(bytes);
        }
    }

    private final ConnectionDoor door;
    private final int stream;
    /** Claims the response for the transport's 413 and has the connection write it (the exchange's). */
    private final LongConsumer claimOverLimit;
    private final int window;
    private final ReentrantLock lock = new ReentrantLock();
    private final Condition changed = lock.newCondition();
    private final ArrayDeque<Chunk> chunks = new ArrayDeque<>(4);
    private final ArrayDeque<byte[]> pool = new ArrayDeque<>(POOLED);
    /** The chunk the reactor appends to; null when none (or dropped by a refusal). */
    private Chunk tail;
    /** The body bytes still to come when known (HTTP/1.1 {@code Content-Length}), else -1: sizes new chunks. */
    private long expected = -1;
    private long queued;
    private boolean ended;
    private IOException failure;
    private boolean paused;
    private boolean resumeRequested;
    /** The reader waits in {@link #awaitData}: an arrival must wake it (else no signal is needed). */
    private boolean waiting;
    private volatile boolean continueNeeded;
    /** The most bytes the handler may read ({@code HttpExchange.expectBufferedBody()}); the bytes it has read. */
    private long readLimit = Long.MAX_VALUE;
    private long delivered;

    public BodyInput(ConnectionDoor door, int stream, LongConsumer overLimit, int window, boolean expectContinue) {
        this.door = door;
        this.stream = stream;
        this.claimOverLimit = overLimit;
        this.window = window;
        this.continueNeeded = expectContinue;
    }

    /** Reactor, before any byte: the body has {@code length} bytes ({@code Content-Length}); chunks fit it. */
    public void expect(long length) {
        lock.lock();
        try {
            expected = length;
        } finally {
            lock.unlock();
        }
    }

    /**
     * Reactor: queues a copy of {@code bytes[offset, offset+length)}; returns whether more than the window is now
     * queued, in which case the caller must pause reading until the reader has taken half of it. The decision is
     * made under the lock the reader takes, so a reader that empties the queue meanwhile cannot miss it.
     */
    public boolean offer(byte[] bytes, int offset, int length) {
        lock.lock();
        try {
            int at = offset;
            int left = length;
            while (left > 0) {
                Chunk chunk = tailWithRoom(1);
                int n = Math.min(left, chunk.bytes.length - chunk.end);
                System.arraycopy(bytes, at, chunk.bytes, chunk.end, n);
                chunk.end += n;
                at += n;
                left -= n;
            }
            return arrived(length, true);
        } finally {
            lock.unlock();
        }
    }

    /**
     * Reactor: the free end of the tail chunk (a new one when the tail has less than {@link #MIN_DIRECT_BYTES}
     * free, or the rest of the body needs less), at most {@code max} bytes, for the channel to read into; then
     * {@link #commit} what it read. Only the reactor writes there, without the lock.
     */
    public ByteBuffer writable(int max) {
        lock.lock();
        try {
            Chunk chunk = tailWithRoom(Math.min(max, MIN_DIRECT_BYTES));
            int room = Math.min(max, chunk.bytes.length - chunk.end);
            return (ByteBuffer) chunk.view.limit(chunk.end + room).position(chunk.end);
        } finally {
            lock.unlock();
        }
    }

    /**
     * Reactor: {@code n} bytes were read into what {@link #writable} gave; returns whether more than the window is
     * now queued (the caller pauses reading), as {@link #offer} does. The reader is not woken: the reactor reads on
     * while bytes come, then calls {@link #wake} once — one hand-off per batch, not per read.
     */
    public boolean commit(ByteBuffer written, int n) {
        lock.lock();
        try {
            Chunk chunk = tail;
            if (chunk == null || chunk.view != written) {
                return false; // the chunks were dropped meanwhile (a refusal): these bytes count for nothing
            }
            chunk.end += n;
            return arrived(n, false);
        } finally {
            lock.unlock();
        }
    }

    /** Reactor, after a batch of {@link #commit}s: wakes the reader if it waits for bytes that are there now. */
    public void wake() {
        lock.lock();
        try {
            if (waiting && queued > 0) {
                changed.signal();
            }
        } finally {
            lock.unlock();
        }
    }

    /** Under the lock: the tail chunk with at least {@code room} bytes free, appended (from the pool) when needed. */
    private Chunk tailWithRoom(int room) {
        Chunk chunk = tail;
        if (chunk != null && chunk.bytes.length - chunk.end >= Math.max(1, room)) {
            return chunk;
        }
        if (chunk != null && chunk.start == chunk.end) {
            chunks.removeLast(); // read whole: it leaves for the pool now that it is no longer the tail
            recycle(chunk.bytes);
        }
        int size = expected >= 0 ? (int) Math.max(1, Math.min(CHUNK_BYTES, expected - queuedAhead()))
                : queuedAhead() == 0 ? SMALL_CHUNK_BYTES : CHUNK_BYTES;
        byte[] bytes = pool.poll();
        if (bytes == null || bytes.length < Math.min(size, room)) {
            bytes = new byte[size];
        }
        chunk = new Chunk(bytes);
        chunks.add(chunk);
        tail = chunk;
        return chunk;
    }

    /** Bytes of the body the reactor has put here so far (read or not): what of {@link #expected} is covered. */
    private long queuedAhead() {
        return delivered + queued;
    }

    private void recycle(byte[] bytes) {
        if (pool.size() < POOLED) {
            pool.add(bytes);
        }
    }

    /** Under the lock: {@code n} bytes arrived; wakes a waiting reader ({@code wake}); whether the window is full. */
    private boolean arrived(int n, boolean wake) {
        queued += n;
        if (wake && waiting) {
            changed.signal();
        }
        if (queued > window) {
            if (!wake && waiting) {
                changed.signal(); // reading pauses here: the reader must not wait for the batch's end
            }
            paused = true;
            resumeRequested = false; // a resume asked for before this pause is stale
            return true;
        }
        return false;
    }

    /** Reactor, running a resume the reader asked for: whether no pause has happened since. */
    public boolean resumeStillWanted() {
        lock.lock();
        try {
            return !paused;
        } finally {
            lock.unlock();
        }
    }

    public void end() {
        lock.lock();
        try {
            ended = true;
            changed.signalAll();
        } finally {
            lock.unlock();
        }
    }

    public void fail(IOException error) {
        lock.lock();
        try {
            if (!ended && failure == null) {
                failure = error;
            }
            changed.signalAll();
        } finally {
            lock.unlock();
        }
    }

    /**
     * The transport refused the body (bad framing, a limit, too slow): what is queued is dropped, even a complete
     * body, and every read from now on fails with {@code error}.
     */
    void refuse(IOException error) {
        lock.lock();
        try {
            dropQueued();
            failure = error;
            changed.signalAll();
        } finally {
            lock.unlock();
        }
    }

    /** Under the lock: forgets every chunk (a write the reactor is making into the tail will count for nothing). */
    private void dropQueued() {
        chunks.clear();
        tail = null;
        queued = 0;
    }

    /**
     * The handler buffers this body: it gets no more than {@code max} bytes. A read with more waiting fails with
     * {@code 413}, even before the reactor has applied the limit to what arrives (it refuses the body then too).
     */
    void limit(long max) {
        lock.lock();
        try {
            readLimit = Math.min(readLimit, max);
        } finally {
            lock.unlock();
        }
    }

    @Override
    public int read() throws IOException {
        byte[] one = new byte[1];
        int n = read(one, 0, 1);
        return n < 0 ? -1 : one[0] & 0xFF;
    }

    @Override
    public int read(byte[] target, int offset, int length) throws IOException {
        java.util.Objects.checkFromIndexSize(offset, length, target.length);
        if (length == 0) {
            return 0;
        }
        requestContinue();
        boolean resume;
        boolean overLimit = false;
        int taken;
        lock.lock();
        try {
            awaitData();
            if (queued > 0 && delivered >= readLimit && failure == null) {
                overLimit = true; // more than the limit arrived before the reactor could refuse it
                dropQueued();
                failure = Refusal.tooLargeException(readLimit);
            }
            if (queued == 0) {
                if (overLimit) {
                    claimOverLimit.accept(readLimit);
                }
                if (failure instanceof dev.fleche.transport.RequestBodyException) {
                    throw failure; // the client's: no stack trace of ours to add
                }
                if (failure != null) {
                    throw new IOException(failure.getMessage(), failure);
                }
                return -1;
            }
            taken = take(target, offset, (int) Math.min(length, readLimit - delivered));
            delivered += taken;
            resume = paused && !resumeRequested && queued <= window / 2;
            if (resume) {
                resumeRequested = true;
                paused = false;
            }
        } finally {
            lock.unlock();
        }
        if (resume) {
            door.readerCaughtUp(stream);
        }
        return taken;
    }

    private void awaitData() throws IOException {
        while (queued == 0 && !ended && failure == null) {
            if (door.inLoop()) {
                throw new IllegalStateException("request body not fully received; a reactor thread cannot block");
            }
            waiting = true;
            try {
                changed.await();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new java.io.InterruptedIOException("interrupted while reading the request body");
            } finally {
                waiting = false;
            }
        }
    }

    /** Under the lock: copies up to {@code length} committed bytes out; emptied chunks but the tail are recycled. */
    private int take(byte[] target, int offset, int length) {
        int taken = 0;
        while (taken < length && !chunks.isEmpty()) {
            Chunk chunk = chunks.peek();
            int n = Math.min(length - taken, chunk.end - chunk.start);
            System.arraycopy(chunk.bytes, chunk.start, target, offset + taken, n);
            taken += n;
            chunk.start += n;
            if (chunk.start < chunk.end || chunk == tail) {
                break; // bytes left in it, or the reactor may still append to it
            }
            chunks.poll();
            recycle(chunk.bytes);
        }
        queued -= taken;
        return taken;
    }

    private void requestContinue() {
        if (continueNeeded) {
            continueNeeded = false;
            door.sendContinue(stream);
        }
    }

    @Override
    public int available() {
        lock.lock();
        try {
            return (int) Math.min(Integer.MAX_VALUE, queued);
        } finally {
            lock.unlock();
        }
    }
}
