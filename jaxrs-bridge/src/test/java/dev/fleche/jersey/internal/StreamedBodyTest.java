package dev.fleche.jersey.internal;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The streamed body's contract with Jersey's close path (issue 17): after the client left, a write fails with
 * {@link IOException}; a flush or close never throws, even with bytes taken before the departure and not yet
 * flushed — the state in which Jersey's {@code OutboundMessageContext.close()} used to get an exception, which the
 * container's {@code failure()} rethrew into {@code ChunkedOutput.write} as an {@code UncheckedIOException}.
 */
@Timeout(10)
class StreamedBodyTest {

    /** The transport's stream as it behaves once its connection is gone: every call fails. */
    static final class TransportStream extends OutputStream {
        final ByteArrayOutputStream delivered = new ByteArrayOutputStream();
        final ByteArrayOutputStream buffered = new ByteArrayOutputStream();
        boolean gone;
        int closes;

        @Override
        public void write(int b) throws IOException {
            check();
            buffered.write(b);
        }

        @Override
        public void flush() throws IOException {
            check();
            buffered.writeTo(delivered);
            buffered.reset();
        }

        @Override
        public void close() throws IOException {
            closes++;
            check();
            flush();
        }

        private void check() throws IOException {
            if (gone) {
                throw new IOException("connection closed: eof");
            }
        }
    }

    @Test
    void bytesTakenThenClientLeftFlushAndCloseAreQuietAndTheNextWriteFails() throws IOException {
        FakeExchange exchange = new FakeExchange();
        TransportStream transport = new TransportStream();
        StreamedBody body = new StreamedBody(exchange, transport, () -> false);
        body.write("tick\n".getBytes());
        body.flush();
        body.write("taken, never flushed".getBytes());

        exchange.aborted = true; // the client left: the exchange is no longer open
        transport.gone = true;

        assertDoesNotThrow(body::flush, "Jersey's close path flushes first");
        assertThrows(IOException.class, () -> body.write('x'), "the departure reaches the application as a write");
        assertDoesNotThrow(body::close);
        assertDoesNotThrow(body::flush, "flush after close");
        assertTrue(body.isClosed());
        assertEquals(1, transport.closes);
        assertArrayEquals("tick\n".getBytes(), transport.delivered.toByteArray());
    }

    @Test
    void whileTheExchangeIsOpenFailuresStillSurface() {
        FakeExchange exchange = new FakeExchange();
        TransportStream transport = new TransportStream();
        StreamedBody body = new StreamedBody(exchange, transport, () -> false);
        transport.gone = true; // e.g. a stream the transport refused: not a departure, so not hidden

        assertThrows(IOException.class, body::flush);
        assertThrows(IOException.class, body::close);
    }
}
