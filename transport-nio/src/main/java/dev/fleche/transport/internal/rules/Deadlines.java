package dev.fleche.transport.internal.rules;

import dev.fleche.transport.ServerOptions;

/**
 * The timers of one connection ({@link Deadline}): where the current phase counts from, and which deadline is due.
 * The connection gives {@link #due} the deadline of its state (its {@code State}'s own: handshake, idle, drain,
 * header, body or linger; none while a request is dispatched or the connection is closing) and what it knows of its
 * output and body ({@link Input}); it answers which one fired, or null and {@link #next()}, when to look again.
 * It decides nothing else and holds no timer: the connection arms its one timer node. Reactor thread only.
 *
 * <pre>
 *   always:           output waiting ─▶ WRITE_STALL, RESPONSE_RATE (while the client holds a blocked response up)
 *   body phase:       reading not paused ─▶ BODY_RATE (while the body rate's window runs)
 *   the phase's own:  HANDSHAKE | IDLE | DRAIN_IDLE | HEADER | BODY | LINGER
 * </pre>
 */
public final class Deadlines {
    /** What the connection knows that the deadlines depend on, asked only when its timer fires. */
    public interface Input {
        /** Whether reading is paused because the handler holds things up (then the body's timers wait). */
        boolean readPaused();

        /** Whether response bytes wait for the client (queued, or held by the channel). */
        boolean outputWaiting();

        /** When the waiting response bytes last moved; only while {@link #outputWaiting()}. */
        long lastWriteProgress();

        /** The response's rate window, or null. */
        RateWindow responseRate();

        /** The request body's rate window, or null. */
        RateWindow requestRate();
    }

    private final ServerOptions options;
    private final long idle;
    /** Where the phase's timer counts from: the first byte of a head, else the last activity. */
    private long since;
    private long drainStarted;
    private long next;

    public Deadlines(ServerOptions options, long now) {
        this.options = options;
        this.idle = Deadline.IDLE.nanos(options);
        this.since = now;
    }

    /** The phase's timer counts from {@code now} (a phase began, bytes were read, the handler took its body). */
    public void restart(long now) {
        since = now;
    }

    /** The server began to stop at {@code started}: an idle connection closes at {@link Deadline#DRAIN_IDLE}. */
    public void drain(long started) {
        drainStarted = started;
    }

    /** When {@code phase} (a phase's own deadline, counted from {@link #restart}) is due. */
    public long at(Deadline phase) {
        if (phase == Deadline.DRAIN_IDLE) {
            long from = since - drainStarted > 0 ? since : drainStarted;
            return from + Deadline.DRAIN_IDLE.nanos(options);
        }
        return since + phase.nanos(options);
    }

    /** When waiting output whose last progress was at {@code lastWriteProgress} stalls. */
    public long stallAt(long lastWriteProgress) {
        return lastWriteProgress + Deadline.WRITE_STALL.nanos(options);
    }

    /**
     * Which deadline is due at {@code now}, the state's own being {@code phase} (null: none of its own), or null
     * when none is: {@link #next()} then tells when to look again. A rate window that reached its rate starts the
     * next window here.
     */
    public Deadline due(Deadline phase, Input in, long now) {
        if (phase == Deadline.HANDSHAKE || phase == Deadline.LINGER) {
            return dueAt(phase, at(phase), now, at(phase));
        }
        next = now + idle;
        boolean waiting = in.outputWaiting();
        Deadline fired = waiting ? outputDue(in, now) : null;
        if (fired == null && phase == Deadline.BODY && !in.readPaused()) {
            fired = bodyRateDue(in.requestRate(), now);
        }
        if (fired != null) {
            return fired;
        }
        if (phase == Deadline.DRAIN_IDLE) {
            return drainDue(waiting, now);
        }
        if (phase == Deadline.IDLE || phase == Deadline.HEADER || (phase == Deadline.BODY && !in.readPaused())) {
            return dueAt(phase, at(phase), now, Math.min(next, at(phase)));
        }
        return null; // a request dispatched, closing, or the body paused: only the output's deadlines
    }

    /** When to look again, after {@link #due} found none due. */
    public long next() {
        return next;
    }

    private Deadline dueAt(Deadline deadline, long at, long now, long otherwise) {
        if (at - now <= 0) {
            return deadline;
        }
        next = otherwise;
        return null;
    }

    private Deadline outputDue(Input in, long now) {
        long stall = stallAt(in.lastWriteProgress());
        if (stall - now <= 0) {
            return Deadline.WRITE_STALL;
        }
        next = Math.min(next, stall);
        return rateDue(in.responseRate(), Deadline.RESPONSE_RATE, now);
    }

    /** The body rate, unless the body timeout has passed too: the client stopped, and the body timeout names it. */
    private Deadline bodyRateDue(RateWindow rate, long now) {
        if (rate == null || !rate.running()) {
            return null;
        }
        if (at(Deadline.BODY) - now <= 0) {
            next = Math.min(next, rate.due());
            return null;
        }
        return rateDue(rate, Deadline.BODY_RATE, now);
    }

    private Deadline rateDue(RateWindow rate, Deadline deadline, long now) {
        if (rate == null || !rate.running()) {
            return null;
        }
        if (rate.due() - now <= 0 && rate.fellShort(now)) {
            return deadline;
        }
        next = Math.min(next, rate.due());
        return null;
    }

    /** Idle while the server stops: closes once no output waits (else "idle" names the timeout). */
    private Deadline drainDue(boolean waiting, long now) {
        long drain = at(Deadline.DRAIN_IDLE);
        if (drain - now <= 0) {
            return waiting ? Deadline.IDLE : Deadline.DRAIN_IDLE;
        }
        next = Math.min(next, drain);
        return null;
    }
}
