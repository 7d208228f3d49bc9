package dev.fleche.transport.internal.loop;

import dev.fleche.transport.internal.channel.ConnectionChannel;
import dev.fleche.transport.internal.telemetry.Counters;
import dev.fleche.transport.internal.telemetry.Events;
import dev.fleche.transport.internal.channel.HandshakeTasks;
import dev.fleche.transport.internal.channel.Origin;
import dev.fleche.transport.internal.channel.PacketBufferPool;
import dev.fleche.transport.internal.channel.PlainChannel;
import dev.fleche.transport.internal.channel.TlsChannel;
import dev.fleche.transport.HttpHandler;
import dev.fleche.transport.ServerOptions;
import dev.fleche.transport.internal.telemetry.accesslog.AccessLogWriter;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.channels.ClosedSelectorException;
import java.nio.channels.SelectionKey;
import java.nio.channels.Selector;
import java.nio.channels.SocketChannel;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * One event loop: a thread with its own selector, its connections, a task queue, a timer wheel, one shared read
 * buffer and one staging buffer for writes. Only this thread touches its connections; other threads hand work
 * over with {@link #execute}, which wakes the selector only when called from off the loop and only once per
 * turn.
 *
 * <pre>
 *   loop:  select (bounded by the timers' next wake) ─▶ ready keys ─▶ queued tasks ─▶ expired timers ─┐
 *            ▲                                                                                        │
 *            └────────────────────────────────────────────────────────────────────────────────────────┘
 * </pre>
 */
public final class Reactor implements Runnable {
    private static final long TICK_NANOS = 10_000_000L;
    private static final int READ_BUFFER_BYTES = 64 * 1024;
    /** TLS: free record buffers a reactor keeps for its connections (about 16.7 KiB each). */
    private static final int TLS_BUFFERS_RETAINED = 32;
    /** Queued tasks one turn runs at most before it returns to I/O. */
    private static final int MAX_TASKS_PER_TURN = 1024;

    public final ServerOptions options;
    public final HttpHandler handler;
    public final Events events;
    public final Counters counters = new Counters();
    /** The server's access log, or null when it has none. */
    public final AccessLogWriter accessLog;
    public final TimerWheel wheel;
    public final ByteBuffer readBuffer = ByteBuffer.allocate(READ_BUFFER_BYTES);
    public final ByteSink staging = new ByteSink(16 * 1024);
    /**
     * The connection whose output waits in {@link #staging} (or in its queue, not yet tried), or null. Connections
     * only stage their writes; the reactor flushes the owner once each unit of work (a readiness event, a task, the
     * timers) is done, so that what one unit produces leaves in one write.
     */
    public Attachment stagingOwner;
    /** Tasks of {@code HttpExchange.schedule} holding a timer slot; written by this thread only. */
    volatile int scheduledTasks;

    /**
     * Tests only, else null: makes every connection's channel in place of {@link #openChannel}'s choice (a fake
     * byte channel fed by a fuzz target). Package-private: nothing outside this package can set it.
     */
    public ChannelFactory channelFactory;

    /**
     * What the reactor holds for each socket it serves (a connection), as the attachment of its selection key. The
     * reactor knows it only as this: it tells it of readiness, has it write what it staged, drains and closes it.
     */
    public interface Attachment {
        /** The socket is registered under {@code key}; the attachment may start (its first timer, events). */
        void opened(SelectionKey key);

        /** The selector reported {@code key} ready. */
        void onReady(SelectionKey key);

        /** Writes what it staged or queued (the reactor's staging buffer goes to another owner, or the unit ends). */
        void flushOutput();

        /** The server stops: finish what is in flight, then close. */
        void drain();

        /** Closes now; idempotent. Calls {@link Reactor#closed} once closed. */
        void close(String reason);

        /** Its place in the reactor's list, kept by the reactor ({@code -1}: none). */
        int slot();

        void slot(int value);
    }

    /**
     * What the reactor makes of each socket it adopts: the server's wiring gives it one (an HTTP/1.1 connection,
     * behind a PROXY intake on a listener that takes the header); the loop names no protocol.
     */
    public interface ConnectionFactory {
        /**
         * @param origin the connection's addresses (a PROXY header's, or the socket's)
         * @param early  bytes already read from the socket for the connection (those past a PROXY header), or null
         */
        Attachment open(Reactor reactor, SocketChannel socket, long id, Origin origin, byte[] early)
                throws IOException;
    }

    /** What {@link #channelFactory} is: {@link #openChannel}'s signature. */
    public interface ChannelFactory {
        ConnectionChannel open(SocketChannel socket, ConnectionChannel.Listener listener) throws IOException;
    }

    /** TLS only (else null): the server's pool for delegated handshake tasks, and this reactor's record buffers. */
    private final HandshakeTasks handshakeTasks;
    private final PacketBufferPool tlsBuffers;
    private final Selector selector;
    private final ConcurrentLinkedQueue<Runnable> tasks = new ConcurrentLinkedQueue<>();
    /**
     * True while the loop needs no wake-up: it is running a turn, or a wake-up is already on its way. The loop
     * clears it just before it looks at {@link #tasks} and selects, and sets it again once select returns, so a task
     * queued from another thread while the loop is busy costs no {@code selector.wakeup()} (a pipe write by the
     * caller, a read by the loop). Either the loop's look at the queue sees the task, or the caller sees the flag
     * clear and wakes it: both are volatile accesses, so one of the two orders holds.
     */
    private final AtomicBoolean wakeupPending = new AtomicBoolean();
    private final AtomicInteger openConnections;
    private final CountDownLatch stopped = new CountDownLatch(1);
    private final ConnectionFactory connectionFactory;
    private final List<Attachment> connections = new ArrayList<>();
    private volatile Thread thread;
    private volatile boolean running = true;
    private boolean draining;
    /** When the graceful stop began (the reactor's clock); meaningful while {@link #draining}. */
    private long drainStarted;
    private CountDownLatch drained;
    public long now;

    /**
     * @param handshakeTasks the server's pool for TLS delegated tasks; required when {@code options.tls()} is set,
     *                       ignored otherwise (the server owns and closes it)
     * @param accessLog      the server's access log, or null (the server owns and closes it)
     * @param connections    what each adopted socket becomes
     */
    public Reactor(ServerOptions options, HttpHandler handler, AtomicInteger openConnections,
                   HandshakeTasks handshakeTasks, AccessLogWriter accessLog, ConnectionFactory connections)
            throws IOException {
        this.options = options;
        this.connectionFactory = connections;
        this.accessLog = accessLog;
        if (options.tls() != null) {
            this.handshakeTasks = Objects.requireNonNull(handshakeTasks, "handshakeTasks");
            this.tlsBuffers = new PacketBufferPool(PacketBufferPool.recordBytes(options.tls().sslContext()),
                    TLS_BUFFERS_RETAINED);
        } else {
            this.handshakeTasks = null;
            this.tlsBuffers = null;
        }
        this.handler = handler;
        this.openConnections = openConnections;
        this.events = new Events();
        this.selector = Selector.open();
        this.now = options.nanoClock().getAsLong();
        this.wheel = new TimerWheel(512, TICK_NANOS, now);
    }

    /** Starts the loop on a new platform thread named {@code name}. */
    public void start(String name) {
        Thread t = new Thread(this, name);
        t.setDaemon(false);
        thread = t;
        t.start();
    }

    @Override
    public void run() {
        thread = Thread.currentThread();
        try {
            while (running) {
                turn();
            }
        } catch (ClosedSelectorException ignored) {
            // stopped
        } finally {
            closeAll();
            try {
                selector.close();
            } catch (IOException ignored) {
                // nothing to release beyond this
            }
            stopped.countDown();
        }
    }

    private void turn() {
        long wait = wheel.millisToWake(now);
        wakeupPending.set(false);
        try {
            if (!tasks.isEmpty()) {
                selector.selectNow();
            } else {
                selector.select(wait);
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        wakeupPending.lazySet(true); // awake: callers queue without waking (a stale read costs one spare wake-up)
        now = options.nanoClock().getAsLong();
        Set<SelectionKey> ready = selector.selectedKeys();
        if (!ready.isEmpty()) {
            for (SelectionKey key : ready) {
                Attachment connection = (Attachment) key.attachment();
                connection.onReady(key);
                flushStaged();
            }
            ready.clear();
        }
        finishTurn();
    }

    /**
     * The rest of a turn after the ready keys: queued tasks, timers due at {@link #now}, the staged output. Tests
     * that drive a connection by hand ({@link #driveFromCallingThread}) call it for each step.
     */
    public void finishTurn() {
        runTasks();
        wheel.advance(now);
        flushStaged();
    }

    /** Writes what the current staging owner has staged or queued. */
    private void flushStaged() {
        Attachment owner = stagingOwner;
        if (owner != null) {
            owner.flushOutput();
        }
    }

    /**
     * The staging buffer, handed to {@code owner}: bytes another connection staged are written first (by that
     * connection), so that a buffer holds one connection's bytes.
     */
    public ByteSink stage(Attachment owner) {
        Attachment previous = stagingOwner;
        if (previous != owner) {
            if (previous != null) {
                previous.flushOutput();
            }
            stagingOwner = owner;
        }
        return staging;
    }

    /** Whether {@code owner}'s bytes are in the staging buffer. */
    public boolean stages(Attachment owner) {
        return stagingOwner == owner;
    }

    /** The bytes {@code owner} has staged and not yet written. */
    public int stagedBy(Attachment owner) {
        return stagingOwner == owner ? staging.size() : 0;
    }

    /** {@code owner}'s staged bytes are written or dropped: the buffer is free. */
    public void releaseStaging(Attachment owner) {
        if (stagingOwner == owner) {
            staging.clear();
            stagingOwner = null;
        }
    }

    private void runTasks() {
        // Bounded, so that I/O is not starved by a flood of tasks; the rest run on the next turn. (Not
        // tasks.size(): on a ConcurrentLinkedQueue that walks the whole queue.)
        for (int n = MAX_TASKS_PER_TURN; n > 0; n--) {
            Runnable task = tasks.poll();
            if (task == null) {
                break;
            }
            try {
                task.run();
            } catch (RuntimeException | Error e) {
                Events.warn("task-error", -1, e);
            }
            flushStaged();
        }
    }

    /** Queues {@code task} for this loop; wakes the selector when called from another thread. */
    public void execute(Runnable task) {
        tasks.add(task);
        if (Thread.currentThread() != thread && wakeupPending.compareAndSet(false, true)) {
            selector.wakeup();
        }
    }

    public boolean inLoop() {
        return Thread.currentThread() == thread;
    }

    /**
     * Tests only: makes the calling thread this reactor's loop thread without running the loop or its selector, so
     * that a test can drive connections on fake channels ({@link #channelFactory}) step by step, deterministically.
     * Never called on a started reactor.
     */
    public void driveFromCallingThread() {
        thread = Thread.currentThread();
    }

    /** Adopts an accepted socket (from the acceptor thread). */
    public void adopt(SocketChannel channel, long id) {
        execute(() -> register(channel, id));
    }

    private void register(SocketChannel channel, long id) {
        try {
            if (draining) {
                throw new IOException("server stopping");
            }
            // (on a PROXY protocol listener, the factory's connection reads the header, then opens the real one)
            Attachment connection = connectionFactory.open(this, channel, id, Origin.of(channel), null);
            SelectionKey key = channel.register(selector, SelectionKey.OP_READ, connection);
            connection.slot(connections.size());
            connections.add(connection);
            counters.accepted++;
            connection.opened(key);
        } catch (IOException e) {
            openConnections.decrementAndGet();
            try {
                channel.close();
            } catch (IOException ignored) {
                // already failing
            }
        }
    }

    /**
     * The byte channel of a new connection: the one place where a connection's transport is chosen — TLS over an
     * {@code SSLEngine} when the options carry {@code tls}, the plain socket otherwise. {@code listener} is the
     * connection, told on this reactor when a TLS delegated task finished. {@code early} bytes (read past a PROXY
     * header; null when none) are the first the channel serves: plaintext on a plain channel, records on TLS.
     */
    public ConnectionChannel openChannel(SocketChannel socket, ConnectionChannel.Listener listener, byte[] early)
            throws IOException {
        if (channelFactory != null) {
            return channelFactory.open(socket, listener);
        }
        if (tlsBuffers == null) {
            return early == null ? new PlainChannel(socket) : new PlainChannel(socket, early);
        }
        TlsChannel tls = new TlsChannel(socket, TlsChannel.serverEngine(options.tls(), options.http2Alpn()), tlsBuffers,
                handshakeTasks, this::execute, listener);
        if (early != null) {
            tls.received(early);
        }
        return tls;
    }

    /**
     * {@code from} hands its socket to {@code to} (a protocol switch: HTTP/1.1 to HTTP/2): {@code to} takes its
     * key and its place in the list; {@code from} must hold no staged bytes and no timer.
     */
    public void handOver(Attachment from, Attachment to, SelectionKey key) {
        if (stagingOwner == from) {
            stagingOwner = null;
            staging.clear();
        }
        int index = from.slot();
        key.attach(to);
        if (index >= 0 && index < connections.size() && connections.get(index) == from) {
            connections.set(index, to);
            to.slot(index);
        }
        from.slot(-1);
    }

    /** Called by a connection once it is closed. */
    public void closed(Attachment connection) {
        // Swap-remove keeps this O(1) on average: connections remember their slot.
        int index = connection.slot();
        int last = connections.size() - 1;
        if (index >= 0 && index <= last && connections.get(index) == connection) {
            Attachment moved = connections.get(last);
            connections.set(index, moved);
            moved.slot(index);
            connections.remove(last);
        } else {
            connections.remove(connection);
        }
        connection.slot(-1);
        counters.closed++;
        openConnections.decrementAndGet();
        if (draining && connections.isEmpty() && drained != null) {
            drained.countDown();
        }
    }

    /** Starts a graceful stop: idle connections close now, busy ones after their response. */
    public CountDownLatch drain() {
        CountDownLatch latch = new CountDownLatch(1);
        execute(() -> {
            draining = true;
            drainStarted = now;
            drained = latch;
            for (Attachment c : new ArrayList<>(connections)) {
                c.drain();
            }
            if (connections.isEmpty()) {
                latch.countDown();
            }
        });
        return latch;
    }

    public boolean isDraining() {
        return draining;
    }

    /** When the graceful stop began, on the reactor's clock; only while {@link #isDraining()}. */
    public long drainStarted() {
        return drainStarted;
    }

    /** Ends the loop, closing every connection still open; waits for the thread to end. */
    public void stop() throws InterruptedException {
        running = false;
        selector.wakeup();
        Thread t = thread;
        if (t != null && t != Thread.currentThread()) {
            stopped.await();
        }
    }

    private void closeAll() {
        for (Attachment c : new ArrayList<>(connections)) {
            c.close("stop");
        }
    }

    /** Tasks scheduled with {@code HttpExchange.schedule} that hold a timer slot (neither run nor cancelled). */
    public int scheduledTasks() {
        return scheduledTasks;
    }

    /** This reactor's counters, read racily by {@link MetricsSnapshot}. */
    public Counters counters() {
        return counters;
    }
}
