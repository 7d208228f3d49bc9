package dev.fleche.transport.internal.http2;

import java.nio.ByteBuffer;

import static dev.fleche.transport.internal.http2.Frames.*;

/**
 * Decodes frames (RFC 9113 4.1, 6) from the bytes a connection read, one whole frame at a time, and applies every
 * check that needs nothing but the frame itself and the header block in progress: lengths, stream id zero or not,
 * padding, {@code SETTINGS_MAX_FRAME_SIZE}, setting values, and that a header block's {@code CONTINUATION}s follow it
 * with nothing between. Payloads are handed to the {@link Listener} as read-only views of the input (no copy); a
 * listener that needs them later copies them. What depends on stream state (which ids are open, windows) is the
 * listener's.
 *
 * <p>Resumable: {@link #read} takes a frame only when all of it is in the buffer, and otherwise leaves the buffer
 * as it was and returns false (the caller keeps the bytes and reads more). Not thread-safe: one per connection.
 *
 * <pre>
 *   FRAME ─ HEADERS without END_HEADERS ─▶ IN_HEADER_BLOCK ─ CONTINUATION with END_HEADERS ─▶ FRAME
 *                                          (any other frame, or another stream: PROTOCOL_ERROR)
 * </pre>
 */
public final class FrameReader {

    /** What the reader found. Views are valid only during the call. */
    public interface Listener {
        /** {@code payload}: the data without padding; {@code flowLength}: the whole frame payload (flow control). */
        void data(int stream, ByteBuffer payload, int flowLength, boolean endStream) throws Http2Exception;

        /** The first fragment of a header block (priority fields and padding removed). */
        void headers(int stream, ByteBuffer fragment, boolean endStream, boolean endHeaders) throws Http2Exception;

        void continuation(int stream, ByteBuffer fragment, boolean endHeaders) throws Http2Exception;

        /** A PRIORITY frame (deprecated by RFC 9113 5.3.2: checked, then ignored). */
        default void priority(int stream) throws Http2Exception {
        }

        void rstStream(int stream, int errorCode) throws Http2Exception;

        /** One setting of a SETTINGS frame, its value already checked (RFC 9113 6.5.2). */
        void setting(int identifier, long value) throws Http2Exception;

        /** The end of a non-ACK SETTINGS frame (after its {@link #setting}s): acknowledge it. */
        void settingsEnd() throws Http2Exception;

        void settingsAck() throws Http2Exception;

        void ping(long opaque, boolean ack) throws Http2Exception;

        void goAway(int lastStream, int errorCode) throws Http2Exception;

        void windowUpdate(int stream, int increment) throws Http2Exception;

        /** A frame of a type this side does not know: ignored (RFC 9113 5.5), but seen (floods count it). */
        default void unknown(int type, int stream) throws Http2Exception {
        }
    }

    private enum Phase { FRAME, IN_HEADER_BLOCK }

    private int maxFrameSize;
    private Phase phase = Phase.FRAME;
    /** In IN_HEADER_BLOCK: the stream whose header block is open. */
    private int headerStream;

    /** @param maxFrameSize the {@code SETTINGS_MAX_FRAME_SIZE} this side announced */
    public FrameReader(int maxFrameSize) {
        maxFrameSize(maxFrameSize);
    }

    public void maxFrameSize(int value) {
        if (value < MIN_MAX_FRAME_SIZE || value > MAX_MAX_FRAME_SIZE) {
            throw new IllegalArgumentException("maxFrameSize out of range: " + value);
        }
        maxFrameSize = value;
    }

    /** Whether a header block is open (only its CONTINUATIONs may follow). */
    public boolean inHeaderBlock() {
        return phase == Phase.IN_HEADER_BLOCK;
    }

    /**
     * Reads one frame from {@code in} if all of it is there: then advances past it, tells the listener, and returns
     * true; otherwise returns false and leaves {@code in} untouched. A frame header announcing more than
     * {@code SETTINGS_MAX_FRAME_SIZE} fails at once, before its payload arrives.
     */
    public boolean read(ByteBuffer in, Listener listener) throws Http2Exception {
        int start = in.position();
        if (in.remaining() < HEADER_BYTES) {
            return false;
        }
        int length = (in.get(start) & 0xFF) << 16 | (in.get(start + 1) & 0xFF) << 8 | in.get(start + 2) & 0xFF;
        int type = in.get(start + 3) & 0xFF;
        int flags = in.get(start + 4) & 0xFF;
        int stream = in.getInt(start + 5) & 0x7FFF_FFFF; // the reserved bit is ignored (RFC 9113 4.1)
        if (length > maxFrameSize) {
            throw Http2Exception.connection(Http2Error.FRAME_SIZE_ERROR,
                    Frames.typeName(type) + " frame of " + length + " bytes exceeds SETTINGS_MAX_FRAME_SIZE " + maxFrameSize);
        }
        if (in.remaining() < HEADER_BYTES + length) {
            return false;
        }
        ByteBuffer payload = in.slice(start + HEADER_BYTES, length);
        in.position(start + HEADER_BYTES + length);
        if (phase == Phase.IN_HEADER_BLOCK && (type != CONTINUATION || stream != headerStream)) {
            throw Http2Exception.connection(Http2Error.PROTOCOL_ERROR, Frames.typeName(type) + " frame on stream "
                    + stream + " inside the header block of stream " + headerStream + " (RFC 9113 6.10)");
        }
        dispatch(type, flags, stream, payload, listener);
        return true;
    }

    private void dispatch(int type, int flags, int stream, ByteBuffer payload, Listener listener)
            throws Http2Exception {
        switch (type) {
            case DATA -> data(flags, stream, payload, listener);
            case HEADERS -> headers(flags, stream, payload, listener);
            case PRIORITY -> priority(stream, payload, listener);
            case RST_STREAM -> rstStream(stream, payload, listener);
            case SETTINGS -> settings(flags, stream, payload, listener);
            case PUSH_PROMISE -> throw Http2Exception.connection(Http2Error.PROTOCOL_ERROR,
                    "PUSH_PROMISE from a client (RFC 9113 8.4)");
            case PING -> ping(flags, stream, payload, listener);
            case GOAWAY -> goAway(stream, payload, listener);
            case WINDOW_UPDATE -> windowUpdate(stream, payload, listener);
            case CONTINUATION -> continuation(flags, stream, payload, listener);
            default -> listener.unknown(type, stream);
        }
    }

    private static void requireStream(int type, int stream) throws Http2Exception {
        if (stream == 0) {
            throw Http2Exception.connection(Http2Error.PROTOCOL_ERROR,
                    Frames.typeName(type) + " frame on stream 0");
        }
    }

    private static void requireConnection(int type, int stream) throws Http2Exception {
        if (stream != 0) {
            throw Http2Exception.connection(Http2Error.PROTOCOL_ERROR,
                    Frames.typeName(type) + " frame on stream " + stream + ", not 0");
        }
    }

    /** Removes the padding of a PADDED frame (RFC 9113 6.1): the pad length byte and the pad bytes. */
    private static ByteBuffer unpad(int type, int flags, ByteBuffer payload) throws Http2Exception {
        if ((flags & FLAG_PADDED) == 0) {
            return payload;
        }
        if (payload.remaining() < 1) {
            throw Http2Exception.connection(Http2Error.FRAME_SIZE_ERROR, Frames.typeName(type) + " frame PADDED without a pad length");
        }
        int padLength = payload.get() & 0xFF;
        if (padLength > payload.remaining()) { // the padding is as long as the payload or longer
            throw Http2Exception.connection(Http2Error.PROTOCOL_ERROR,
                    Frames.typeName(type) + " frame padding of " + padLength + " bytes is not shorter than its payload");
        }
        return payload.slice(payload.position(), payload.remaining() - padLength);
    }

    private static void data(int flags, int stream, ByteBuffer payload, Listener listener) throws Http2Exception {
        requireStream(DATA, stream);
        int flowLength = payload.remaining();
        listener.data(stream, unpad(DATA, flags, payload), flowLength, (flags & FLAG_END_STREAM) != 0);
    }

    private void headers(int flags, int stream, ByteBuffer payload, Listener listener) throws Http2Exception {
        requireStream(HEADERS, stream);
        ByteBuffer fragment = unpad(HEADERS, flags, payload);
        if ((flags & FLAG_PRIORITY) != 0) {
            if (fragment.remaining() < 5) {
                throw Http2Exception.connection(Http2Error.FRAME_SIZE_ERROR, "HEADERS frame too short for its priority");
            }
            int dependency = fragment.getInt() & 0x7FFF_FFFF;
            fragment.get(); // weight
            fragment = fragment.slice();
            if (dependency == stream) {
                throw Http2Exception.stream(stream, Http2Error.PROTOCOL_ERROR, "stream depends on itself (RFC 9113 5.3.1)");
            }
        }
        boolean endHeaders = (flags & FLAG_END_HEADERS) != 0;
        if (!endHeaders) {
            phase = Phase.IN_HEADER_BLOCK;
            headerStream = stream;
        }
        listener.headers(stream, fragment, (flags & FLAG_END_STREAM) != 0, endHeaders);
    }

    private void continuation(int flags, int stream, ByteBuffer payload, Listener listener) throws Http2Exception {
        requireStream(CONTINUATION, stream);
        if (phase != Phase.IN_HEADER_BLOCK) {
            throw Http2Exception.connection(Http2Error.PROTOCOL_ERROR, "CONTINUATION without an open header block (RFC 9113 6.10)");
        }
        boolean endHeaders = (flags & FLAG_END_HEADERS) != 0;
        if (endHeaders) {
            phase = Phase.FRAME;
        }
        listener.continuation(stream, payload, endHeaders);
    }

    private static void priority(int stream, ByteBuffer payload, Listener listener) throws Http2Exception {
        requireStream(PRIORITY, stream);
        if (payload.remaining() != 5) {
            throw Http2Exception.stream(stream, Http2Error.FRAME_SIZE_ERROR,
                    "PRIORITY frame of " + payload.remaining() + " bytes, not 5");
        }
        if ((payload.getInt(payload.position()) & 0x7FFF_FFFF) == stream) {
            throw Http2Exception.stream(stream, Http2Error.PROTOCOL_ERROR, "stream depends on itself (RFC 9113 5.3.1)");
        }
        listener.priority(stream);
    }

    private static void rstStream(int stream, ByteBuffer payload, Listener listener) throws Http2Exception {
        requireStream(RST_STREAM, stream);
        if (payload.remaining() != 4) {
            throw Http2Exception.connection(Http2Error.FRAME_SIZE_ERROR,
                    "RST_STREAM frame of " + payload.remaining() + " bytes, not 4");
        }
        listener.rstStream(stream, payload.getInt());
    }

    private static void settings(int flags, int stream, ByteBuffer payload, Listener listener) throws Http2Exception {
        requireConnection(SETTINGS, stream);
        if ((flags & FLAG_ACK) != 0) {
            if (payload.hasRemaining()) {
                throw Http2Exception.connection(Http2Error.FRAME_SIZE_ERROR, "SETTINGS ACK with a payload");
            }
            listener.settingsAck();
            return;
        }
        if (payload.remaining() % 6 != 0) {
            throw Http2Exception.connection(Http2Error.FRAME_SIZE_ERROR,
                    "SETTINGS frame of " + payload.remaining() + " bytes, not a multiple of 6");
        }
        while (payload.hasRemaining()) {
            int identifier = payload.getShort() & 0xFFFF;
            long value = payload.getInt() & 0xFFFF_FFFFL;
            checkSetting(identifier, value);
            listener.setting(identifier, value);
        }
        listener.settingsEnd();
    }

    /** RFC 9113 6.5.2: the values a setting may take; unknown settings are ignored by the listener. */
    public static void checkSetting(int identifier, long value) throws Http2Exception {
        switch (identifier) {
            case SETTINGS_ENABLE_PUSH -> {
                if (value > 1) {
                    throw Http2Exception.connection(Http2Error.PROTOCOL_ERROR, "SETTINGS_ENABLE_PUSH of " + value);
                }
            }
            case SETTINGS_INITIAL_WINDOW_SIZE -> {
                if (value > MAX_WINDOW) {
                    throw Http2Exception.connection(Http2Error.FLOW_CONTROL_ERROR,
                            "SETTINGS_INITIAL_WINDOW_SIZE of " + value + " exceeds 2^31-1");
                }
            }
            case SETTINGS_MAX_FRAME_SIZE -> {
                if (value < MIN_MAX_FRAME_SIZE || value > MAX_MAX_FRAME_SIZE) {
                    throw Http2Exception.connection(Http2Error.PROTOCOL_ERROR, "SETTINGS_MAX_FRAME_SIZE of " + value);
                }
            }
            default -> { }
        }
    }

    private static void ping(int flags, int stream, ByteBuffer payload, Listener listener) throws Http2Exception {
        requireConnection(PING, stream);
        if (payload.remaining() != 8) {
            throw Http2Exception.connection(Http2Error.FRAME_SIZE_ERROR,
                    "PING frame of " + payload.remaining() + " bytes, not 8");
        }
        listener.ping(payload.getLong(), (flags & FLAG_ACK) != 0);
    }

    private static void goAway(int stream, ByteBuffer payload, Listener listener) throws Http2Exception {
        requireConnection(GOAWAY, stream);
        if (payload.remaining() < 8) {
            throw Http2Exception.connection(Http2Error.FRAME_SIZE_ERROR,
                    "GOAWAY frame of " + payload.remaining() + " bytes, fewer than 8");
        }
        listener.goAway(payload.getInt() & 0x7FFF_FFFF, payload.getInt());
    }

    private static void windowUpdate(int stream, ByteBuffer payload, Listener listener) throws Http2Exception {
        if (payload.remaining() != 4) {
            throw Http2Exception.connection(Http2Error.FRAME_SIZE_ERROR,
                    "WINDOW_UPDATE frame of " + payload.remaining() + " bytes, not 4");
        }
        int increment = payload.getInt() & 0x7FFF_FFFF;
        if (increment == 0) {
            String message = "WINDOW_UPDATE with an increment of 0 (RFC 9113 6.9)";
            throw stream == 0 ? Http2Exception.connection(Http2Error.PROTOCOL_ERROR, message)
                    : Http2Exception.stream(stream, Http2Error.PROTOCOL_ERROR, message);
        }
        listener.windowUpdate(stream, increment);
    }
}
