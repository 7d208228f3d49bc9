package dev.fleche.transport.internal;

import java.io.IOException;
import java.net.StandardSocketOptions;
import java.nio.ByteBuffer;
import java.nio.channels.ClosedChannelException;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Accepts connections on a blocking server channel and hands each to the next reactor, round robin. Beyond
 * {@code maxConnections} a new connection gets a short {@code 503} and is closed.
 */
public final class Acceptor implements Runnable {
    private static final byte[] BUSY = ("HTTP/1.1 503 Service Unavailable\r\nContent-Type: text/plain; charset=utf-8\r\n"
            + "Content-Length: 20\r\nRetry-After: 1\r\nConnection: close\r\n\r\ntoo many connections\n")
            .getBytes(StandardCharsets.US_ASCII);

    private final ServerSocketChannel server;
    private final Reactor[] reactors;
    private final AtomicInteger open;
    private final int maxConnections;
    private final AtomicLong ids = new AtomicLong();
    private final AtomicLong refused = new AtomicLong();
    private int next;

    public Acceptor(ServerSocketChannel server, Reactor[] reactors, AtomicInteger open, int maxConnections) {
        this.server = server;
        this.reactors = reactors;
        this.open = open;
        this.maxConnections = maxConnections;
    }

    @Override
    public void run() {
        while (server.isOpen()) {
            SocketChannel channel;
            try {
                channel = server.accept();
            } catch (ClosedChannelException e) {
                return;
            } catch (IOException e) {
                Events.warn("accept-error", -1, e);
                continue; // e.g. EMFILE: keep serving the connections we have
            }
            adopt(channel);
        }
    }

    private void adopt(SocketChannel channel) {
        if (open.incrementAndGet() > maxConnections) {
            open.decrementAndGet();
            refused.incrementAndGet();
            refuse(channel);
            return;
        }
        try {
            channel.configureBlocking(false);
            channel.setOption(StandardSocketOptions.TCP_NODELAY, true);
        } catch (IOException e) {
            open.decrementAndGet();
            closeQuietly(channel);
            return;
        }
        Reactor reactor = reactors[next];
        next = (next + 1) % reactors.length;
        reactor.adopt(channel, ids.incrementAndGet());
    }

    private static void refuse(SocketChannel channel) {
        try {
            channel.configureBlocking(false);
            channel.write(ByteBuffer.wrap(BUSY)); // a fresh socket's send buffer always takes these few bytes
        } catch (IOException ignored) {
            // closing anyway
        }
        closeQuietly(channel);
    }

    private static void closeQuietly(SocketChannel channel) {
        try {
            channel.close();
        } catch (IOException ignored) {
            // nothing more to do
        }
    }

    /** Connections refused because the limit was reached. */
    public long refused() {
        return refused.get();
    }
}
