package dev.fleche.transport.internal.loop;

import dev.fleche.transport.internal.telemetry.Events;
import dev.fleche.transport.internal.rules.Refusal;
import dev.fleche.transport.internal.telemetry.accesslog.AccessLogWriter;
import dev.fleche.transport.internal.telemetry.accesslog.LogEntry;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.StandardSocketOptions;
import java.nio.ByteBuffer;
import java.nio.channels.ClosedChannelException;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Consumer;

/**
 * Accepts connections on a blocking server channel and hands each to the next reactor, round robin. Beyond
 * {@code maxConnections} a new connection gets the {@link Refusal#OVERLOADED} answer ({@code 503} with
 * {@code Retry-After}, encoded like every refusal, by the wiring's {@code overloaded}) and is closed. On a TLS port it is closed without a byte: a
 * client there expects a handshake, and plaintext in its place would read as a corrupt record; a refusal over TLS
 * would cost the handshake the limit is there to spare. With an access log, a line says so either way.
 */
public final class Acceptor implements Runnable {

    private final ServerSocketChannel server;
    private final Reactor[] reactors;
    private final AtomicInteger open;
    private final int maxConnections;
    private final AtomicLong ids = new AtomicLong();
    private final AtomicLong refused = new AtomicLong();
    /** Whether the port speaks plain HTTP (a refusal is written) or TLS (a refusal is a close). */
    private final boolean plaintext;
    /** Writes the overload refusal's bytes (the server's wiring encodes it: the loop names no protocol). */
    private final Consumer<ByteSink> overloaded;
    /** The acceptor's buffer for that refusal. */
    private final ByteSink refusal = new ByteSink(256);
    /** The server's access log, or null. */
    private final AccessLogWriter accessLog;
    /** TCP (false: a Unix domain socket, which has no {@code TCP_NODELAY} and no IP peer). */
    private final boolean tcp;
    private int next;

    /**
     * @param overloaded writes the answer beyond {@code maxConnections} ({@link Refusal#OVERLOADED}) into the sink it
     *                   is given; called on the acceptor's thread only
     */
    public Acceptor(ServerSocketChannel server, Reactor[] reactors, AtomicInteger open, int maxConnections,
                    Consumer<ByteSink> overloaded, boolean plaintext, AccessLogWriter accessLog) {
        this.overloaded = overloaded;
        this.plaintext = plaintext;
        this.accessLog = accessLog;
        this.server = server;
        this.reactors = reactors;
        this.open = open;
        this.maxConnections = maxConnections;
        boolean inet;
        try {
            inet = server.getLocalAddress() instanceof InetSocketAddress;
        } catch (IOException e) {
            inet = true; // closed already: the acceptor ends at once
        }
        this.tcp = inet;
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
            if (tcp) {
                channel.setOption(StandardSocketOptions.TCP_NODELAY, true);
            }
        } catch (IOException e) {
            open.decrementAndGet();
            closeQuietly(channel);
            return;
        }
        Reactor reactor = reactors[next];
        next = (next + 1) % reactors.length;
        reactor.adopt(channel, ids.incrementAndGet());
    }

    private void refuse(SocketChannel channel) {
        int written = 0;
        if (plaintext) {
            try {
                channel.configureBlocking(false);
                refusal.clear();
                overloaded.accept(refusal);
                // a fresh socket's send buffer always takes these few bytes
                written = channel.write(ByteBuffer.wrap(refusal.array(), 0, refusal.size()));
            } catch (IOException ignored) {
                // closing anyway
            }
        }
        if (accessLog != null) {
            log(channel, written);
        }
        closeQuietly(channel);
    }

    /** The access-log line of a refused connection: no id, no request, the {@code 503} and its rule. */
    private void log(SocketChannel channel, int written) {
        LogEntry entry = new LogEntry();
        try {
            entry.peer = channel.getRemoteAddress() instanceof InetSocketAddress inet ? inet : null;
        } catch (IOException ignored) {
            // logged without an address
        }
        entry.status = Refusal.OVERLOADED.status();
        entry.rule = Refusal.OVERLOADED.name();
        entry.bytesOut = written;
        entry.cut = !plaintext || written < refusal.size(); // on a TLS port nothing is sent
        entry.endWallMillis = accessLog.clock().millis();
        accessLog.offer(entry);
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
