package dev.fleche.perf.loadgen;

import dev.fleche.perf.loadgen.LoadSpec.Mode;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.SelectionKey;
import java.nio.channels.Selector;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * One selector thread driving a share of the connections: sends requests as the mode says, parses and checks
 * responses (SSE: every event, by a {@link StreamCheck}), records latencies, and enforces the response timeout.
 * Its {@link Connector} opens, reopens and gives up the connections; its {@link OpenLoop} paces the open loop's
 * requests. Only this thread touches its connections; the {@link Engine} steers it through volatile flags it reads
 * on every turn of the loop.
 */
final class Worker extends Thread {
    private static final long CHECK_EVERY_NANOS = TimeUnit.MILLISECONDS.toNanos(200);

    final Stats stats = new Stats();
    private final Engine engine;
    private final LoadSpec spec;
    private final Mode mode;
    private final byte[] request;
    private final List<Conn> conns;
    private final ByteBuffer readBuffer = ByteBuffer.allocateDirect(64 * 1024);
    private final long timeoutNanos;
    private final Connector connector;
    private final OpenLoop openLoop;
    private final StreamCheck streams;
    private int pollCycle = 1;
    private long nextCheck;

    Worker(Engine engine, int id, List<Conn> conns, double rateShare) {
        super("loadgen-" + id);
        setDaemon(true);
        this.engine = engine;
        this.spec = engine.spec();
        this.mode = spec.mode();
        this.request = spec.requestBytes();
        this.conns = conns;
        this.timeoutNanos = spec.timeout().toNanos();
        this.connector = new Connector(this, engine, stats, conns,
                spec.tls() == LoadSpec.Tls.NONE ? null : new TlsLink.Buffers());
        this.openLoop = new OpenLoop(this, engine, stats, conns, request, rateShare);
        this.streams = new StreamCheck(engine, stats);
    }

    @Override
    public void run() {
        try (Selector selector = Selector.open()) {
            long start = System.nanoTime();
            openLoop.start(start);
            nextCheck = start + CHECK_EVERY_NANOS;
            while (!engine.stopped()) {
                long now = System.nanoTime();
                connector.startConnects(selector, now);
                long wait = waitMillis(now);
                if (wait == 0) {
                    selector.selectNow();
                } else {
                    selector.select(wait);
                }
                now = System.nanoTime();
                for (SelectionKey key : selector.selectedKeys()) {
                    handle(key, now);
                }
                selector.selectedKeys().clear();
                if (mode == Mode.OPEN) {
                    openLoop.tick(now);
                } else if (mode == Mode.LONG_POLL) {
                    nextPollCycle(now);
                }
                if (now >= nextCheck) {
                    checkTimeouts(now);
                    nextCheck = now + CHECK_EVERY_NANOS;
                }
            }
        } catch (IOException | RuntimeException e) {
            stats.error("worker " + getName() + " failed: " + e);
            engine.workerFailed(e);
        } finally {
            for (Conn c : conns) {
                connector.close(c);
            }
        }
    }

    /** How long the selector may wait: until the next due request, check, or stop poll (at most 50 ms). */
    private long waitMillis(long now) {
        long until = Math.min(nextCheck, now + TimeUnit.MILLISECONDS.toNanos(50));
        if (mode == Mode.OPEN) {
            until = Math.min(until, openLoop.nextDueNanos());
        }
        until = Math.min(until, connector.nextConnectNanos());
        long ms = (until - now) / 1_000_000;
        return Math.max(0, ms);
    }

    private void handle(SelectionKey key, long now) {
        Conn c = (Conn) key.attachment();
        if (!key.isValid() || c.key != key) {
            return;
        }
        try {
            if (key.isConnectable()) {
                if (connector.finishConnect(c, now)) {
                    key.interestOps(SelectionKey.OP_READ);
                    connected(c, now);
                }
                return;
            }
            if (key.isWritable()) {
                flush(c);
            }
            if (key.isValid() && key.isReadable()) {
                read(c, now);
            }
        } catch (IOException e) {
            lost(c, now, "socket error: " + e.getMessage());
        }
    }

    /** {@code c} just connected (called by the {@link Connector}): sends what the mode sends first. */
    void connected(Conn c, long now) throws IOException {
        c.connected = true;
        c.connectFailures = 0;
        switch (mode) {
            case CLOSED -> {
                // a connection per request: its latency counts from the connect (TCP and TLS handshakes included)
                long from = spec.connectionPerRequest() ? c.connectStartNanos : now;
                for (int i = 0; i < spec.depth() && engine.sending(); i++) {
                    c.enqueue(request, from, from);
                }
            }
            case OPEN -> openLoop.connected(c, now);
            case IDLE, SSE, LONG_POLL -> c.enqueue(request, now, now);
        }
        flush(c);
    }

    private void read(Conn c, long now) throws IOException {
        do { // TLS: again while decrypted records did not fit the buffer
            readBuffer.clear();
            int n = c.read(readBuffer);
            handshakeNews(c);
            if (n < 0) {
                if (c.parser.endOfInput()) {
                    response(c, now);
                }
                if (c.channel != null) {
                    stats.closedByServer++;
                    lost(c, now, c.inFlight() > 0 ? "connection closed with a response pending" : null);
                }
                return;
            }
            readBuffer.flip();
            while (readBuffer.hasRemaining() && c.channel != null) {
                if (c.parser.feed(readBuffer)) {
                    response(c, now);
                } else if (c.parser.failed()) {
                    stats.error("bad response: " + c.parser.failure());
                    stats.bodyErrors++;
                    lost(c, now, null);
                    return;
                }
            }
        } while (c.channel != null && c.moreBuffered());
        if (mode == Mode.SSE && c.channel != null) {
            streams.take(c);
        }
        if (c.channel != null) {
            flush(c);
        }
    }

    /**
     * TLS: once the handshake of {@code c} finished, tells the {@link Connector} and counts it (CLOSED/OPEN: only
     * while recording).
     */
    private void handshakeNews(Conn c) {
        if (c.tls == null || !c.tls.takeHandshakeNews()) {
            return;
        }
        connector.handshakeEnded(c);
        if (mode != Mode.CLOSED && mode != Mode.OPEN || engine.recording()) {
            stats.handshake(c.tls.resumed(), c.tls.describe());
        }
    }

    /** A complete response arrived on {@code c}: check, record, and send what comes next. */
    private void response(Conn c, long now) throws IOException {
        if (c.inFlight() == 0) {
            stats.error("response without a request");
            stats.bodyErrors++;
            lost(c, now, null);
            return;
        }
        long due = c.complete();
        if (mode == Mode.SSE) {
            streamEnded(c, now);
            return;
        }
        long sentAt = c.lastActual();
        boolean statusOk = c.parser.status() == spec.expectStatus();
        boolean bodyOk = c.parser.bodyMatches();
        boolean count = mode != Mode.CLOSED && mode != Mode.OPEN || engine.recording();
        if (count) {
            stats.requests++;
            if (!statusOk) {
                stats.statusErrors++;
                stats.error("status " + c.parser.status() + " (expected " + spec.expectStatus() + ")");
            } else if (!bodyOk) {
                stats.bodyErrors++;
                stats.error("unexpected body");
            }
            if (mode == Mode.LONG_POLL) {
                long b = engine.broadcastNanos();
                long from = b == 0 ? sentAt : Math.max(b, sentAt);
                stats.record(now - from, now - from);
            } else {
                stats.record(now - due, now - sentAt);
            }
        }
        switch (mode) {
            case IDLE -> {
                c.answered = true;
                engine.finished(1);
            }
            case LONG_POLL -> engine.answered(1);
            default -> { }
        }
        if (spec.connectionPerRequest()) {
            connector.recycle(c, now);
            return;
        }
        if (c.parser.closeRequested()) {
            lost(c, now, "the server closed the connection with requests in flight");
            return;
        }
        switch (mode) {
            case CLOSED -> {
                if (engine.sending()) {
                    c.enqueue(request, now, now);
                }
            }
            case OPEN -> openLoop.responded(c, now);
            default -> { }
        }
    }

    /** SSE: the server ended a stream (or answered without one); the events it did not send are missing. */
    private void streamEnded(Conn c, long now) {
        streams.ended(c);
        lost(c, now, null);
    }

    /** LONG_POLL: the engine started the next cycle (all answered): every live connection polls again. */
    private void nextPollCycle(long now) {
        int cycle = engine.cycle();
        if (cycle == pollCycle) {
            return;
        }
        pollCycle = cycle;
        for (Conn c : conns) {
            if (c.connected && !c.done && c.inFlight() == 0) {
                send(c, now, now);
            }
        }
    }

    /** Queues a request due at {@code due} on {@code c} and writes what it can; a socket error loses {@code c}. */
    void send(Conn c, long due, long now) {
        c.enqueue(request, due, now);
        try {
            flush(c);
        } catch (IOException e) {
            lost(c, now, "socket error: " + e.getMessage());
        }
    }

    private void checkTimeouts(long now) {
        for (Conn c : conns) {
            if (c.channel == null || c.done) {
                continue;
            }
            if (!c.connected) {
                if (now - c.connectStartNanos > timeoutNanos) {
                    connector.connectTimedOut(c, now);
                }
                continue;
            }
            if (c.inFlight() == 0 || mode == Mode.SSE) {
                continue;
            }
            long since = c.oldestActual();
            if (mode == Mode.LONG_POLL) {
                since = engine.broadcastNanos();
                if (since == 0) {
                    continue; // waiting for the broadcast is the point
                }
            }
            if (now - since > timeoutNanos) {
                int n = c.inFlight();
                if (mode != Mode.CLOSED && mode != Mode.OPEN || engine.recording()) {
                    stats.timeouts += n;
                }
                stats.error("no response within " + spec.timeout().toMillis() + " ms");
                connector.close(c);
                c.reset();
                connector.giveUpOrReopen(c, now);
            }
        }
    }

    private void flush(Conn c) throws IOException {
        boolean all = c.flush();
        handshakeNews(c);
        int ops = all ? SelectionKey.OP_READ : SelectionKey.OP_READ | SelectionKey.OP_WRITE;
        if (c.key.interestOps() != ops) {
            c.key.interestOps(ops);
        }
    }

    /** The connection broke: the {@link Connector} counts what it lost, then reopens it or gives it up. */
    private void lost(Conn c, long now, String why) {
        connector.lost(c, now, why);
    }
}
