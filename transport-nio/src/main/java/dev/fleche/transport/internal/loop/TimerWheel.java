package dev.fleche.transport.internal.loop;

/**
 * A hashed timer wheel owned by one reactor thread: O(1) schedule and cancel, no task per tick.
 *
 * <p>Time is cut into ticks of {@code tickNanos}; bucket {@code i} holds the nodes whose deadline falls in a tick
 * congruent to {@code i} modulo the wheel size. Advancing visits the buckets of the ticks that elapsed and the
 * current tick's, and expires the nodes whose deadline has passed; nodes due in a later round stay where they are.
 * Not thread-safe: only the owning reactor touches it.
 *
 * <p>Precision: the reactor waits until the next tick, or until the earliest deadline of the current tick when
 * that comes first ({@link #millisToWake}), so a node expires within about a millisecond of its deadline
 * rather than at the end of its tick — without waking the reactor more often than once a tick when nothing is due
 * sooner.
 */
public final class TimerWheel {
    private final TimerNode[] heads;
    private final int mask;
    private final long tickNanos;
    /** The tick whose bucket is visited next. */
    private long tick;
    private long origin;
    private int size;
    /**
     * The earliest deadline of a node in the current tick (before its end), or {@code Long.MAX_VALUE}; may name a
     * node since cancelled or expired, which only costs a wake-up that finds nothing to do.
     */
    private long soonest = Long.MAX_VALUE;

    TimerWheel(int buckets, long tickNanos, long now) {
        if (Integer.bitCount(buckets) != 1) {
            throw new IllegalArgumentException("buckets must be a power of two: " + buckets);
        }
        this.heads = new TimerNode[buckets];
        this.mask = buckets - 1;
        this.tickNanos = tickNanos;
        this.origin = now;
    }

    /** Schedules (or re-schedules) {@code node} to expire at {@code deadline} (same clock as {@link #advance}). */
    public void schedule(TimerNode node, long deadline) {
        if (node.isScheduled()) {
            cancel(node);
        }
        long due = Math.max(tick, Math.floorDiv(deadline - origin, tickNanos));
        int index = (int) (due & mask);
        if (due == tick && deadline - soonest < 0) {
            soonest = deadline;
        }
        node.deadline = deadline;
        node.bucket = index;
        node.prev = null;
        node.next = heads[index];
        if (node.next != null) {
            node.next.prev = node;
        }
        heads[index] = node;
        size++;
    }

    /** Unlinks {@code node}; returns whether it was scheduled. */
    public boolean cancel(TimerNode node) {
        int index = node.bucket;
        if (index < 0) {
            return false;
        }
        if (node.prev != null) {
            node.prev.next = node.next;
        } else {
            heads[index] = node.next;
        }
        if (node.next != null) {
            node.next.prev = node.prev;
        }
        node.prev = null;
        node.next = null;
        node.bucket = -1;
        size--;
        return true;
    }

    /** Expires every node whose deadline is at or before {@code now}. */
    void advance(long now) {
        long target = Math.floorDiv(now - origin, tickNanos);
        long visits = Math.min(target - tick + 1, heads.length);
        if (target > tick) {
            tick = target; // first, so that nodes expire() re-arms within the current tick update soonest
        }
        soonest = Long.MAX_VALUE;
        long tickEnd = origin + (target + 1) * tickNanos;
        for (long i = visits - 1; i >= 0 && size > 0; i--) {
            expireBucket((int) ((target - i) & mask), now, tickEnd);
        }
    }

    /**
     * Expires the bucket's nodes due by {@code now}; notes the earliest deadline before {@code tickEnd} left in it
     * (a node of the current tick not due yet).
     */
    private void expireBucket(int index, long now, long tickEnd) {
        TimerNode node = heads[index];
        while (node != null) {
            TimerNode next = node.next;
            if (node.deadline - now <= 0) {
                cancel(node);
                node.expire();
                if (next != null && next.bucket != index) {
                    next = heads[index]; // expire() re-arranged this bucket: rescan it
                }
            } else if (node.deadline - tickEnd < 0 && node.deadline - soonest < 0) {
                soonest = node.deadline;
            }
            node = next;
        }
    }

    /**
     * Milliseconds until the next tick, or until the current tick's earliest deadline when sooner (rounded up, at
     * least 1), when anything is scheduled; else 0 (meaning: wait for I/O only).
     */
    long millisToWake(long now) {
        if (size == 0) {
            return 0;
        }
        long wakeAt = origin + (tick + 1) * tickNanos;
        if (soonest - wakeAt < 0) {
            wakeAt = soonest;
        }
        return Math.max(1, (wakeAt - now + 999_999) / 1_000_000);
    }

    /** The number of scheduled nodes. */
    public int size() {
        return size;
    }
}
