package dev.fleche.transport.internal;

/**
 * A hashed timer wheel owned by one reactor thread: O(1) schedule and cancel, no task per tick.
 *
 * <p>Time is cut into ticks of {@code tickNanos}; bucket {@code i} holds the nodes whose deadline falls in a tick
 * congruent to {@code i} modulo the wheel size. Advancing visits only the buckets of the ticks that elapsed and
 * expires the nodes whose deadline has passed; nodes due in a later round stay where they are. Not thread-safe:
 * only the owning reactor touches it.
 */
final class TimerWheel {
    private final TimerNode[] heads;
    private final int mask;
    private final long tickNanos;
    /** The tick whose bucket is visited next. */
    private long tick;
    private long origin;
    private int size;

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
    void schedule(TimerNode node, long deadline) {
        if (node.isScheduled()) {
            cancel(node);
        }
        long due = Math.max(tick, Math.floorDiv(deadline - origin + tickNanos - 1, tickNanos));
        int index = (int) (due & mask);
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
    boolean cancel(TimerNode node) {
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
        for (long i = 0; i < visits && size > 0; i++) {
            expireBucket((int) ((tick + i) & mask), now);
        }
        if (target > tick) {
            tick = target;
        }
    }

    private void expireBucket(int index, long now) {
        TimerNode node = heads[index];
        while (node != null) {
            TimerNode next = node.next;
            if (node.deadline - now <= 0) {
                cancel(node);
                node.expire();
                if (next != null && next.bucket != index) {
                    next = heads[index]; // expire() re-arranged this bucket: rescan it
                }
            }
            node = next;
        }
    }

    /** Milliseconds until the next tick when anything is scheduled, else 0 (meaning: wait for I/O only). */
    long millisToNextTick(long now) {
        if (size == 0) {
            return 0;
        }
        long nextTickAt = origin + (tick + 1) * tickNanos;
        return Math.max(1, (nextTickAt - now + 999_999) / 1_000_000);
    }

    /** The number of scheduled nodes. */
    int size() {
        return size;
    }
}
