package dev.fleche.transport.internal.http2;

/** The error codes of RFC 9113 section 7, as sent in {@code RST_STREAM} and {@code GOAWAY}. */
public enum Http2Error {
    NO_ERROR(0x0),
    PROTOCOL_ERROR(0x1),
    INTERNAL_ERROR(0x2),
    FLOW_CONTROL_ERROR(0x3),
    SETTINGS_TIMEOUT(0x4),
    STREAM_CLOSED(0x5),
    FRAME_SIZE_ERROR(0x6),
    REFUSED_STREAM(0x7),
    CANCEL(0x8),
    COMPRESSION_ERROR(0x9),
    CONNECT_ERROR(0xa),
    ENHANCE_YOUR_CALM(0xb),
    INADEQUATE_SECURITY(0xc),
    HTTP_1_1_REQUIRED(0xd);

    private final int code;

    Http2Error(int code) {
        this.code = code;
    }

    /** The code on the wire. */
    public int code() {
        return code;
    }

    /** The name of a received code; an unknown code is kept as its number (RFC 9113 7: not an error). */
    public static String describe(int code) {
        for (Http2Error error : values()) {
            if (error.code == code) {
                return error.name();
            }
        }
        return "0x" + Integer.toHexString(code);
    }
}
