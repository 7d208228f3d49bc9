package dev.fleche.jersey.internal;

import dev.fleche.transport.HttpExchange;
import dev.fleche.transport.HttpFields;

import java.io.IOException;
import java.io.OutputStream;
import java.util.Arrays;

/**
 * A response collected in memory and handed to the transport in one {@link HttpExchange#respond} at commit:
 * one hand-off to the reactor, one write. Used for small responses of known length and for every response of
 * a {@code @NonBlocking} method, whose size is capped: past the cap writes fail and the commit answers
 * {@code 500} instead.
 */
final class BufferedBody extends OutputStream {
    private final int status;
    private final String reason;
    private final HttpFields fields;
    private final int limit;
    private final boolean nonBlockingCap;
    private byte[] bytes;
    private int count;
    private boolean overflowed;
    private volatile boolean closed;

    /**
     * A body expected to be {@code expected} bytes (a first guess when unknown), at most {@code limit}; when
     * {@code nonBlockingCap} the limit is the {@code @NonBlocking} one, else the declared length.
     */
    BufferedBody(int status, String reason, HttpFields fields, int expected, int limit, boolean nonBlockingCap) {
        this.status = status;
        this.reason = reason;
        this.fields = fields;
        this.limit = limit;
        this.nonBlockingCap = nonBlockingCap;
        this.bytes = new byte[Math.min(expected, limit)];
    }

    /** A body already complete: {@code body} is taken as it is (not copied) and no more may be written. */
    static BufferedBody of(int status, String reason, HttpFields fields, byte[] body) {
        BufferedBody whole = new BufferedBody(status, reason, fields, 0, body.length, false);
        whole.bytes = body;
        whole.count = body.length;
        return whole;
    }

    @Override
    public void write(int b) throws IOException {
        ensureRoom(1);
        bytes[count++] = (byte) b;
    }

    @Override
    public void write(byte[] source, int offset, int length) throws IOException {
        java.util.Objects.checkFromIndexSize(offset, length, source.length);
        ensureRoom(length);
        System.arraycopy(source, offset, bytes, count, length);
        count += length;
    }

    private void ensureRoom(int length) throws IOException {
        long needed = (long) count + length;
        if (needed <= bytes.length && !overflowed) {
            return;
        }
        if (overflowed || needed > limit) {
            overflowed = true;
            throw new IOException(nonBlockingCap ? NonBlockingLimit.message(limit)
                    : "response body longer than its length " + limit);
        }
        bytes = Arrays.copyOf(bytes, (int) Math.min(limit, Math.max(needed, 2L * bytes.length)));
    }

    /** Marks the body complete; the bytes are sent by the writer's commit. */
    @Override
    public void close() {
        closed = true;
    }

    /** Whether {@link #close()} was called. */
    boolean isClosed() {
        return closed;
    }

    /** Whether more than the limit was written. */
    boolean overflowed() {
        return overflowed;
    }

    /** Sends the collected response (or the {@code 500} of an overflow); never blocks. */
    void respond(HttpExchange exchange) {
        if (overflowed) {
            Responses.text(exchange, 500, new HttpFields(1), nonBlockingCap ? NonBlockingLimit.message(limit)
                    : "response body longer than its length " + limit);
            return;
        }
        byte[] body = count == bytes.length ? bytes : Arrays.copyOf(bytes, count);
        exchange.respond(status, reason, fields, body);
    }

    /** The message of a response over the {@code @NonBlocking} limit. */
    static final class NonBlockingLimit {
        private NonBlockingLimit() {
        }

        static String message(int limit) {
            return "response larger than " + limit + " bytes: a @NonBlocking resource method's response is "
                    + "buffered in memory up to fleche.jersey.nonBlocking.maxResponseBytes; remove @NonBlocking "
                    + "to stream it from a worker thread";
        }
    }
}
