package dev.fleche.conformance.h2.client;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;

/**
 * One HTTP/2 frame (RFC 9113 4.1) as the server sent it. A HEADERS frame carries its whole field block decoded
 * ({@link #fields()}): the client joins any CONTINUATION frames to it first, so the frame stands for the field block.
 *
 * @param type    the frame type (the constants here; others are extension types)
 * @param flags   the flags octet
 * @param stream  the stream identifier, reserved bit cleared
 * @param payload the payload, as sent (padding and priority fields included)
 * @param fields  the decoded field block of a HEADERS frame; {@code null} for other frames
 */
public record Frame(int type, int flags, int stream, byte[] payload, List<Field> fields) {
    public static final int DATA = 0x0, HEADERS = 0x1, PRIORITY = 0x2, RST_STREAM = 0x3, SETTINGS = 0x4,
            PUSH_PROMISE = 0x5, PING = 0x6, GOAWAY = 0x7, WINDOW_UPDATE = 0x8, CONTINUATION = 0x9;

    /** END_STREAM on DATA and HEADERS; ACK on SETTINGS and PING (the same bit). */
    public static final int END_STREAM = 0x1, ACK = 0x1;
    public static final int END_HEADERS = 0x4, PADDED = 0x8, PRIORITY_FLAG = 0x20;

    /** A decoded field line. */
    public record Field(String name, String value) {
        @Override
        public String toString() {
            return name + ": " + value;
        }
    }

    public boolean has(int flag) {
        return (flags & flag) == flag;
    }

    /** The error code of a RST_STREAM or GOAWAY frame. */
    public int errorCode() {
        if (type == RST_STREAM && payload.length == 4) {
            return ByteBuffer.wrap(payload).getInt();
        }
        if (type == GOAWAY && payload.length >= 8) {
            return ByteBuffer.wrap(payload).getInt(4);
        }
        throw new IllegalStateException("no error code in " + this);
    }

    /** The last stream identifier of a GOAWAY frame. */
    public int lastStreamId() {
        return ByteBuffer.wrap(payload).getInt() & 0x7FFF_FFFF;
    }

    /** The debug data of a GOAWAY frame, as text. */
    public String debugData() {
        return payload.length <= 8 ? "" : new String(payload, 8, payload.length - 8, StandardCharsets.UTF_8);
    }

    /** The window increment of a WINDOW_UPDATE frame. */
    public int windowIncrement() {
        return ByteBuffer.wrap(payload).getInt() & 0x7FFF_FFFF;
    }

    /** The content of a DATA frame: the payload without its pad length and padding. */
    public byte[] data() {
        if (!has(PADDED)) {
            return payload;
        }
        int pad = payload[0] & 0xFF;
        return Arrays.copyOfRange(payload, 1, payload.length - pad);
    }

    /** The value of field {@code name} in a HEADERS frame's block, or {@code null}. */
    public String field(String name) {
        for (Field field : fields) {
            if (field.name().equals(name)) {
                return field.value();
            }
        }
        return null;
    }

    public static String typeName(int type) {
        return switch (type) {
            case DATA -> "DATA";
            case HEADERS -> "HEADERS";
            case PRIORITY -> "PRIORITY";
            case RST_STREAM -> "RST_STREAM";
            case SETTINGS -> "SETTINGS";
            case PUSH_PROMISE -> "PUSH_PROMISE";
            case PING -> "PING";
            case GOAWAY -> "GOAWAY";
            case WINDOW_UPDATE -> "WINDOW_UPDATE";
            case CONTINUATION -> "CONTINUATION";
            default -> String.format("type 0x%02x", type);
        };
    }

    @Override
    public String toString() {
        StringBuilder s = new StringBuilder(typeName(type)).append("(stream ").append(stream);
        if (flags != 0) {
            s.append(String.format(", flags 0x%02x", flags));
        }
        s.append(", ").append(payload.length).append(" octets");
        switch (type) {
            case RST_STREAM -> s.append(", ").append(payload.length == 4 ? ErrorCode.nameOf(errorCode()) : "?");
            case GOAWAY -> {
                if (payload.length >= 8) {
                    s.append(", last ").append(lastStreamId()).append(", ").append(ErrorCode.nameOf(errorCode()));
                    if (payload.length > 8) {
                        s.append(", \"").append(debugData()).append('"');
                    }
                }
            }
            case WINDOW_UPDATE -> s.append(payload.length == 4 ? ", +" + windowIncrement() : "");
            case HEADERS -> s.append(fields == null ? "" : ", " + fields);
            default -> { }
        }
        return s.append(')').toString();
    }
}
