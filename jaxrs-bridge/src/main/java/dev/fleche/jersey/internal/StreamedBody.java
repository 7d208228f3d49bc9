package dev.fleche.jersey.internal;

import dev.fleche.transport.HttpExchange;

import java.io.IOException;
import java.io.OutputStream;

/**
 * The transport's streamed response body as Jersey sees it: writes and flushes go straight through (a
 * {@code flush()} hands the bytes to the reactor at once). Once the client is gone, a write fails with
 * {@link IOException}, and so does a flush of bytes written before; but a flush with nothing to send and
 * {@code close()} are quiet — there is nothing left to deliver or end, and Jersey flushes and closes on every
 * close of a response (closing an SSE sink whose client just left would otherwise throw an
 * {@code UncheckedIOException} at the application and log a warning).
 */
final class StreamedBody extends OutputStream {
    private final HttpExchange exchange;
    private final OutputStream out;
    private volatile boolean closed;
    /** Bytes were written since the last flush. */
    private volatile boolean pending;

    StreamedBody(HttpExchange exchange, OutputStream out) {
        this.exchange = exchange;
        this.out = out;
    }

    @Override
    public void write(int b) throws IOException {
        pending = true;
        out.write(b);
    }

    @Override
    public void write(byte[] bytes, int offset, int length) throws IOException {
        pending = true;
        out.write(bytes, offset, length);
    }

    @Override
    public void flush() throws IOException {
        if (!pending && !exchange.isOpen()) {
            return;
        }
        out.flush();
        pending = false;
    }

    @Override
    public void close() throws IOException {
        if (closed) {
            return;
        }
        closed = true;
        if (exchange.isOpen()) {
            out.close();
        }
    }

    /** Whether {@link #close()} was called. */
    boolean isClosed() {
        return closed;
    }
}
