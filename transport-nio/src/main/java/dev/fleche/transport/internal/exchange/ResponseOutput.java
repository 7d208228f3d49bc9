package dev.fleche.transport.internal.exchange;

import dev.fleche.transport.HttpExchange;

import java.io.IOException;
import java.io.OutputStream;
import java.util.Objects;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;

/**
 * A streamed response body. Bytes collect in a small buffer; a full buffer, {@link #flush()} or {@link #close()}
 * hands them to the reactor, which frames and writes them (the head goes with the first hand-over). Backpressure:
 * a writer blocks while the bytes handed over but not yet on the socket exceed the high watermark, and resumes
 * below half of it; the reactor's write-stall timeout closes the connection (failing the writer) if the client
 * stops reading. On a reactor thread writes never block: above the watermark they fail, and the response is
 * aborted (the bytes of that write cannot be kept). It reaches its connection only through the
 * {@link ConnectionDoor}, and its exchange only as the handler does ({@link HttpExchange}).
 */
final class ResponseOutput extends OutputStream implements Exchange.ResponseWriter {
    private static final int BUFFER_BYTES = 8192;

    private final ConnectionDoor door;
    private final int stream;
    private final HttpExchange exchange;
    /** Framed by the connection with the first part. */
    private final ResponseHead head;
    /** A response to {@code HEAD}: its body may be shorter than its {@code Content-Length}. */
    private final boolean headRequest;
    private final long highWater;
    private final ReentrantLock lock = new ReentrantLock();
    private final Condition written = lock.newCondition();
    /** Bytes handed to the reactor whose task has not run yet. */
    private final AtomicLong inTasks = new AtomicLong();
    private volatile boolean waiting;

    // writer side, guarded by lock
    private byte[] buffer;
    private int count;
    private long total;
    private boolean headSent;
    private boolean closed;

    ResponseOutput(ConnectionDoor door, int stream, HttpExchange exchange, ResponseHead head, boolean headRequest) {
        this.door = door;
        this.stream = stream;
        this.exchange = exchange;
        this.head = head;
        this.headRequest = headRequest;
        this.highWater = door.options().outboundHighWaterBytes();
    }

    @Override
    public void write(int b) throws IOException {
        write(new byte[] {(byte) b}, 0, 1);
    }

    @Override
    public void write(byte[] bytes, int offset, int length) throws IOException {
        Objects.checkFromIndexSize(offset, length, bytes.length);
        lock.lock();
        try {
            ensureOpen();
            if (head.contentLength() >= 0 && total + length > head.contentLength()) {
                throw new IOException("response body longer than its Content-Length " + head.contentLength());
            }
            total += length;
            while (length > 0) {
                if (buffer == null) {
                    buffer = new byte[BUFFER_BYTES];
                }
                int n = Math.min(length, buffer.length - count);
                System.arraycopy(bytes, offset, buffer, count, n);
                count += n;
                offset += n;
                length -= n;
                if (count == buffer.length) {
                    handOver(false);
                }
            }
        } finally {
            lock.unlock();
        }
    }

    @Override
    public void flush() throws IOException {
        lock.lock();
        try {
            ensureOpen();
            handOver(false);
        } finally {
            lock.unlock();
        }
    }

    @Override
    public void close() throws IOException {
        lock.lock();
        try {
            if (closed) {
                return;
            }
            if (head.contentLength() >= 0 && total != head.contentLength() && !headRequest) {
                closed = true;
                exchange.abort();
                throw new IOException("response body shorter (" + total + " bytes) than its Content-Length "
                        + head.contentLength() + "; connection aborted");
            }
            ensureOpen();
            handOver(true);
            closed = true;
        } finally {
            lock.unlock();
        }
    }

    private void ensureOpen() throws IOException {
        if (closed) {
            throw new IOException("response stream closed");
        }
        if (!exchange.isOpen()) {
            String reason = door.closeReason();
            throw new IOException("connection closed" + (reason == null ? "" : ": " + reason));
        }
    }

    /** Gives the buffered bytes (and the head, the first time) to the reactor. Caller holds the lock. */
    private void handOver(boolean last) throws IOException {
        if (count == 0 && headSent && !last) {
            return;
        }
        byte[] data = buffer;
        int length = count;
        buffer = null;
        count = 0;
        awaitWindow();
        inTasks.addAndGet(length);
        ResponseHead first = headSent ? null : head;
        headSent = true;
        door.streamPart(stream, first, data, length, last, inTasks);
    }

    private long backlog() {
        return inTasks.get() + door.queuedBytes(stream);
    }

    private void awaitWindow() throws IOException {
        if (backlog() <= highWater) {
            return;
        }
        if (door.inLoop()) {
            // The bytes of this hand-over are already taken: going on would send a body with a hole in it, framed
            // as whole. The stream fails for good and the exchange is aborted (the client sees a cut, not a lie).
            closed = true;
            exchange.abort();
            throw new IOException("outbound buffer full (" + backlog() + " bytes); a reactor thread cannot block;"
                    + " response aborted");
        }
        waiting = true;
        try {
            while (backlog() > highWater / 2) {
                ensureOpen();
                written.await();
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new java.io.InterruptedIOException("interrupted while waiting for the client to read");
        } finally {
            waiting = false;
        }
        ensureOpen();
    }

    /** Reactor: bytes left the outbound queue, or the connection closed; wakes a blocked writer if due. */
    @Override
    public void wakeWriterIfDue() {
        if (waiting && (backlog() <= highWater / 2 || !exchange.isOpen())) {
            lock.lock();
            try {
                written.signalAll();
            } finally {
                lock.unlock();
            }
        }
    }
}
