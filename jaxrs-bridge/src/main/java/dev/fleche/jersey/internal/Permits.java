package dev.fleche.jersey.internal;

import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicIntegerArray;

/**
 * At most {@code limit} tasks at once, counted where the threads that take and return the permits share little:
 * the limit is split into one quota per stripe plus a shared reserve, and a thread takes from its own stripe first.
 * A request takes its permit on the reactor that read it and returns it on the thread that ran it, so one stripe's
 * counter moves between those two threads instead of between every reactor and every worker of the machine, as
 * one {@code Semaphore} does (two compare-and-sets per request on a line that all cores write).
 *
 * <p>Exact: a permit is refused only when every stripe's quota and the reserve are taken (up to the races any
 * non-blocking counter has with a permit returned at the same moment), so no more than {@code limit} run and a
 * permit is never refused while fewer than {@code limit} are out. The stripe a permit came from is what
 * {@link #tryAcquire()} returns, and {@link #release(int)} gives it back there.
 */
final class Permits {
    /** What {@link #tryAcquire()} returns when no permit is left. */
    static final int NONE = -2;
    /** The token of a permit taken from the shared reserve. */
    private static final int RESERVE = -1;
    /** Ints between two stripes' counters: a 128-byte gap, so that no two share a cache line (or its neighbour). */
    private static final int SPACING = 32;

    private final int limit;
    private final int stripes;
    private final int quota;
    /** Taken permits of stripe {@code i} at {@code i * SPACING}; the reserve's free permits at {@code stripes * SPACING}. */
    private final AtomicIntegerArray counts;
    private final Object idle = new Object();
    private volatile boolean watched;

    /** {@code limit} permits; stripes: the next power of two at or above the processors, at most 64. */
    Permits(int limit) {
        this(limit, Runtime.getRuntime().availableProcessors());
    }

    Permits(int limit, int processors) {
        if (limit < 1) {
            throw new IllegalArgumentException("limit " + limit);
        }
        this.limit = limit;
        this.stripes = Integer.highestOneBit(Math.max(1, Math.min(64, processors) * 2 - 1));
        // Half of the permits go to the stripes, half stay shared: a stripe that runs hot takes from the reserve
        // before it has to look at the other stripes.
        this.quota = limit / (2 * stripes);
        this.counts = new AtomicIntegerArray((stripes + 1) * SPACING);
        counts.set(stripes * SPACING, limit - quota * stripes);
    }

    /** A permit's token (give it to {@link #release(int)}), or {@link #NONE} when all are taken. */
    int tryAcquire() {
        int home = (int) Thread.currentThread().getId() & (stripes - 1);
        if (takeFrom(home)) {
            return home;
        }
        if (takeReserve()) {
            return RESERVE;
        }
        for (int i = 1; i < stripes; i++) { // rare: the own stripe and the reserve are spent
            int stripe = (home + i) & (stripes - 1);
            if (takeFrom(stripe)) {
                return stripe;
            }
        }
        return NONE;
    }

    private boolean takeFrom(int stripe) {
        int at = stripe * SPACING;
        for (int taken = counts.get(at); taken < quota; taken = counts.get(at)) {
            if (counts.compareAndSet(at, taken, taken + 1)) {
                return true;
            }
        }
        return false;
    }

    private boolean takeReserve() {
        int at = stripes * SPACING;
        for (int free = counts.get(at); free > 0; free = counts.get(at)) {
            if (counts.compareAndSet(at, free, free - 1)) {
                return true;
            }
        }
        return false;
    }

    /** Returns the permit {@code token} came from. */
    void release(int token) {
        if (token == RESERVE) {
            counts.incrementAndGet(stripes * SPACING);
        } else {
            counts.decrementAndGet(token * SPACING);
        }
        if (watched) {
            synchronized (idle) {
                idle.notifyAll();
            }
        }
    }

    /** Permits out now (a racy sum: exact when nothing moves). */
    int taken() {
        int taken = limit - counts.get(stripes * SPACING) - quota * stripes;
        for (int i = 0; i < stripes; i++) {
            taken += counts.get(i * SPACING);
        }
        return taken;
    }

    /** Waits up to {@code timeout} until no permit is out; whether none is. */
    boolean awaitNoneTaken(Duration timeout) throws InterruptedException {
        long deadline = System.nanoTime() + timeout.toNanos();
        watched = true;
        synchronized (idle) {
            for (long left = timeout.toNanos(); taken() > 0; left = deadline - System.nanoTime()) {
                if (left <= 0) {
                    return false;
                }
                TimeUnit.NANOSECONDS.timedWait(idle, left);
            }
        }
        return true;
    }

    int limit() {
        return limit;
    }
}
