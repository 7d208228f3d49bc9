package dev.fleche.transport.internal.loop;

import dev.fleche.transport.internal.channel.ConnectionChannel;

import java.nio.channels.SelectionKey;

/**
 * The interest set of one connection's selection key, the same for both protocols: what the connection wants (read,
 * write) goes through its {@link ConnectionChannel} (a TLS channel may want the other direction for its handshake or
 * its records) and is set on the key only when it changes. Owns the key once the socket is registered, and the
 * interest last set; the connection decides what it wants. Reactor thread only.
 */
public final class KeyInterest {
    private final ConnectionChannel channel;
    private SelectionKey key;
    /** The interest set on the key. */
    private int interest;

    /** Before the socket is registered: the key comes with {@link #registered}, its interest {@code OP_READ}. */
    public KeyInterest(ConnectionChannel channel) {
        this.channel = channel;
        this.interest = SelectionKey.OP_READ;
    }

    /** A key registered already (a socket handed over by another connection), with the interest it has. */
    public KeyInterest(ConnectionChannel channel, SelectionKey key) {
        this.channel = channel;
        this.key = key;
        this.interest = key.interestOps();
    }

    public void registered(SelectionKey registered) {
        key = registered;
    }

    public SelectionKey key() {
        return key;
    }

    /** Sets the key's interest to {@code reading} and {@code writing} as the channel needs them; only on change. */
    public void want(boolean reading, boolean writing) {
        int wanted = (reading ? SelectionKey.OP_READ : 0) | (writing ? SelectionKey.OP_WRITE : 0);
        int ops = channel.interestOps(wanted);
        if (ops != interest) {
            interest = ops;
            key.interestOps(ops);
        }
    }

    /** The connection closed: the key is cancelled. */
    public void cancel() {
        key.cancel();
    }
}
