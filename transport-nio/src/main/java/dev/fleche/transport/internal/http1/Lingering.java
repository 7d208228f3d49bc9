package dev.fleche.transport.internal.http1;

import dev.fleche.transport.internal.channel.ConnectionChannel;
import dev.fleche.transport.internal.telemetry.Telemetry;

import java.io.IOException;
import java.nio.ByteBuffer;

/**
 * Lingering close (RFC 9112 9.6): after the last response, the connection's output is shut and what the client still
 * sends is read and dropped — closing with unread input makes the kernel send a reset that can destroy the response
 * before the client has read it — until the client ends its side, a limit of bytes, or the linger timeout (the
 * connection's {@code Deadline.LINGER}). Made when the connection begins to linger; it counts what it dropped and
 * says when to stop, the connection closes. Reactor thread only.
 */
final class Lingering {
    /** How much unread input is discarded after the last response, at most. */
    static final long LIMIT_BYTES = 1024 * 1024;

    /** What a read while lingering came to. */
    enum Outcome {
        /** Nothing more for now: keep lingering. */
        MORE,
        /** The client ended its side: close. */
        ENDED,
        /** More than {@link #LIMIT_BYTES} dropped: close. */
        LIMIT
    }

    private long discarded;

    /** Reads and drops what the client sent (and what {@code channel} holds) into {@code buffer}. */
    Outcome drop(ConnectionChannel channel, ByteBuffer buffer, Telemetry telemetry) throws IOException {
        do {
            buffer.clear();
            int n = channel.read(buffer);
            if (n < 0) {
                return Outcome.ENDED;
            }
            telemetry.read(n);
            discarded += n;
            if (discarded > LIMIT_BYTES) {
                return Outcome.LIMIT;
            }
        } while (channel.hasBufferedInput());
        return Outcome.MORE;
    }
}
