package dev.fleche.transport;

import dev.fleche.transport.internal.loop.Acceptor;
import dev.fleche.transport.internal.channel.HandshakeTasks;
import dev.fleche.transport.internal.Protocols;
import dev.fleche.transport.internal.MetricsSnapshot;
import dev.fleche.transport.internal.loop.Reactor;
import dev.fleche.transport.internal.loop.UnixSocketListener;
import dev.fleche.transport.internal.telemetry.accesslog.AccessLogWriter;
import dev.fleche.transport.internal.pem.PemWatch;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.StandardSocketOptions;
import java.nio.channels.ServerSocketChannel;
import java.time.Duration;
import java.util.Objects;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.ReentrantLock;

/**
 * An HTTP/1.1 server: one acceptor thread and {@link ServerOptions#reactors()} reactor threads, each owning its
 * connections. Create with {@link #create}, then {@link #start()}; stop with {@link #stop(Duration)}.
 *
 * <pre>{@code
 * HttpServer server = HttpServer.create(ServerOptions.builder().port(0).build(),
 *         exchange -> exchange.respond(200, new HttpFields().add("Content-Type", "text/plain"),
 *                 "Hello, World!".getBytes(StandardCharsets.UTF_8)));
 * server.start();
 * System.out.println("listening on " + server.port());
 * }</pre>
 */
public final class HttpServer implements AutoCloseable {
    private final ServerOptions options;
    private final HttpHandler handler;
    /** The static handler made from the options' static content, closed at stop; null without it. */
    private final StaticHandler staticHandler;
    private final AtomicInteger open = new AtomicInteger();
    private final ReentrantLock lifecycle = new ReentrantLock();
    private ServerSocketChannel channel;
    private Reactor[] reactors;
    /** TLS only: the threads running handshake tasks off the reactors; closed at stop. */
    private HandshakeTasks handshakeTasks;
    /** PEM files reloaded every interval, or null without them (or with no interval); closed at stop. */
    private PemWatch pemWatch;
    /** The access log's writer, or null without one; closed (flushed) at stop, after the reactors. */
    private AccessLogWriter accessLog;
    private Acceptor acceptor;
    private Thread acceptorThread;
    /** One per reactor once the graceful stop has begun ({@link #beginStop()}); null before. */
    private CountDownLatch[] drains;
    private volatile boolean started;
    private volatile boolean stopped;

    private HttpServer(ServerOptions options, HttpHandler handler) {
        this.options = Objects.requireNonNull(options, "options");
        Objects.requireNonNull(handler, "handler");
        this.staticHandler = options.staticContent().isEmpty() ? null
                : StaticHandler.of(handler, options.staticContent());
        this.handler = staticHandler == null ? handler : staticHandler;
    }

    /**
     * A server for {@code handler} with {@code options}; nothing is bound until {@link #start()}. With
     * {@link ServerOptions#staticContent()}, a {@link StaticHandler} answers its prefixes before {@code handler}.
     *
     * @throws IllegalArgumentException when a static content directory does not exist
     */
    public static HttpServer create(ServerOptions options, HttpHandler handler) {
        return new HttpServer(options, handler);
    }

    /** Binds the listening socket and starts the threads; returns {@code this}. */
    public HttpServer start() throws IOException {
        lifecycle.lock();
        try {
            if (started) {
                throw new IllegalStateException("already started");
            }
            bind();
            return this;
        } finally {
            lifecycle.unlock();
        }
    }

    private void bind() throws IOException {
        ServerSocketChannel server = open();
        try {
            handshakeTasks = options.tls() == null ? null : HandshakeTasks.forServer();
            String port = options.unixSocket() != null ? "unix-" + options.unixSocket().getFileName()
                    : String.valueOf(((InetSocketAddress) server.getLocalAddress()).getPort());
            accessLog = options.accessLog() == null ? null
                    : AccessLogWriter.start(options.accessLog(), "fleche-access-log-" + port);
            Reactor[] loops = new Reactor[options.reactors()];
            for (int i = 0; i < loops.length; i++) {
                loops[i] = new Reactor(options, handler, open, handshakeTasks, accessLog, Protocols.connections(options));
            }
            for (int i = 0; i < loops.length; i++) {
                loops[i].start("fleche-reactor-" + port + "-" + i);
            }
            channel = server;
            reactors = loops;
            acceptor = new Acceptor(server, loops, open, options.maxConnections(),
                    Protocols.overloadAnswer(options.errorRenderer()),
                    options.tls() == null, accessLog);
            acceptorThread = new Thread(acceptor, "fleche-acceptor-" + port);
            acceptorThread.start();
            PemFiles pem = options.tls() == null ? null : options.tls().pem();
            if (pem != null && !pem.reloadInterval().isZero()) {
                pemWatch = PemWatch.start(pem::reload, pem.reloadInterval(), "fleche-tls-reload-" + port);
            }
            started = true;
        } catch (IOException | RuntimeException e) {
            server.close();
            removeSocketFile();
            if (handshakeTasks != null) {
                handshakeTasks.close();
            }
            closeAccessLog();
            throw e;
        }
    }

    /** The listening socket: TCP on {@code options.address()}, or a Unix domain socket at {@code unixSocket}. */
    private ServerSocketChannel open() throws IOException {
        if (options.unixSocket() != null) {
            return UnixSocketListener.bind(options.unixSocket(), options.unixSocketPermissions(), options.backlog());
        }
        ServerSocketChannel server = ServerSocketChannel.open();
        try {
            server.setOption(StandardSocketOptions.SO_REUSEADDR, true);
            server.bind(options.address(), options.backlog());
            return server;
        } catch (IOException | RuntimeException e) {
            server.close();
            throw e;
        }
    }

    /** A Unix domain socket's file goes with the listener (the JDK leaves it). */
    private void removeSocketFile() {
        if (options.unixSocket() != null) {
            UnixSocketListener.remove(options.unixSocket());
        }
    }

    /** The bound address; valid after {@link #start()}; {@code null} on a Unix domain socket. */
    public InetSocketAddress address() {
        requireStarted();
        try {
            return channel.getLocalAddress() instanceof InetSocketAddress inet ? inet : null;
        } catch (IOException e) {
            throw new IllegalStateException("server socket closed", e);
        }
    }

    /**
     * The bound port (the real one when the options asked for port 0); valid after {@link #start()}; {@code -1} on a
     * Unix domain socket ({@code options().unixSocket()} is its path).
     */
    public int port() {
        InetSocketAddress address = address();
        return address == null ? -1 : address.getPort();
    }

    /** The options this server runs with. */
    public ServerOptions options() {
        return options;
    }

    /**
     * Stops gracefully: {@link #beginStop()} (unless called before), then lets exchanges in flight finish for up to
     * {@code grace}, closes whatever is left and ends the threads. Returns whether everything finished within the
     * grace period. Idempotent; blocks until the threads have ended.
     */
    public boolean stop(Duration grace) throws InterruptedException {
        lifecycle.lock();
        try {
            if (!started || stopped) {
                return true;
            }
            beginStopLocked();
            stopped = true;
            return shutdown(grace);
        } finally {
            lifecycle.unlock();
        }
    }

    /**
     * The first half of {@link #stop}, without waiting: stops accepting; from now on every response says
     * {@code Connection: close} and its connection closes after it; an idle keep-alive connection gets one second
     * for a request already on its way (answered the same way) before it closes. Lets a layer above answer what it
     * holds (suspended requests) with those responses before {@code stop} waits. Idempotent.
     */
    public void beginStop() throws InterruptedException {
        lifecycle.lock();
        try {
            if (started && !stopped) {
                beginStopLocked();
            }
        } finally {
            lifecycle.unlock();
        }
    }

    private void beginStopLocked() throws InterruptedException {
        if (drains != null) {
            return;
        }
        try {
            channel.close();
        } catch (IOException ignored) {
            // the acceptor ends either way
        }
        removeSocketFile();
        acceptorThread.join();
        drains = new CountDownLatch[reactors.length];
        for (int i = 0; i < reactors.length; i++) {
            drains[i] = reactors[i].drain();
        }
    }

    private boolean shutdown(Duration grace) throws InterruptedException {
        long deadline = System.nanoTime() + grace.toNanos();
        boolean clean = true;
        for (CountDownLatch drain : drains) {
            clean &= drain.await(Math.max(0, deadline - System.nanoTime()), TimeUnit.NANOSECONDS);
        }
        for (Reactor reactor : reactors) {
            reactor.stop();
        }
        if (handshakeTasks != null) {
            handshakeTasks.close();
        }
        if (pemWatch != null) {
            pemWatch.close();
        }
        if (staticHandler != null) {
            staticHandler.close();
        }
        closeAccessLog();
        return clean;
    }

    /** Writes the access log's last lines (the reactors have ended: nothing more comes), flushes and closes it. */
    private void closeAccessLog() {
        AccessLogWriter log = accessLog;
        if (log == null) {
            return;
        }
        try {
            log.close();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** {@link #stop(Duration)} with no grace period. */
    @Override
    public void close() {
        try {
            stop(Duration.ZERO);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /**
     * Tasks scheduled with {@link HttpExchange#schedule} that still hold a timer slot: neither run nor cancelled
     * (a cancel made off the reactor releases the slot on the reactor's next turn). Zero once every exchange's
     * timers are gone; tests use it to prove that none leak.
     */
    public int scheduledTasks() {
        int sum = 0;
        if (reactors != null) {
            for (Reactor reactor : reactors) {
                sum += reactor.scheduledTasks();
            }
        }
        return sum;
    }

    /** A snapshot of the counters (approximate while the server runs). */
    public ServerMetrics metrics() {
        return MetricsSnapshot.of(reactors, open.get(), acceptor, accessLog,
                options.tls() == null ? null : options.tls().pem());
    }

    private void requireStarted() {
        if (!started) {
            throw new IllegalStateException("not started");
        }
    }
}
