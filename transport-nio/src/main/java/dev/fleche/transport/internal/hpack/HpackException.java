package dev.fleche.transport.internal.hpack;

/** STAND-IN until the hpack branch is merged: the API only. */
public final class HpackException extends Exception {
    public enum Kind { COMPRESSION_ERROR, HEADER_LIST_TOO_LARGE }

    private final Kind kind;

    public HpackException(Kind kind, String message) {
        super(message, null, false, false);
        this.kind = kind;
    }

    public Kind kind() {
        return kind;
    }
}
