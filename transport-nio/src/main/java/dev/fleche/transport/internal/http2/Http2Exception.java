package dev.fleche.transport.internal.http2;

/**
 * A violation of RFC 9113 found where it was found (the frame reader, the connection's checks of a request), carried
 * as data to the one place that answers it: a connection error ({@link #stream()} 0: {@code GOAWAY}, then close) or
 * a stream error ({@code RST_STREAM} on that stream, the connection goes on). The message says what was wrong and
 * is safe to send as {@code GOAWAY} debug data. No stack trace: the client's mistake, not ours.
 */
public final class Http2Exception extends Exception {
    private final Http2Error error;
    private final int stream;
    /** The name of the budget's rule when a budget was exceeded ({@link #calm}), else null. */
    private final String rule;

    private Http2Exception(Http2Error error, int stream, String message, String rule) {
        super(message, null, false, false);
        this.error = error;
        this.stream = stream;
        this.rule = rule;
    }

    /** An error of the whole connection (RFC 9113 5.4.1). */
    public static Http2Exception connection(Http2Error error, String message) {
        return new Http2Exception(error, 0, message, null);
    }

    /**
     * A connection error {@code ENHANCE_YOUR_CALM} (RFC 9113 10.5): the client went beyond a budget, named by
     * {@code rule} (the rule it is counted and access-logged under).
     */
    public static Http2Exception calm(String rule, String message) {
        return new Http2Exception(Http2Error.ENHANCE_YOUR_CALM, 0, message, rule);
    }

    /** An error of {@code stream} only (RFC 9113 5.4.2). */
    public static Http2Exception stream(int stream, Http2Error error, String message) {
        if (stream <= 0) {
            throw new IllegalArgumentException("a stream error needs a stream, was " + stream);
        }
        return new Http2Exception(error, stream, message, null);
    }

    public Http2Error error() {
        return error;
    }

    /** The stream in error, or 0 for a connection error. */
    public int stream() {
        return stream;
    }

    /** The rule of the budget the client went beyond ({@link #calm}), or null. */
    public String rule() {
        return rule;
    }

    public boolean isConnectionError() {
        return stream == 0;
    }
}
