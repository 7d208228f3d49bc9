package dev.fleche.perf.loadgen;

import java.util.List;

/**
 * OPEN: the requests one {@link Worker} sends at a fixed rate, whatever the responses do, on its thread. Request j
 * of the worker is due at {@code start + j * interval}, on connection {@code j % n}. A connection that cannot send
 * it now (not connected, {@code depth} in flight, or earlier requests still waiting) keeps its due time in its
 * backlog and sends it as soon as it can, so its latency counts from when it was due (coordinated omission
 * corrected). A backlog holds at most {@link #MAX_BACKLOG} requests; beyond that they are dropped (and counted
 * while recording).
 */
final class OpenLoop {
    private static final int MAX_BACKLOG = 1 << 20;

    private final Worker worker;
    private final Engine engine;
    private final Stats stats;
    private final List<Conn> conns;
    private final byte[] request;
    private final int depth;
    private final double intervalNanos;
    private long start;
    private long next;

    /** The schedule of {@code rateShare} requests per second over {@code conns} (none when not positive). */
    OpenLoop(Worker worker, Engine engine, Stats stats, List<Conn> conns, byte[] request, double rateShare) {
        this.worker = worker;
        this.engine = engine;
        this.stats = stats;
        this.conns = conns;
        this.request = request;
        this.depth = engine.spec().depth();
        this.intervalNanos = rateShare > 0 ? 1e9 / rateShare : 0;
    }

    /** Request 0 is due at {@code now}. */
    void start(long now) {
        start = now;
    }

    /** When the next request is due (nanoTime), or {@link Long#MAX_VALUE} while none will be. */
    long nextDueNanos() {
        return engine.sending() && intervalNanos > 0 ? dueTime(next) : Long.MAX_VALUE;
    }

    /** Sends (or backlogs, or drops) every request due by {@code now}. */
    void tick(long now) {
        if (!engine.sending() || intervalNanos <= 0 || conns.isEmpty()) {
            return;
        }
        int n = conns.size();
        for (long due; (due = dueTime(next)) <= now; next++) {
            Conn c = conns.get((int) (next % n));
            if (c.connected && c.inFlight() < depth && c.backlogSize() == 0) {
                worker.send(c, due, now);
            } else if (c.backlogSize() < MAX_BACKLOG) {
                c.addBacklog(due);
            } else if (engine.recording()) {
                stats.dropped++;
            }
        }
    }

    /** {@code c} just connected: queues as much of its backlog as {@code depth} allows (the caller flushes). */
    void connected(Conn c, long now) {
        while (c.backlogSize() > 0 && c.inFlight() < depth) {
            c.enqueue(request, c.takeBacklog(), now);
        }
    }

    /** A response arrived on {@code c}: queues its oldest backlogged request, if any (the caller flushes). */
    void responded(Conn c, long now) {
        if (c.backlogSize() > 0 && engine.sending()) {
            c.enqueue(request, c.takeBacklog(), now);
        }
    }

    private long dueTime(long j) {
        return start + (long) (j * intervalNanos);
    }
}
