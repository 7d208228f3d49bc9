package dev.fleche.transport.internal.http2;

import java.nio.ByteBuffer;

import static dev.fleche.transport.internal.http2.Frames.*;

/**
 * Encodes frames (RFC 9113 4.1, 6) into a caller's buffer, which must have room: each method says how many bytes it
 * writes. Payloads of DATA and header blocks are the caller's to put after {@link #header}; this class only frames.
 * Stateless.
 */
public final class FrameWriter {
    private FrameWriter() {
    }

    /** Writes a 9-byte frame header. */
    public static void header(ByteBuffer out, int length, int type, int flags, int stream) {
        if (length < 0 || length > MAX_MAX_FRAME_SIZE) {
            throw new IllegalArgumentException("frame length " + length);
        }
        out.put((byte) (length >>> 16)).put((byte) (length >>> 8)).put((byte) length)
                .put((byte) type).put((byte) flags).putInt(stream & 0x7FFF_FFFF);
    }

    /** A SETTINGS frame of {@code pairs} (identifier, value, identifier, value...): 9 + 3 × pairs.length bytes. */
    public static void settings(ByteBuffer out, long... pairs) {
        if (pairs.length % 2 != 0) {
            throw new IllegalArgumentException("settings come in pairs");
        }
        header(out, pairs.length / 2 * 6, SETTINGS, 0, 0);
        for (int i = 0; i < pairs.length; i += 2) {
            out.putShort((short) pairs[i]).putInt((int) pairs[i + 1]);
        }
    }

    /** 9 bytes. */
    public static void settingsAck(ByteBuffer out) {
        header(out, 0, SETTINGS, FLAG_ACK, 0);
    }

    /** 17 bytes. */
    public static void ping(ByteBuffer out, long opaque, boolean ack) {
        header(out, 8, PING, ack ? FLAG_ACK : 0, 0);
        out.putLong(opaque);
    }

    /** 17 bytes plus the debug data. */
    public static void goAway(ByteBuffer out, int lastStream, Http2Error error, byte[] debug) {
        header(out, 8 + debug.length, GOAWAY, 0, 0);
        out.putInt(lastStream & 0x7FFF_FFFF).putInt(error.code()).put(debug);
    }

    /** 13 bytes. */
    public static void rstStream(ByteBuffer out, int stream, Http2Error error) {
        header(out, 4, RST_STREAM, 0, stream);
        out.putInt(error.code());
    }

    /** 13 bytes. */
    public static void windowUpdate(ByteBuffer out, int stream, int increment) {
        if (increment <= 0) {
            throw new IllegalArgumentException("window increment " + increment);
        }
        header(out, 4, WINDOW_UPDATE, 0, stream);
        out.putInt(increment);
    }
}
