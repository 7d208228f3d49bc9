package dev.fleche.transport.internal.http2.hpack;

/**
 * A header block the decoder refuses. Its message names the rule, e.g. {@code "RFC 7541 §6.1: index 0"}.
 *
 * <p>{@link Kind#COMPRESSION_ERROR} is a connection error (RFC 9113 §4.3: the decoder's table can no longer be
 * trusted, so the connection ends with {@code GOAWAY(COMPRESSION_ERROR)}). {@link Kind#HEADER_LIST_TOO_LARGE} is
 * a stream error: the whole block was decoded and the table is in sync, only the stream is refused ({@code 431}
 * or {@code RST_STREAM}).
 *
 * <p>It is the peer's mistake, so it carries no stack trace (it is cheap to raise, however often a peer provokes
 * it); the message says where.
 */
public final class HpackException extends Exception {
    private static final long serialVersionUID = 1L;

    /** What the connection does about it. */
    public enum Kind {
        /** A malformed block: a connection error of type {@code COMPRESSION_ERROR}. */
        COMPRESSION_ERROR,
        /** The decoded header list is larger than {@code SETTINGS_MAX_HEADER_LIST_SIZE}: a stream error. */
        HEADER_LIST_TOO_LARGE
    }

    private final Kind kind;

    HpackException(Kind kind, String message) {
        super(message, null, false, false);
        this.kind = kind;
    }

    public Kind kind() {
        return kind;
    }
}
