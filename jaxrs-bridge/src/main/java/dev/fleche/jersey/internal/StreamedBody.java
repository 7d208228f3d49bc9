package dev.fleche.jersey.internal;

import dev.fleche.transport.HttpExchange;

import java.io.IOException;
import java.io.OutputStream;
import java.util.function.BooleanSupplier;

/**
 * The transport's streamed response body as Jersey sees it: writes and flushes go straight through (a
 * {@code flush()} hands the bytes to the reactor at once).
 *
 * <p>Once the client is gone (or the exchange was aborted, or the body closed), a {@code write} fails with
 * {@link IOException} — that is how the application learns of the departure, once — while {@code flush()} and
 * {@code close()} are quiet: nothing is left to deliver or end. Jersey flushes and closes the entity stream on its
 * own close path ({@code ChunkedOutput}, SSE sinks, {@code ContainerResponse.close}), and an exception there reaches
 * the container's {@code failure()}, which must rethrow it: it would escape {@code ChunkedOutput.write} into the
 * application as an {@code UncheckedIOException}. Whether the exchange is still open is checked after a failure,
 * so a client that leaves between the check and the write cannot slip through.
 */
final class StreamedBody extends OutputStream {
    private final HttpExchange exchange;
    private final OutputStream out;
    /** Whether the entity failed after the head was sent ({@link LengthBuffer#BROKEN}): close then cuts. */
    private final BooleanSupplier broken;
    private volatile boolean closed;

    StreamedBody(HttpExchange exchange, OutputStream out, BooleanSupplier broken) {
        this.exchange = exchange;
        this.out = out;
        this.broken = broken;
    }

    @Override
    public void write(int b) throws IOException {
        out.write(b);
    }

    @Override
    public void write(byte[] bytes, int offset, int length) throws IOException {
        out.write(bytes, offset, length);
    }

    @Override
    public void flush() throws IOException {
        if (closed) {
            return;
        }
        try {
            out.flush();
        } catch (IOException e) {
            if (exchange.isOpen()) {
                throw e;
            }
        }
    }

    @Override
    public void close() throws IOException {
        if (closed) {
            return;
        }
        closed = true;
        if (broken.getAsBoolean()) {
            // Jersey logs an entity writer's failure once committed and closes the stream as if all went well:
            // end the response so, and the client takes half an entity for a whole one. Cut it instead.
            exchange.abort();
            return;
        }
        try {
            out.close();
        } catch (IOException e) {
            if (exchange.isOpen()) {
                throw e; // e.g. fewer bytes than the Content-Length promised: the transport aborts and says so
            }
        }
    }

    /** Whether {@link #close()} was called. */
    boolean isClosed() {
        return closed;
    }
}
