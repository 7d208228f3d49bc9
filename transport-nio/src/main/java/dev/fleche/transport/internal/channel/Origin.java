package dev.fleche.transport.internal.channel;

import dev.fleche.transport.ProxyInfo;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.SocketAddress;
import java.nio.channels.SocketChannel;

/**
 * Where a connection comes from: the client's address and port and the one it connected to, as the exchange, the
 * access log and the events report them. By default the socket's own; on a PROXY protocol listener the ones the
 * header carried ({@link ProxyInfo}), unless it carried none ({@code LOCAL}, {@code UNKNOWN}). On a Unix domain
 * socket the socket has no IP addresses: both are {@code null} unless a PROXY header gave them. Read once, when the
 * connection is adopted (the JDK caches both on the channel: no system call), so they stay known after a close.
 * Immutable; any thread.
 */
public final class Origin {
    private final ProxyInfo proxy;
    private final InetSocketAddress remote;
    private final InetSocketAddress local;

    private Origin(SocketChannel socket, ProxyInfo proxy) {
        this.proxy = proxy;
        if (proxy != null && !proxy.local()) {
            remote = proxy.source();
            local = proxy.destination();
        } else {
            remote = inet(address(socket, true));
            local = inet(address(socket, false));
        }
    }

    /** The socket's own addresses. */
    public static Origin of(SocketChannel socket) {
        return new Origin(socket, null);
    }

    /** What a PROXY header said, or the socket's addresses when it carried none. */
    public static Origin proxied(SocketChannel socket, ProxyInfo proxy) {
        return new Origin(socket, proxy);
    }

    /** The PROXY header, or null when the listener takes none. */
    public ProxyInfo proxy() {
        return proxy;
    }

    /** The client's address: the PROXY header's source, else the socket's peer; null on a Unix domain socket. */
    public InetSocketAddress remote() {
        return remote;
    }

    /** The address the client connected to: the header's destination, else the socket's; null on a Unix socket. */
    public InetSocketAddress local() {
        return local;
    }

    /** The socket's peer (or own) address as the JDK has it: an {@code InetSocketAddress} or a Unix one; null once closed. */
    public static SocketAddress address(SocketChannel socket, boolean peer) {
        try {
            return peer ? socket.getRemoteAddress() : socket.getLocalAddress();
        } catch (IOException | RuntimeException e) {
            return null; // closed under us
        }
    }

    private static InetSocketAddress inet(SocketAddress address) {
        return address instanceof InetSocketAddress inet ? inet : null;
    }

    @Override
    public String toString() {
        return String.valueOf(remote);
    }
}
