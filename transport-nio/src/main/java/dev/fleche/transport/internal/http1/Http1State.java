package dev.fleche.transport.internal.http1;

import dev.fleche.transport.internal.rules.Deadline;

/**
 * The phases of an HTTP/1.1 connection and the steps between them: the diagram on {@link Http1Connection}, as a
 * table ({@link #allows}) that every step is checked against ({@link #to}), each phase with its own deadline. The
 * connection holds the current one and decides; this enum only says what is allowed. {@code ConnectionStateTest}
 * holds it against the diagram.
 */
enum Http1State {
    /** TLS: the first handshake is in progress; no application bytes yet: handshake timeout. */
    HANDSHAKING(Deadline.HANDSHAKE),
    /** Waiting for a request (keep-alive): idle timeout. */
    IDLE(Deadline.IDLE),
    /** Waiting for a request while the server stops: closes soon unless one is already on its way. */
    DRAINING(Deadline.DRAIN_IDLE),
    /** Part of a request head received: header timeout. */
    READING_HEAD(Deadline.HEADER),
    /** A small {@code Content-Length} body arriving before the handler is called: body timeout. */
    READING_BODY(Deadline.BODY),
    /**
     * The handler has the exchange; the client asked for {@code Expect: 100-continue} and waits for it before it
     * sends the body (it may send it anyway): body timeout, no body rate (the client waits for us).
     */
    EXPECTING_CONTINUE(Deadline.BODY),
    /** The handler has the exchange and its body is still arriving: body timeout and rate while reading. */
    STREAMING_BODY(Deadline.BODY),
    /** The handler has the exchange; no body bytes are expected: no timeout but the write stall. */
    DISPATCHED(null),
    /** The response is out; the unread rest of the body is read and dropped: body timeout. */
    DISCARDING_BODY(Deadline.BODY),
    /**
     * The last response (or a refusal) is queued; no more input is served: write stall. Once written, closes
     * (lingers only when bytes of a pipelined request were kept).
     */
    CLOSING(null),
    /** As CLOSING, but the client may still be sending (a refused request, an unread body): lingers once written. */
    CLOSING_TO_LINGER(null),
    /** Our output is shut; the client's input is dropped until EOF or a limit (RFC 9112 9.6). */
    LINGERING(Deadline.LINGER),
    CLOSED(null);

    /** This state's own deadline ({@link Deadlines}), or null; the output's apply in every state. */
    final Deadline deadline;

    /**
     * The states {@link #allows} from this one, a bit per ordinal, so that a step is checked by one bit test;
     * set once, from {@link #allows}, when the enum is initialised.
     */
    private int successors;

    Http1State(Deadline deadline) {
        this.deadline = deadline;
    }

    static {
        for (Http1State from : values()) {
            for (Http1State next : values()) {
                if (from.allows(next)) {
                    from.successors |= 1 << next.ordinal();
                }
            }
        }
    }

    /** Returns {@code next} when the diagram has that step, throws {@link IllegalStateException} otherwise. */
    Http1State to(Http1State next) {
        if ((successors & 1 << next.ordinal()) == 0) {
            throw new IllegalStateException("connection cannot go from " + this + " to " + next);
        }
        return next;
    }

    /** The diagram: whether a connection in this state may go to {@code next}. */
    boolean allows(Http1State next) {
        if (next == CLOSED) {
            return this != CLOSED;
        }
        if (next == CLOSING || next == CLOSING_TO_LINGER) {
            return reads() && this != LINGERING; // the last response, a refusal, a timeout, the client gone
        }
        switch (this) {
            case HANDSHAKING:
                return next == IDLE;
            case IDLE, DRAINING:
                return next == READING_HEAD || startsExchange(next) || (this == IDLE && next == DRAINING);
            case READING_HEAD:
                return startsExchange(next);
            case READING_BODY:
                return next == DISPATCHED;
            case EXPECTING_CONTINUE:
                return next == STREAMING_BODY || next == DISPATCHED;
            case STREAMING_BODY:
                return next == DISPATCHED || next == DISCARDING_BODY;
            case DISPATCHED, DISCARDING_BODY:
                return next == IDLE || next == DRAINING;
            case CLOSING, CLOSING_TO_LINGER:
                return next == LINGERING;
            default:
                return false; // LINGERING and CLOSED: only CLOSED, above
        }
    }

    /** The steps a complete head takes: dispatched at once, or after its small body, or with its body streamed. */
    private static boolean startsExchange(Http1State next) {
        return next == DISPATCHED || next == READING_BODY || next == STREAMING_BODY || next == EXPECTING_CONTINUE;
    }

    /** Whether the connection reads the socket in this state (unless its intake is paused or ended). */
    boolean reads() {
        return this != CLOSING && this != CLOSING_TO_LINGER && this != CLOSED;
    }

    /** Whether the last response is queued and the connection closes once it is written. */
    boolean closing() {
        return this == CLOSING || this == CLOSING_TO_LINGER;
    }

    /** Whether no request is in flight and the next one may begin. */
    boolean waitsForRequest() {
        return this == IDLE || this == DRAINING;
    }
}
