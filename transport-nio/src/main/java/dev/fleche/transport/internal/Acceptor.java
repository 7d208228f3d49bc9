package dev.fleche.transport.internal;

import dev.fleche.transport.ErrorRenderer;

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

    private final ServerSocketChannel server;
    private final Reactor[] reactors;
    private final AtomicInteger open;
    private final int maxConnections;
    private final AtomicLong ids = new AtomicLong();
    private final AtomicLong refused = new AtomicLong();
    private final byte[] busy;
    private int next;

    public Acceptor(ServerSocketChannel server, Reactor[] reactors, AtomicInteger open, int maxConnections,
                    ErrorRenderer renderer) {
        this.busy = busyResponse(renderer);
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

    /** The 503 sent to connections over the limit, rendered once. */
    private static byte[] busyResponse(ErrorRenderer renderer) {
        ErrorRenderer.Body body = ConnectionOutput.renderError(renderer, 503, "too many connections");
        String head = "HTTP/1.1 503 Service Unavailable\r\nContent-Type: " + body.contentType() + "\r\nContent-Length: "
                + body.bytes().length + "\r\nRetry-After: 1\r\nConnection: close\r\n\r\n";
        byte[] headBytes = head.getBytes(StandardCharsets.US_ASCII);
        byte[] all = java.util.Arrays.copyOf(headBytes, headBytes.length + body.bytes().length);
        System.arraycopy(body.bytes(), 0, all, headBytes.length, body.bytes().length);
        return all;
    }

    private void refuse(SocketChannel channel) {
        try {
            channel.configureBlocking(false);
            channel.write(ByteBuffer.wrap(busy)); // a fresh socket's send buffer always takes these few bytes
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
