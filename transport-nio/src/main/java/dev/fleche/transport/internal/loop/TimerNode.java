package dev.fleche.transport.internal.loop;

/**
 * An entry of a {@link TimerWheel}: intrusive (the node is its own list link), so scheduling and cancelling
 * allocate nothing and a connection can re-arm the same node for its whole life.
 */
public abstract class TimerNode {
    TimerNode prev;
    TimerNode next;
    protected long deadline;
    /** The wheel bucket holding this node, or -1 when not scheduled. */
    int bucket = -1;

    /** Runs on the reactor thread when the deadline has passed. */
    protected abstract void expire();

    /** When it is due (the reactor's clock); meaningful while {@link #isScheduled()}. */
    public final long deadline() {
        return deadline;
    }

    public final boolean isScheduled() {
        return bucket >= 0;
    }
}
