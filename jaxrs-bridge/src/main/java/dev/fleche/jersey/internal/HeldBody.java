package dev.fleche.jersey.internal;

import dev.fleche.transport.HttpExchange;
import dev.fleche.transport.HttpFields;

import java.io.IOException;
import java.io.OutputStream;
import java.util.Arrays;
import java.util.Objects;

/**
 * A response body of unknown length written through a stream that a filter or an interceptor installed in place of
 * Jersey's ({@link LengthBuffer.Relayed}): held here up to Jersey's buffer size and sent whole with its
 * {@code Content-Length} at commit, or — from the moment it outgrows that size — streamed ({@code chunked}). That is
 * what Jersey's own buffer does below such a stream on its other containers, so a filter that transforms the body
 * changes neither the bytes nor the framing the client gets.
 *
 * <pre>
 *  HOLDING ──more than the limit written──▶ STREAMING (the held bytes first, then every write)
 *     │                                        │
 *  commit: {@link #respond} whole, or 500 when the entity broke    close: ends the stream, or cuts it when broken
 * </pre>
 */
final class HeldBody extends OutputStream {
    private static final int FIRST_CAPACITY = 512;

    private final HttpExchange exchange;
    private final int status;
    private final String reason;
    private final HttpFields fields;
    private final LengthBuffer.Relayed relayed;
    /** Up to this many bytes the held body goes in one hand-off; beyond, streamed with its length (the writer's). */
    private final int wholeLimit;
    private byte[] bytes;
    private int count;
    /** Once streaming: the transport's body; the held bytes went first. */
    private OutputStream streamed;
    private volatile boolean closed;

    HeldBody(HttpExchange exchange, int status, String reason, HttpFields fields, LengthBuffer.Relayed relayed,
            int wholeLimit) {
        this.exchange = exchange;
        this.wholeLimit = wholeLimit;
        this.status = status;
        this.reason = reason;
        this.fields = fields;
        this.relayed = relayed;
        this.bytes = new byte[Math.min(FIRST_CAPACITY, relayed.limit())];
    }

    @Override
    public void write(int b) throws IOException {
        if (streamed == null && !fits(1)) {
            spill();
        }
        if (streamed != null) {
            streamed.write(b);
        } else {
            bytes[count++] = (byte) b;
        }
    }

    @Override
    public void write(byte[] source, int offset, int length) throws IOException {
        Objects.checkFromIndexSize(offset, length, source.length);
        if (streamed == null && !fits(length)) {
            spill();
        }
        if (streamed != null) {
            streamed.write(source, offset, length);
        } else {
            System.arraycopy(source, offset, bytes, count, length);
            count += length;
        }
    }

    /** Whether {@code length} more bytes stay within the limit (room made when they do). */
    private boolean fits(int length) {
        long needed = (long) count + length;
        if (needed <= bytes.length) {
            return true;
        }
        if (needed > relayed.limit()) {
            return false;
        }
        bytes = Arrays.copyOf(bytes, (int) Math.min(relayed.limit(), Math.max(needed, 2L * bytes.length)));
        return true;
    }

    /** Outgrown: the head goes with an unknown length, then the bytes held so far. */
    private void spill() throws IOException {
        OutputStream out;
        try {
            out = new StreamedBody(exchange, exchange.startResponse(status, reason, fields, -1), relayed::broken);
        } catch (IllegalStateException alreadyAnswered) {
            out = OutputStream.nullOutputStream(); // the transport answered (413, 408...): the rest goes nowhere
        }
        streamed = out;
        byte[] held = bytes;
        bytes = null;
        out.write(held, 0, count);
        count = 0;
    }

    /** Held: nothing to do, the length is not known yet (as with Jersey's buffer); streaming: hands bytes on. */
    @Override
    public void flush() throws IOException {
        if (streamed != null) {
            streamed.flush();
        }
    }

    /** Marks the body complete; a held one is sent by the writer's commit, a streamed one ends (or is cut) now. */
    @Override
    public void close() throws IOException {
        if (closed) {
            return;
        }
        closed = true;
        if (streamed != null) {
            streamed.close();
        }
    }

    boolean isClosed() {
        return closed;
    }

    /** Whether the body went out as a stream (then {@link #close()} ended it), rather than being held whole. */
    boolean isStreamed() {
        return streamed != null;
    }

    /** Whether the entity's writer failed: the held bytes are not the whole entity and must not be sent as one. */
    boolean isBroken() {
        return relayed.broken();
    }

    /** Sends the held body whole, with its length: in one hand-off up to the writer's buffered limit, else streamed. */
    void respond() throws IOException {
        if (count <= wholeLimit) {
            exchange.respond(status, reason, fields, count == bytes.length ? bytes : Arrays.copyOf(bytes, count));
            return;
        }
        try (OutputStream out = exchange.startResponse(status, reason, fields, count)) {
            out.write(bytes, 0, count);
        }
    }
}
