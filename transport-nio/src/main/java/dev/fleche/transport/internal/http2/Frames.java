package dev.fleche.transport.internal.http2;

import java.nio.charset.StandardCharsets;

/** Frame types, flags and setting identifiers of RFC 9113 (sections 6 and 6.5.2), and the connection preface. */
public final class Frames {
    private Frames() {
    }

    /** The 9 bytes before every frame's payload (RFC 9113 4.1). */
    public static final int HEADER_BYTES = 9;
    /** The smallest {@code SETTINGS_MAX_FRAME_SIZE} and its initial value (RFC 9113 6.5.2). */
    public static final int MIN_MAX_FRAME_SIZE = 16_384;
    public static final int MAX_MAX_FRAME_SIZE = 16_777_215;
    /** The initial flow-control window of a connection and of each stream (RFC 9113 6.9.2). */
    public static final int DEFAULT_WINDOW = 65_535;
    public static final int MAX_WINDOW = Integer.MAX_VALUE;

    public static final int DATA = 0x0;
    public static final int HEADERS = 0x1;
    public static final int PRIORITY = 0x2;
    public static final int RST_STREAM = 0x3;
    public static final int SETTINGS = 0x4;
    public static final int PUSH_PROMISE = 0x5;
    public static final int PING = 0x6;
    public static final int GOAWAY = 0x7;
    public static final int WINDOW_UPDATE = 0x8;
    public static final int CONTINUATION = 0x9;

    public static final int FLAG_END_STREAM = 0x1;
    public static final int FLAG_ACK = 0x1;
    public static final int FLAG_END_HEADERS = 0x4;
    public static final int FLAG_PADDED = 0x8;
    public static final int FLAG_PRIORITY = 0x20;

    public static final int SETTINGS_HEADER_TABLE_SIZE = 0x1;
    public static final int SETTINGS_ENABLE_PUSH = 0x2;
    public static final int SETTINGS_MAX_CONCURRENT_STREAMS = 0x3;
    public static final int SETTINGS_INITIAL_WINDOW_SIZE = 0x4;
    public static final int SETTINGS_MAX_FRAME_SIZE = 0x5;
    public static final int SETTINGS_MAX_HEADER_LIST_SIZE = 0x6;

    /** The client connection preface (RFC 9113 3.4), which a prior-knowledge h2c connection starts with. */
    public static final byte[] PREFACE = "PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n".getBytes(StandardCharsets.US_ASCII);

    /** The name of a frame type, for events and messages. */
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
            default -> "0x" + Integer.toHexString(type);
        };
    }
}
