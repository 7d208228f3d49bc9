package dev.fleche.transport.internal.http1;

import dev.fleche.transport.internal.exchange.BodyInput;
import dev.fleche.transport.internal.rules.RateWindow;
import dev.fleche.transport.MinDataRate;

import dev.fleche.transport.HttpFields;
import dev.fleche.transport.http1.BodySink;
import dev.fleche.transport.http1.ChunkedDecoder;
import dev.fleche.transport.http1.RequestException;

/**
 * The request-body decoder of a connection: takes the body bytes of the request in flight from the socket's
 * bytes, by {@code Content-Length} or chunked, and puts them where the phase says. One per connection, made when
 * its first body arrives and reused for every later one. Reactor thread only.
 *
 * <pre>
 *   NONE ─aggregate()─▶ AGGREGATING ─────────────────┐
 *   NONE ─stream()───▶ STREAMING ──response out─┐    ├─ last byte ─▶ COMPLETE ─taken()─▶ NONE
 *                         │                    ▼    │
 *                         │      responseSent()▶ DISCARDING ─┘
 *                         └── more than the limit (either) ─▶ TOO_LARGE
 * </pre>
 *
 * A chunk whose size line announces more than the limit allows makes the body TOO_LARGE as soon as that line is
 * decoded, as a {@code Content-Length} over the limit is refused before the body is read.
 *
 * <p>The connection tells it what happened (a body begins, aggregated or streamed, through its {@link BodyIntake};
 * the response went out; the body was taken) and never sets its mode. {@code feed} returns how far it read; the
 * connection then asks {@link #mode()} whether the body is complete or too large, and (through {@link BodyIntake})
 * {@link #takeWindowFull()} whether the handler's inbound window is full (pause reading).
 */
final class RequestBody implements BodySink {
    enum Mode { NONE, AGGREGATING, STREAMING, DISCARDING, COMPLETE, TOO_LARGE }

    private Mode mode = Mode.NONE;
    /** Bytes still expected with a {@code Content-Length}; unused when chunked. */
    private long remaining;
    /** Bytes of this body received so far, in every mode. */
    private long received;
    /** The most {@link #received} may reach in the current mode. */
    private long limit;
    private ChunkedDecoder chunked;
    private byte[] aggregate;
    private int aggregateLength;
    private BodyInput input;
    private boolean windowFull;
    /** The minimum request-body rate's window, made when the client first owes body bytes (null until then). */
    private RateWindow rate;

    /** A {@code Content-Length} body of {@code length} bytes, kept whole until complete. */
    void aggregate(int length) {
        start(Mode.AGGREGATING, null, length, length);
        aggregate = new byte[length];
    }

    /** A body handed to the handler as it arrives; {@code chunked} is null for a {@code Content-Length} body. */
    void stream(BodyInput input, ChunkedDecoder chunked, long contentLength, long limit) {
        start(Mode.STREAMING, chunked, contentLength, limit);
        this.input = input;
    }

    private void start(Mode next, ChunkedDecoder decoder, long contentLength, long max) {
        mode = next;
        chunked = decoder;
        remaining = decoder == null ? contentLength : 0;
        received = 0;
        limit = max;
        aggregate = null;
        aggregateLength = 0;
        input = null;
        windowFull = false;
    }

    /**
     * Told: the response is out while this streamed body still arrives. The handler's stream ends; the rest is read
     * and dropped, up to {@code max} bytes in all.
     */
    void responseSent(long max) {
        if (mode != Mode.STREAMING) {
            throw new IllegalStateException("cannot discard a body in mode " + mode);
        }
        input.end();
        input = null;
        mode = Mode.DISCARDING;
        limit = max;
    }

    /**
     * Whether the whole body (received and still expected) fits {@code max}, as far as known: for a chunked body,
     * the bytes received and those the current chunk's size line announced.
     */
    boolean fits(long max) {
        return received + (chunked != null ? chunked.announcedRemaining() : remaining) <= max;
    }

    Mode mode() {
        return mode;
    }

    /** The most bytes this body may have in its current mode. */
    long limit() {
        return limit;
    }

    /**
     * A streamed body gets the tighter limit {@code max} (its handler buffers it); the caller then asks
     * {@link #fits} whether what is known already goes beyond it.
     */
    void lower(long max) {
        if (mode == Mode.STREAMING && max < limit) {
            limit = max;
        }
    }

    /** The bytes of this body received so far. */
    long received() {
        return received;
    }

    /**
     * Reads body bytes from {@code bytes[offset, end)}; returns the index after the last byte used. Afterwards the
     * mode is COMPLETE at the body's end and TOO_LARGE past the limit.
     */
    int feed(byte[] bytes, int offset, int end) throws RequestException {
        int at;
        if (chunked != null) {
            at = chunked.decode(bytes, offset, end, this);
            if (mode != Mode.TOO_LARGE && !fits(limit)) {
                mode = Mode.TOO_LARGE; // refused on the size line, without waiting for the announced bytes
            } else if (chunked.isDone() && mode != Mode.TOO_LARGE) {
                mode = Mode.COMPLETE;
            }
        } else {
            int n = (int) Math.min(remaining, end - offset);
            remaining -= n;
            data(bytes, offset, n);
            at = offset + n;
            if (remaining == 0 && mode != Mode.TOO_LARGE) {
                mode = Mode.COMPLETE;
            }
        }
        return at;
    }

    /**
     * Where the channel may read the next bytes of this body straight into the handler's stream: a streamed body
     * with a {@code Content-Length}, never past its end (so never into the next request); null otherwise (then the
     * bytes go through {@link #feed}). Hand what was read to {@link #directFilled}.
     */
    java.nio.ByteBuffer directTarget() {
        if (mode != Mode.STREAMING || chunked != null || remaining == 0) {
            return null;
        }
        return input.writable((int) Math.min(remaining, BodyInput.CHUNK_BYTES));
    }

    /** {@code n} bytes were read into {@code target} from {@link #directTarget}: counted as {@link #feed} counts. */
    void directFilled(java.nio.ByteBuffer target, int n) {
        remaining -= n;
        received += n;
        if (received > limit) {
            mode = Mode.TOO_LARGE;
            return;
        }
        windowFull |= input.commit(target, n);
        if (remaining == 0) {
            mode = Mode.COMPLETE;
        }
    }

    /** After a batch of {@link #directFilled}: the handler's stream wakes its reader once for all of it. */
    void directBatchDone() {
        if (input != null) {
            input.wake();
        }
    }

    @Override
    public void data(byte[] bytes, int offset, int length) {
        received += length;
        if (received > limit) {
            mode = Mode.TOO_LARGE;
            return;
        }
        switch (mode) {
            case AGGREGATING -> {
                System.arraycopy(bytes, offset, aggregate, aggregateLength, length);
                aggregateLength += length;
            }
            case STREAMING -> windowFull |= input.offer(bytes, offset, length);
            default -> { } // DISCARDING: dropped
        }
    }

    /** Whether the handler's window filled since the last call: the connection pauses reading. */
    boolean takeWindowFull() {
        boolean full = windowFull;
        windowFull = false;
        return full;
    }

    /** The complete aggregated body; the decoder forgets it. */
    byte[] takeAggregate() {
        byte[] whole = aggregate;
        aggregate = null;
        return whole;
    }

    /** The trailer fields of a complete chunked body, or null. */
    HttpFields trailers() {
        return chunked != null && chunked.isDone() ? chunked.trailers() : null;
    }

    /**
     * Told: the connection took the complete body (its aggregate, its trailers). A streamed body's handler stream ends
     * after what it has queued, and the decoder forgets the body.
     */
    void taken() {
        if (input != null) {
            input.end();
        }
        clear();
    }

    /** Forgets the body in flight (the connection closes or the exchange is over). */
    void clear() {
        start(Mode.NONE, null, 0, 0);
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
