package dev.fleche.transport.internal.exchange;

import java.io.IOException;
import java.util.ArrayDeque;
import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.ReentrantLock;

/**
 * A response body of known length read off the reactor (a file over TLS or HTTP/2, a class-path resource) and
 * handed to the connection's streaming path part by part, as fast as the client takes it: the same path a
 * handler's streamed response takes, so HTTP/2 flow control, the write-stall timeout and the minimum response rate
 * apply unchanged. No thread waits on the client: a read runs on a reader thread only when a buffer is free, and
 * the loop frees buffers as their bytes leave ({@link #wakeWriterIfDue}, told on every write of the connection).
 *
 * <p>Buffers: at most {@code max(2, outboundHighWaterBytes / 128 KiB)} of {@value #CHUNK_BYTES} bytes per response,
 * each lent to the loop with its part and taken back once the connection holds none of its bytes any more — known
 * on the loop as: every byte handed over, but those in hand-over tasks not yet run ({@code handedOver}) and those the
 * connection still queues for the stream ({@link ConnectionDoor#queuedBytes}, which counts every place a part's
 * array can wait: the stream's held-back bytes, the write queue). A 1 GiB file so holds at most those buffers.
 *
 * <pre>
 *   start ─▶ read (reader thread) ─▶ hand over (streamPart) ─┬─ a buffer free ─▶ read ...
 *                                                            └─ none: STARVED ─ the loop frees one ─▶ read ...
 *   the last part: the source's size checked first (a changed file cuts the response: abort), then closed
 *   the client gone, a read failed: the source closed, the exchange aborted (a cut, never a short body)
 * </pre>
 */
public final class PacedBody implements Exchange.ResponseWriter {
    /**
     * The bytes of a part read at once, and the size of the buffers lent. Every part costs a hand-over to the loop
     * and back (two thread switches where the reader and the loop share a core): 128 KiB parts made a 1 GiB
     * download over TLS 1.35x as fast as 32 KiB ones at three quarters of the CPU (perf/results/JOURNAL.md, issue
     * 38's third pass).
     */
    static final int CHUNK_BYTES = 128 * 1024;

    /** Where the body's bytes come from. Called on reader threads, one call at a time; may block. */
    public interface Source {
        /** Reads up to {@code length} bytes into {@code bytes[offset]}; -1 at the end. */
        int read(byte[] bytes, int offset, int length) throws IOException;

        /** Before the last part leaves: whether the source still has the size its head announced. */
        boolean unchanged() throws IOException;

        /** Releases the source (closes the file); called once. */
        void close();
    }

    private record Lent(byte[] buffer, long end) {
    }

    private final Exchange exchange;
    private final ConnectionDoor door;
    private final ResponseHead head;
    private final Source source;
    private final Executor readers;
    private final int maxBuffers;
    /** Bytes in hand-over tasks not yet run on the loop (decremented there, before the part is framed). */
    private final AtomicLong handedOver = new AtomicLong();
    private final ReentrantLock lock = new ReentrantLock();
    /** No buffer was free for the next read: the loop's next wake frees some and starts it. */
    private volatile boolean starved;

    // guarded by lock
    private final ArrayDeque<byte[]> free = new ArrayDeque<>(2);
    private final ArrayDeque<Lent> lent = new ArrayDeque<>(2);
    private int made;
    private long unread;
    private long handed;
    private boolean reading;
    private boolean headSent;
    private boolean finished;

    private PacedBody(Exchange exchange, ResponseHead head, Source source, Executor readers) {
        this.exchange = exchange;
        this.door = exchange.door();
        this.head = head;
        this.source = source;
        this.readers = readers;
        this.unread = head.contentLength();
        this.maxBuffers = Math.max(2, door.options().outboundHighWaterBytes() / CHUNK_BYTES);
    }

    /**
     * Starts the response of {@code exchange} with {@code head} (its {@code contentLength} > 0 is the body's size)
     * and the body read from {@code source} on {@code readers}.
     *
     * @throws IllegalStateException when a response was started already (the source is closed)
     */
    static void start(Exchange exchange, ResponseHead head, Source source, Executor readers) {
        PacedBody body = new PacedBody(exchange, head, source, readers);
        if (!exchange.startPaced(body)) {
            source.close();
            throw new IllegalStateException("response already started");
        }
        body.lock.lock();
        try {
            body.readNext();
        } finally {
            body.lock.unlock();
        }
    }

    /** Under the lock: starts the next read when one is due and a buffer is free. */
    private void readNext() {
        if (reading || finished || unread == 0) {
            return;
        }
        byte[] buffer = free.poll();
        if (buffer == null && made < maxBuffers) {
            buffer = new byte[(int) Math.min(CHUNK_BYTES, unread)];
            made++;
        }
        if (buffer == null) {
            starved = true;
            return;
        }
        starved = false;
        reading = true;
        byte[] into = buffer;
        int length = (int) Math.min(buffer.length, unread);
        try {
            readers.execute(() -> read(into, length));
        } catch (RejectedExecutionException e) {
            reading = false;
            fail();
        }
    }

    /** Reader thread: fills {@code buffer} with the next {@code length} bytes and hands them over. */
    private void read(byte[] buffer, int length) {
        boolean last;
        try {
            int n = 0;
            while (n < length) {
                int r = source.read(buffer, n, length - n);
                if (r < 0) {
                    throw new IOException("the file ended " + (unread - n) + " bytes early");
                }
                n += r;
            }
            last = unreadAfter(length) == 0;
            if (last && !source.unchanged()) {
                throw new IOException("the file changed size while it was sent");
            }
        } catch (IOException | RuntimeException e) {
            lock.lock();
            try {
                reading = false;
                fail();
            } finally {
                lock.unlock();
            }
            return;
        }
        handOver(buffer, length, last);
    }

    private long unreadAfter(int length) {
        lock.lock();
        try {
            return unread - length;
        } finally {
            lock.unlock();
        }
    }

    private void handOver(byte[] buffer, int length, boolean last) {
        ResponseHead first;
        lock.lock();
        try {
            if (finished) { // the client left meanwhile
                reading = false;
                source.close();
                return;
            }
            unread -= length;
            handed += length;
            lent.add(new Lent(buffer, handed));
            first = headSent ? null : head;
            headSent = true;
            handedOver.addAndGet(length);
        } finally {
            lock.unlock();
        }
        // Outside the lock (the loop may run it at once), but before the next read may start: parts go in order.
        door.streamPart(exchange.stream(), first, buffer, length, last, handedOver);
        lock.lock();
        try {
            reading = false;
            if (last) {
                finished = true;
                source.close();
            } else {
                readNext();
            }
        } finally {
            lock.unlock();
        }
        if (starved && handedOver.get() == 0 && door.queuedBytes(exchange.stream()) == 0) {
            // Every byte left before this thread went hungry: no write will wake the loop for it, so ask it once.
            door.execute(this::wakeWriterIfDue);
        }
    }

    /** Under the lock: the body cannot go on; the response is cut (the exchange aborted), the source closed. */
    private void fail() {
        if (finished) {
            return;
        }
        finished = true;
        if (!reading) {
            source.close();
        }
        exchange.abort();
    }

    /** Reactor: bytes left, or the connection is lost: takes back buffers whose bytes are gone, reads on. */
    @Override
    public void wakeWriterIfDue() {
        if (!starved && exchange.isOpen()) {
            return;
        }
        lock.lock();
        try {
            if (!exchange.isOpen()) {
                if (!finished) {
                    finished = true;
                    if (!reading) {
                        source.close(); // else the reader closes it when its read returns
                    }
                }
                return;
            }
            long consumed = handed - handedOver.get() - door.queuedBytes(exchange.stream());
            while (!lent.isEmpty() && lent.peek().end() <= consumed) {
                free.add(lent.poll().buffer());
            }
            readNext();
        } finally {
            lock.unlock();
        }
    }
}
