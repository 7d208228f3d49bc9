package dev.fleche.transport.internal.http2;

import dev.fleche.transport.internal.channel.ConnectionChannel;
import dev.fleche.transport.internal.telemetry.Telemetry;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * Our GOAWAY on an HTTP/2 connection (RFC 9113 6.8): sent at most once, with the last stream processed and, for a
 * connection error, its message as debug data (cut to 256 bytes); and, once it is written, what the client sent
 * meanwhile read and dropped (up to {@link #DISCARD_BYTES}) before the connection closes — closing with unread bytes
 * would reset it, and a client reading behind the reset could lose the GOAWAY that says why (RFC 9112 9.6's
 * lingering, in short). When to send it and when to close is the connection's. Never names the connection; reactor
 * thread only.
 *
 * <pre>
 *   NOT_SENT ─ send ─▶ SENT (a second send writes nothing)
 * </pre>
 */
final class GoAway {
    /** No debug data. */
    static final byte[] NO_DEBUG = new byte[0];
    /** What a connection that sent its GOAWAY reads and drops before it closes, at most ({@link #discard}). */
    static final long DISCARD_BYTES = 1024 * 1024;
    /** The most debug data a GOAWAY carries. */
    private static final int DEBUG_BYTES = 256;

    private final Http2Framer framer;
    private final StreamTable streams;
    /** Whether our GOAWAY went out (at most one). */
    private boolean sent;

    GoAway(Http2Framer framer, StreamTable streams) {
        this.framer = framer;
        this.streams = streams;
    }

    /** Whether our GOAWAY went out: a new stream is then ignored. */
    boolean sent() {
        return sent;
    }

    /** Sends GOAWAY with the last stream processed, {@code error} and {@code debug}, once per connection. */
    void send(Http2Error error, byte[] debug) {
        if (!sent) {
            sent = true;
            framer.control(17 + debug.length, out -> FrameWriter.goAway(out, streams.lastProcessed(), error, debug));
        }
    }

    /** The debug data for a connection error: its message, cut to {@value #DEBUG_BYTES} bytes. */
    static byte[] debug(Http2Exception e) {
        byte[] debug = e.getMessage() == null ? NO_DEBUG : e.getMessage().getBytes(StandardCharsets.UTF_8);
        return debug.length > DEBUG_BYTES ? Arrays.copyOf(debug, DEBUG_BYTES) : debug;
    }

    /** Reads and drops what the client sent after our GOAWAY, up to {@link #DISCARD_BYTES}, into {@code buffer}. */
    static void discard(ConnectionChannel channel, ByteBuffer buffer, Telemetry telemetry) {
        long discarded = 0;
        try {
            int n;
            do {
                buffer.clear();
                n = channel.read(buffer);
                if (n > 0) {
                    telemetry.read(n);
                    discarded += n;
                }
            } while (n > 0 && discarded <= DISCARD_BYTES);
        } catch (IOException e) {
            // the client is gone: nothing to drop
        }
    }
}
