package dev.fleche.transport;

import java.io.IOException;

/**
 * Reading a request body failed because of the client, not the server: the transport refused the body (bad
 * framing {@code 400}, too slow {@code 408}, too large {@code 413}) and has answered with {@link #status()}
 * itself, or the client left (or the connection closed) before the body was complete, {@link #status()}
 * {@value #CLIENT_GONE} and nothing answered. Thrown by the stream of {@link HttpExchange#requestBody()} and by
 * {@link HttpExchange#expectBufferedBody()}.
 *
 * <p>A layer above the transport should treat it as the client's mistake: count it, log it at most at debug
 * level, and send nothing more (the transport has claimed the response). It carries no stack trace: it is an
 * expected event, as frequent as clients make it.
 */
public final class RequestBodyException extends IOException {
    private static final long serialVersionUID = 1L;

    /** The {@link #status()} of a body cut short by the client leaving: {@code 499}, as proxies log it. */
    public static final int CLIENT_GONE = 499;

    private final int status;
    private final String rule;

    /**
     * @param status the status answered (or {@value #CLIENT_GONE} when none could be)
     * @param rule   the name of the rule that refused the body, as in the access log ({@code BODY_TOO_LARGE},
     *               {@code CHUNK_SIZE_INVALID}, ...), or {@code client-gone}
     * @param reason the reason, safe to show to the client
     */
    public RequestBodyException(int status, String rule, String reason) {
        super(reason);
        this.status = status;
        this.rule = rule;
    }

    /** The status the transport answered, or {@value #CLIENT_GONE} when the client left before any answer. */
    public int status() {
        return status;
    }

    /** The rule that refused the body (as the access log names it), or {@code client-gone}. */
    public String rule() {
        return rule;
    }

    @Override
    public Throwable fillInStackTrace() {
        return this; // an expected event: no stack trace to capture
    }

    /** Whether the body exceeded a limit ({@code 413}). */
    public boolean tooLarge() {
        return status == 413;
    }
}
