package dev.fleche.perf.loadgen;

import dev.fleche.perf.loadgen.LoadSpec.Mode;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.StandardSocketOptions;
import java.nio.channels.SelectionKey;
import java.nio.channels.Selector;
import java.nio.channels.SocketChannel;
import java.util.ArrayDeque;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * The life of one {@link Worker}'s connections, on its thread: opens them (at most {@code maxConnecting} connects
 * in progress), retries a failed connect after a doubling back-off, and when a connection breaks either reopens it
 * (closed and open loop) or gives it up (the other modes, which count it with the {@link Engine}).
 *
 * <pre>
 *   +--------+  connect   +------------+  finishConnect  +-----------+
 *   | queued |----------->| connecting |---------------->| connected |   (queued: until its retryAtNanos, and
 *   +--------+            +------------+                 +-----------+    while maxConnecting are connecting)
 *     ^    ^  failed or timed out |                            | lost, or no response in time
 *     |    +----------------------+ CLOSED/OPEN while sending, |
 *     |      after 200 ms, doubling (at most 5 tries)          |
 *     +--------------------------------------------------------+ CLOSED/OPEN while sending: reopened at once
 *   otherwise: closed for good (IDLE/SSE: counted finished unless answered; LONG_POLL: counted failed)
 * </pre>
 *
 * With TLS every connect gets a new {@link TlsLink} (its handshake starts with the first write), and a connection
 * counts as connecting until its handshake finished: at most {@code maxConnecting} handshakes are in progress, so
 * that thousands of idle connections do not start thousands of handshakes at once (servers give up on a handshake
 * after a timeout, typically 10 s); with a
 * connection per request, a connection whose response arrived is closed and queued for its next connect at once
 * ({@link #recycle}).
 */
final class Connector {
    private static final int MAX_CONNECT_FAILURES = 5;

    private final Worker worker;
    private final Engine engine;
    private final Stats stats;
    private final Mode mode;
    private final InetSocketAddress target;
    private final ArrayDeque<Conn> toConnect = new ArrayDeque<>();
    private final int maxConnecting;
    private final TlsClient tls;
    private final TlsLink.Buffers tlsBuffers;
    private int connecting;
    /** TLS: connections connected whose handshake has not finished (each has {@link Conn#handshaking} set). */
    private int handshaking;

    /**
     * Queues every one of {@code conns} for its first connect; {@code worker} hears of each that connects;
     * {@code tlsBuffers} is the worker's ciphertext scratch space (unused without TLS).
     */
    Connector(Worker worker, Engine engine, Stats stats, List<Conn> conns, TlsLink.Buffers tlsBuffers) {
        LoadSpec spec = engine.spec();
        this.worker = worker;
        this.engine = engine;
        this.stats = stats;
        this.mode = spec.mode();
        this.target = new InetSocketAddress(spec.host(), spec.port());
        this.maxConnecting = Math.max(16, 256 / spec.threads());
        this.tls = engine.tlsClient();
        this.tlsBuffers = tlsBuffers;
        toConnect.addAll(conns);
    }

    /** When the next queued connect may start (nanoTime), or {@link Long#MAX_VALUE} when none may. */
    long nextConnectNanos() {
        if (!toConnect.isEmpty() && connecting + handshaking < maxConnecting) {
            return toConnect.peek().retryAtNanos;
        }
        return Long.MAX_VALUE;
    }

    /** Starts the queued connects that are due, as long as fewer than {@code maxConnecting} are in progress. */
    void startConnects(Selector selector, long now) {
        while (connecting + handshaking < maxConnecting && !toConnect.isEmpty()
                && toConnect.peek().retryAtNanos <= now) {
            Conn c = toConnect.poll();
            if (c.done || c.channel != null) {
                continue;
            }
            try {
                SocketChannel ch = SocketChannel.open();
                c.channel = ch;
                ch.configureBlocking(false);
                ch.setOption(StandardSocketOptions.TCP_NODELAY, true);
                if (c.source != null) {
                    ch.bind(new InetSocketAddress(c.source, 0));
                }
                c.connectStartNanos = now;
                if (tls != null) {
                    c.tls = new TlsLink(tls.newEngine(c.index), tlsBuffers);
                }
                if (ch.connect(target)) {
                    c.key = ch.register(selector, SelectionKey.OP_READ, c);
                    startHandshake(c);
                    worker.connected(c, now);
                } else {
                    c.key = ch.register(selector, SelectionKey.OP_CONNECT, c);
                    connecting++;
                }
            } catch (IOException e) {
                connectFailed(c, now, e);
            }
        }
    }

    /** The connect of {@code c} completed: true when it is connected, false when it failed (and was dealt with). */
    boolean finishConnect(Conn c, long now) {
        connecting--;
        try {
            c.channel.finishConnect();
            startHandshake(c);
            return true;
        } catch (IOException e) {
            connectFailed(c, now, e);
            return false;
        }
    }

    private void startHandshake(Conn c) {
        if (c.tls != null) {
            c.handshaking = true;
            handshaking++;
        }
    }

    /** The TLS handshake of {@code c} finished (or {@code c} is being closed): it no longer counts as connecting. */
    void handshakeEnded(Conn c) {
        if (c.handshaking) {
            c.handshaking = false;
            handshaking--;
        }
    }

    /** The connect of {@code c} took longer than the response timeout. */
    void connectTimedOut(Conn c, long now) {
        connecting--;
        connectFailed(c, now, new IOException("connect timed out"));
    }

    /** The connection broke: count what it lost, then reopen it or give it up. */
    void lost(Conn c, long now, String why) {
        close(c);
        int n = c.reset();
        if (n > 0 && (mode != Mode.CLOSED && mode != Mode.OPEN || engine.recording())) {
            stats.socketErrors += n;
            if (why != null) {
                stats.error(why);
            }
        }
        giveUpOrReopen(c, now);
    }

    /** Closed and open loop: reopen the connection; otherwise it is done (and, when it owed a response, failed). */
    void giveUpOrReopen(Conn c, long now) {
        switch (mode) {
            case CLOSED, OPEN -> reopen(c, now);
            case LONG_POLL -> {
                c.done = true;
                engine.connectionFailed();
            }
            case IDLE, SSE -> {
                if (!c.done && !c.answered) {
                    engine.finished(1);
                }
                c.done = true;
            }
        }
    }

    /**
     * A connection per request: {@code c} got its response; closes it and queues its next connect, due now (while
     * the engine has it send).
     */
    void recycle(Conn c, long now) {
        close(c);
        c.reset();
        if (engine.sending()) {
            c.retryAtNanos = now;
            toConnect.add(c);
        }
    }

    /**
     * Cancels the key of {@code c} and closes its channel, TLS sending {@code close_notify} first when the socket
     * takes it (its state is the caller's to reset).
     */
    void close(Conn c) {
        handshakeEnded(c);
        if (c.key != null) {
            c.key.cancel();
        }
        if (c.tls != null && c.channel != null && c.channel.isConnected()) {
            c.tls.close(c.channel);
        }
        if (c.channel != null) {
            try {
                c.channel.close();
            } catch (IOException ignored) {
                // closing: nothing left to do with it
            }
        }
    }

    private void reopen(Conn c, long now) {
        if ((mode == Mode.CLOSED || mode == Mode.OPEN) && engine.sending()) {
            stats.reconnects++;
            c.retryAtNanos = now;
            toConnect.add(c);
        }
    }

    /** Connecting {@code c} failed ({@link #connecting} already accounts for it). */
    private void connectFailed(Conn c, long now, IOException e) {
        close(c);
        c.reset();
        stats.connectErrors++;
        stats.error("connect " + c.index + (c.source != null ? " from " + c.source.getHostAddress() : "") + ": " + e);
        c.connectFailures++;
        if ((mode == Mode.CLOSED || mode == Mode.OPEN) && c.connectFailures < MAX_CONNECT_FAILURES
                && engine.sending()) {
            c.retryAtNanos = now + TimeUnit.MILLISECONDS.toNanos(100L << c.connectFailures);
            toConnect.add(c);
            return;
        }
        if (mode == Mode.CLOSED || mode == Mode.OPEN) {
            c.done = true; // given up
        } else {
            giveUpOrReopen(c, now);
        }
    }
}
