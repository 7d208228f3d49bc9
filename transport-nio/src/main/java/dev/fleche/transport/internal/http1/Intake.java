package dev.fleche.transport.internal.http1;

/**
 * The second, small axis of an HTTP/1.1 connection's diagram: what it takes from the socket, in the states that read.
 * Reading pauses while a slow handler has a full window of body, a pipelined request waits for the one in flight, or
 * the output waiting for the client is above {@code outboundHighWaterBytes} before the next request; it ends for good
 * when the client ends its stream after a whole request (a half-close: the requests received are answered, then the
 * connection closes). The connection decides every step; this part holds the phase, as one field, and says whether a
 * step changed it. Never names the connection; reactor thread only.
 *
 * <pre>
 *   OPEN ⇄ PAUSED        OPEN ─ EOF after a whole request ─▶ ENDED
 * </pre>
 */
final class Intake {
    enum Phase { OPEN, PAUSED, ENDED }

    private Phase phase = Phase.OPEN;

    /** Whether the socket is read (in the states that read). */
    boolean open() {
        return phase == Phase.OPEN;
    }

    boolean paused() {
        return phase == Phase.PAUSED;
    }

    /** Whether the client ended its stream after a whole request. */
    boolean ended() {
        return phase == Phase.ENDED;
    }

    /** Reading pauses, unless it ended. */
    void pause() {
        if (phase == Phase.OPEN) {
            phase = Phase.PAUSED;
        }
    }

    /** Reading goes on; returns whether it was paused (else nothing changed). */
    boolean resume() {
        if (phase != Phase.PAUSED) {
            return false;
        }
        phase = Phase.OPEN;
        return true;
    }

    /** The client ended its stream: nothing more is read. */
    void end() {
        phase = Phase.ENDED;
    }
}
