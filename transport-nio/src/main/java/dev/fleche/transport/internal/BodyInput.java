package dev.fleche.transport.internal;

import java.io.IOException;
import java.io.InputStream;
import java.util.ArrayDeque;
import java.util.function.LongConsumer;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;

/**
 * A request body streamed to a handler thread. The reactor {@link #offer}s copies of what it reads; the handler
 * blocks in {@link #read} until bytes, the end, or a failure arrive. When more than the inbound window is
 * queued the reactor stops reading the socket; the reader asks it to resume once it has taken half of it.
 * The first read sends {@code 100 Continue} when the client asked for it. Locks, not {@code synchronized}, so
 * virtual threads never pin while they wait. It reaches its connection only through the {@link ConnectionDoor}.
 */
final class BodyInput extends InputStream {
    private final ConnectionDoor door;
    private final int stream;
    /** Claims the response for the transport's 413 and has the connection write it (the exchange's). */
    private final LongConsumer claimOverLimit;
    private final int window;
    private final ReentrantLock lock = new ReentrantLock();
    private final Condition changed = lock.newCondition();
    private final ArrayDeque<byte[]> chunks = new ArrayDeque<>();
    private int headOffset;
    private long queued;
    private boolean ended;
    private IOException failure;
    private boolean paused;
    private boolean resumeRequested;
    private volatile boolean continueNeeded;
    /** The most bytes the handler may read ({@code HttpExchange.expectBufferedBody()}); the bytes it has read. */
    private long readLimit = Long.MAX_VALUE;
    private long delivered;

    BodyInput(ConnectionDoor door, int stream, LongConsumer overLimit, int window, boolean expectContinue) {
        this.door = door;
        this.stream = stream;
        this.claimOverLimit = overLimit;
        this.window = window;
        this.continueNeeded = expectContinue;
    }

    /**
     * Reactor: queues a copy of {@code bytes[offset, offset+length)}; returns whether more than the window is now
     * queued, in which case the caller must pause reading until the reader has taken half of it. The decision is
     * made under the lock the reader takes, so a reader that empties the queue meanwhile cannot miss it.
     */
    boolean offer(byte[] bytes, int offset, int length) {
        byte[] copy = java.util.Arrays.copyOfRange(bytes, offset, offset + length);
        lock.lock();
        try {
            chunks.add(copy);
            queued += length;
            changed.signalAll();
            if (queued > window) {
                paused = true;
                resumeRequested = false; // a resume asked for before this pause is stale
                return true;
            }
            return false;
        } finally {
            lock.unlock();
        }
    }

    /** Reactor, running a resume the reader asked for: whether no pause has happened since. */
    boolean resumeStillWanted() {
        lock.lock();
        try {
            return !paused;
        } finally {
            lock.unlock();
        }
    }

    void end() {
        lock.lock();
        try {
            ended = true;
            changed.signalAll();
        } finally {
            lock.unlock();
        }
    }

    void fail(IOException error) {
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
            chunks.clear();
            queued = 0;
            headOffset = 0;
            failure = error;
            changed.signalAll();
        } finally {
            lock.unlock();
        }
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
            if (!chunks.isEmpty() && delivered >= readLimit && failure == null) {
                overLimit = true; // more than the limit arrived before the reactor could refuse it
                chunks.clear();
                queued = 0;
                headOffset = 0;
                failure = Refusal.tooLargeException(readLimit);
            }
            if (chunks.isEmpty()) {
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
        while (chunks.isEmpty() && !ended && failure == null) {
            if (door.inLoop()) {
                throw new IllegalStateException("request body not fully received; a reactor thread cannot block");
            }
            try {
                changed.await();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new java.io.InterruptedIOException("interrupted while reading the request body");
            }
        }
    }

    private int take(byte[] target, int offset, int length) {
        int taken = 0;
        while (taken < length && !chunks.isEmpty()) {
            byte[] chunk = chunks.peek();
            int n = Math.min(length - taken, chunk.length - headOffset);
            System.arraycopy(chunk, headOffset, target, offset + taken, n);
            taken += n;
            headOffset += n;
            if (headOffset == chunk.length) {
                chunks.poll();
                headOffset = 0;
            }
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
