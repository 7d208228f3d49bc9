package dev.fleche.transport.internal.http2;

import dev.fleche.transport.ServerOptions;
import dev.fleche.transport.internal.rules.Deadline;
import dev.fleche.transport.internal.rules.RateWindow;

/**
 * The deadlines and minimum rates of an HTTP/2 connection's streams, each stream's kept in its {@link H2Stream}: the
 * body timeout and the minimum request-body rate while the client owes body bytes, the minimum response rate while a
 * response waits on the stream's own window. It starts their windows and says which is due on a stream; what to do
 * then ({@code 408}, a reset) is the owner's, as is arming the connection's one timer at the times it returns.
 * Never names the connection; reactor thread only.
 *
 * <pre>
 *   body:     client owes bytes (its side open, the handler not holding up) ─ none for bodyTimeout ─▶ BODY
 *                                                                          └ fewer than the rate per window ─▶ BODY_RATE
 *   response: held by the stream's own window ─ fewer than the rate per window ─▶ RESPONSE_RATE
 *             held by the connection's window ─ the window ends ─▶ a new window (not the client's doing)
 * </pre>
 */
final class StreamTimers {
    private final ServerOptions options;
    private final long bodyNanos;
    private final long idleNanos;

    StreamTimers(ServerOptions options) {
        this.options = options;
        this.bodyNanos = Deadline.BODY.nanos(options);
        this.idleNanos = Deadline.IDLE.nanos(options);
    }

    /** Whether the client owes body bytes on {@code s} now (for its body timeout). */
    static boolean owesBody(H2Stream s) {
        return s.remoteOpen() && !s.readerPaused;
    }

    /** The client owes {@code s} body bytes from {@code now}: its body timeout counts from here; returns when it ends. */
    long bodyOwed(H2Stream s, long now) {
        s.bodySince = now;
        return now + bodyNanos;
    }

    /**
     * A new window of the body's minimum rate on {@code s} from {@code now} (the client owes body bytes); returns when
     * it ends, or {@link Long#MIN_VALUE} when the rate is off.
     */
    long startBodyRate(H2Stream s, long now) {
        if (s.bodyRate == null) {
            s.bodyRate = RateWindow.of(options.minRequestBodyRate());
        }
        if (s.bodyRate == null) {
            return Long.MIN_VALUE;
        }
        s.bodyRate.start(now);
        return s.bodyRate.due();
    }

    /**
     * The response of {@code s} waits on its window: the response's minimum rate runs from {@code now}, unless it runs
     * already; returns when its window ends, or {@link Long#MIN_VALUE} when none started.
     */
    long startResponseRate(H2Stream s, long now) {
        if (s.responseRate == null) {
            s.responseRate = RateWindow.of(options.minResponseRate());
        }
        if (s.responseRate == null || s.responseRate.running()) {
            return Long.MIN_VALUE;
        }
        s.responseRate.start(now);
        return s.responseRate.due();
    }

    /** The earliest a walk of the streams has to look again: the idle timeout from {@code now}, at the latest. */
    long horizon(long now) {
        return now + idleNanos;
    }

    /**
     * Which body deadline is due on {@code s} (whose client owes body bytes) at {@code now}: {@link Deadline#BODY}
     * (no bytes for {@code bodyTimeout}), {@link Deadline#BODY_RATE} (fewer than the rate over a window; a window
     * that reached it starts the next), or null.
     */
    Deadline bodyDue(H2Stream s, long now) {
        if (s.bodySince + bodyNanos - now <= 0) {
            return Deadline.BODY;
        }
        if (s.bodyRate != null && s.bodyRate.running() && s.bodyRate.due() - now <= 0 && s.bodyRate.fellShort(now)) {
            return Deadline.BODY_RATE;
        }
        return null;
    }

    /** When to look at the body of {@code s} again: its timeout, or its rate window's end if earlier. */
    long bodyNext(H2Stream s) {
        long timeoutAt = s.bodySince + bodyNanos; // (a 408 restarted both for the rest)
        RateWindow rate = s.bodyRate;
        return rate == null || !rate.running() || timeoutAt - rate.due() < 0 ? timeoutAt : rate.due();
    }

    /**
     * Whether the response rate of {@code s} is due and fell short at {@code now}: only while the stream's own window
     * holds it back (one held back by the connection's window starts a new window instead). A rate that runs for a
     * stream no longer blocked is stopped.
     */
    boolean responseTooSlow(H2Stream s, long now) {
        RateWindow rate = s.responseRate;
        if (rate == null || !rate.running() || !s.blocked()) {
            RateWindow.stop(rate);
            return false;
        }
        if (rate.due() - now > 0) {
            return false;
        }
        if (s.sendWindow > 0) {
            rate.start(now); // the connection's window holds it back, not this stream's client
            return false;
        }
        return rate.fellShort(now);
    }

    /** When the response rate of {@code s} is due next, or {@link Long#MIN_VALUE} when it does not run. */
    static long responseNext(H2Stream s) {
        RateWindow rate = s.responseRate;
        return rate == null || !rate.running() ? Long.MIN_VALUE : rate.due();
    }
}
