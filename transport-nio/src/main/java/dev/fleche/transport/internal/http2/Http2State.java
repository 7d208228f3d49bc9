package dev.fleche.transport.internal.http2;

/**
 * The phases of an HTTP/2 connection and the steps between them: the diagram on {@link Http2Connection}, checked at
 * every step ({@link #to}). The connection holds the current one and decides; this enum only says what is allowed.
 * {@code Http2StatesTest} holds it against the diagram.
 */
enum Http2State {
    PREFACE, OPEN, DRAINING, CLOSING, GOING_AWAY, CLOSED;

    Http2State to(Http2State next) {
        boolean allowed = switch (this) {
            case PREFACE -> next == OPEN || next == GOING_AWAY || next == CLOSED;
            case OPEN -> next == DRAINING || next == GOING_AWAY || next == CLOSED;
            case DRAINING -> next == CLOSING || next == GOING_AWAY || next == CLOSED;
            case CLOSING, GOING_AWAY -> next == CLOSED;
            case CLOSED -> false;
        };
        if (!allowed) {
            throw new IllegalStateException("HTTP/2 connection cannot go from " + this + " to " + next);
        }
        return next;
    }

    /** Whether frames from the client are read in this state. */
    boolean reads() {
        return this == PREFACE || this == OPEN || this == DRAINING;
    }

    /** Whether our last frame is queued: the connection closes once its output is written. */
    boolean closing() {
        return this == CLOSING || this == GOING_AWAY;
    }
}
