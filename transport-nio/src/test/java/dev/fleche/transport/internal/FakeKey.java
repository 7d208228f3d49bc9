package dev.fleche.transport.internal;

import java.nio.channels.SelectableChannel;
import java.nio.channels.SelectionKey;
import java.nio.channels.Selector;

/**
 * A {@link SelectionKey} with no selector, for a connection on a {@link FakeChannel}: it keeps the interest the
 * connection sets and carries the readiness the test chooses to deliver.
 */
final class FakeKey extends SelectionKey {
    private final SelectableChannel channel;
    private int interest = OP_READ;
    private int ready;
    private boolean cancelled;

    /** {@code channel} is only for the connection's addresses (an unconnected socket has none). */
    FakeKey(SelectableChannel channel) {
        this.channel = channel;
    }

    FakeKey ready(int ops) {
        ready = ops;
        return this;
    }

    @Override public SelectableChannel channel() { return channel; }
    @Override public Selector selector() { return null; }
    @Override public boolean isValid() { return !cancelled; }
    @Override public void cancel() { cancelled = true; }
    @Override public int interestOps() { return interest; }
    @Override public int readyOps() { return ready; }

    @Override
    public SelectionKey interestOps(int ops) {
        if (cancelled) {
            throw new AssertionError("interest set on a cancelled key");
        }
        interest = ops;
        return this;
    }
}
