package dev.fleche.conformance.h2.client;

/** The settings of RFC 9113 section 6.5.2, by identifier. */
public final class Setting {
    public static final int HEADER_TABLE_SIZE = 0x1;
    public static final int ENABLE_PUSH = 0x2;
    public static final int MAX_CONCURRENT_STREAMS = 0x3;
    public static final int INITIAL_WINDOW_SIZE = 0x4;
    public static final int MAX_FRAME_SIZE = 0x5;
    public static final int MAX_HEADER_LIST_SIZE = 0x6;

    /** The initial value of SETTINGS_MAX_FRAME_SIZE, and the least one allowed (RFC 9113 4.2). */
    public static final int DEFAULT_MAX_FRAME_SIZE = 16_384;
    /** The initial flow-control window of a stream and of the connection (RFC 9113 6.9.2). */
    public static final int DEFAULT_WINDOW = 65_535;
    /** The largest flow-control window, 2^31-1 (RFC 9113 6.9.1). */
    public static final int MAX_WINDOW = Integer.MAX_VALUE;

    private Setting() {
    }
}
