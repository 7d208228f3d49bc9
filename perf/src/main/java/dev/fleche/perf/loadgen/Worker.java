package dev.fleche.perf.loadgen;

import dev.fleche.perf.loadgen.LoadSpec.Mode;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.StandardSocketOptions;
import java.nio.ByteBuffer;
import java.nio.channels.SelectionKey;
import java.nio.channels.Selector;
import java.nio.channels.SocketChannel;
import java.util.ArrayDeque;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * One selector thread driving a share of the connections: connects them (at most {@link #maxConnecting} at a
 * time), sends requests as the mode says, parses and checks responses (SSE: every event, by a {@link StreamCheck}),
 * records latencies, reopens connections the server closed (closed and open loop), and enforces the response
 * timeout. Only this thread touches its
 * connections; the {@link Engine} steers it through volatile flags it reads on every turn of the loop.
 */
final class Worker extends Thread {
    private static final long CHECK_EVERY_NANOS = TimeUnit.MILLISECONDS.toNanos(200);
    private static final int MAX_CONNECT_FAILURES = 5;
    private static final int MAX_BACKLOG = 1 << 20;

    final Stats stats = new Stats();
    private final Engine engine;
    private final LoadSpec spec;
    private final Mode mode;
    private final byte[] request;
    private final List<Conn> conns;
    private final InetSocketAddress target;
    private final ArrayDeque<Conn> toConnect = new ArrayDeque<>();
    private final ByteBuffer readBuffer = ByteBuffer.allocateDirect(64 * 1024);
    private final int maxConnecting;
    private final long timeoutNanos;
    private final StreamCheck streams;
    private Selector selector;
    private int connecting;
    private int pollCycle = 1;
    private long nextCheck;

    // open loop: request j of this worker is due at scheduleStart + j * interval, on connection j % n
    private final double intervalNanos;
    private long scheduleStart;
    private long nextRequest;

    Worker(Engine engine, int id, List<Conn> conns, double rateShare) {
        super("loadgen-" + id);
        setDaemon(true);
        this.engine = engine;
        this.spec = engine.spec();
        this.mode = spec.mode();
        this.request = spec.requestBytes();
        this.conns = conns;
        this.target = new InetSocketAddress(spec.host(), spec.port());
        this.maxConnecting = Math.max(16, 256 / spec.threads());
        this.timeoutNanos = spec.timeout().toNanos();
        this.streams = new StreamCheck(engine, stats);
        this.intervalNanos = rateShare > 0 ? 1e9 / rateShare : 0;
        toConnect.addAll(conns);
    }

    @Override
    public void run() {
        try (Selector s = Selector.open()) {
            selector = s;
            scheduleStart = System.nanoTime();
            nextCheck = scheduleStart + CHECK_EVERY_NANOS;
            while (!engine.stopped()) {
                long now = System.nanoTime();
                startConnects(now);
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
                    openLoopTick(now);
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
                closeChannel(c);
            }
        }
    }

    /** How long the selector may wait: until the next due request, check, or stop poll (at most 50 ms). */
    private long waitMillis(long now) {
        long until = Math.min(nextCheck, now + TimeUnit.MILLISECONDS.toNanos(50));
        if (mode == Mode.OPEN && engine.sending() && intervalNanos > 0) {
            until = Math.min(until, dueTime(nextRequest));
        }
        if (!toConnect.isEmpty() && connecting < maxConnecting) {
            until = Math.min(until, toConnect.peek().retryAtNanos);
        }
        long ms = (until - now) / 1_000_000;
        return Math.max(0, ms);
    }

    private long dueTime(long j) {
        return scheduleStart + (long) (j * intervalNanos);
    }

    private void startConnects(long now) {
        while (connecting < maxConnecting && !toConnect.isEmpty() && toConnect.peek().retryAtNanos <= now) {
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
                if (ch.connect(target)) {
                    c.key = ch.register(selector, SelectionKey.OP_READ, c);
                    connected(c, now);
                } else {
                    c.key = ch.register(selector, SelectionKey.OP_CONNECT, c);
                    connecting++;
                }
            } catch (IOException e) {
                connectFailed(c, now, e);
            }
        }
    }

    private void handle(SelectionKey key, long now) {
        Conn c = (Conn) key.attachment();
        if (!key.isValid() || c.key != key) {
            return;
        }
        try {
            if (key.isConnectable()) {
                connecting--;
                try {
                    c.channel.finishConnect();
                } catch (IOException e) {
                    connectFailed(c, now, e);
                    return;
                }
                key.interestOps(SelectionKey.OP_READ);
                connected(c, now);
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

    private void connected(Conn c, long now) throws IOException {
        c.connected = true;
        c.connectFailures = 0;
        switch (mode) {
            case CLOSED -> {
                for (int i = 0; i < spec.depth() && engine.sending(); i++) {
                    c.enqueue(request, now, now);
                }
            }
            case OPEN -> {
                while (c.backlogSize() > 0 && c.inFlight() < spec.depth()) {
                    c.enqueue(request, c.takeBacklog(), now);
                }
            }
            case IDLE, SSE, LONG_POLL -> c.enqueue(request, now, now);
        }
        flush(c);
    }

    private void read(Conn c, long now) throws IOException {
        readBuffer.clear();
        int n = c.channel.read(readBuffer);
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
        if (mode == Mode.SSE && c.channel != null) {
            streams.take(c);
        }
        if (c.channel != null) {
            flush(c);
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
            case OPEN -> {
                if (c.backlogSize() > 0 && engine.sending()) {
                    c.enqueue(request, c.takeBacklog(), now);
                }
            }
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
                c.enqueue(request, now, now);
                try {
                    flush(c);
                } catch (IOException e) {
                    lost(c, now, "socket error: " + e.getMessage());
                }
            }
        }
    }

    private void openLoopTick(long now) throws IOException {
        if (!engine.sending() || intervalNanos <= 0 || conns.isEmpty()) {
            return;
        }
        int n = conns.size();
        for (long due; (due = dueTime(nextRequest)) <= now; nextRequest++) {
            Conn c = conns.get((int) (nextRequest % n));
            if (c.connected && c.inFlight() < spec.depth() && c.backlogSize() == 0) {
                c.enqueue(request, due, now);
                try {
                    flush(c);
                } catch (IOException e) {
                    lost(c, now, "socket error: " + e.getMessage());
                }
            } else if (c.backlogSize() < MAX_BACKLOG) {
                c.addBacklog(due);
            } else if (engine.recording()) {
                stats.dropped++;
            }
        }
    }

    private void checkTimeouts(long now) {
        for (Conn c : conns) {
            if (c.channel == null || c.done) {
                continue;
            }
            if (!c.connected) {
                if (now - c.connectStartNanos > timeoutNanos) {
                    connecting--;
                    connectFailed(c, now, new IOException("connect timed out"));
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
                closeChannel(c);
                c.reset();
                giveUpOrReopen(c, now);
            }
        }
    }

    private void flush(Conn c) throws IOException {
        boolean all = c.flush();
        int ops = all ? SelectionKey.OP_READ : SelectionKey.OP_READ | SelectionKey.OP_WRITE;
        if (c.key.interestOps() != ops) {
            c.key.interestOps(ops);
        }
    }

    /** The connection broke: count what it lost, then reopen it or give it up. */
    private void lost(Conn c, long now, String why) {
        closeChannel(c);
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
    private void giveUpOrReopen(Conn c, long now) {
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

    private void reopen(Conn c, long now) {
        if ((mode == Mode.CLOSED || mode == Mode.OPEN) && engine.sending()) {
            stats.reconnects++;
            c.retryAtNanos = now;
            toConnect.add(c);
        }
    }

    /** Connecting {@code c} failed ({@link #connecting} already accounts for it). */
    private void connectFailed(Conn c, long now, IOException e) {
        closeChannel(c);
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

    private void closeChannel(Conn c) {
        if (c.key != null) {
            c.key.cancel();
        }
        if (c.channel != null) {
            try {
                c.channel.close();
            } catch (IOException ignored) {
                // closing: nothing left to do with it
            }
        }
    }
}
