package dev.fleche.jersey;

import dev.fleche.jersey.internal.SignalTrap;
import dev.fleche.transport.HttpServer;
import dev.fleche.transport.ServerOptions;

import java.io.IOException;
import java.net.URI;
import java.time.Duration;
import java.util.concurrent.locks.ReentrantLock;

/**
 * A {@link FlecheContainer} served by a Fleche {@link HttpServer}. Made by {@link FlecheHttpServerFactory};
 * {@link #start()} binds and calls the application's {@code onStartup}, {@link #stop(Duration)} drains, stops the
 * transport, calls {@code onShutdown} and releases the worker threads. A server starts at most once.
 */
public final class FlecheHttpServer implements AutoCloseable {
    private final FlecheContainer container;
    private final HttpServer transport;
    private final String host;
    private final ReentrantLock lock = new ReentrantLock();
    private boolean started;
    private boolean stopped;

    FlecheHttpServer(FlecheContainer container, ServerOptions options, String host, String rootPath) {
        this.container = container;
        this.host = host;
        this.transport = HttpServer.create(options, container::handle);
        container.mount(transport, rootPath);
    }

    /** Binds the listening socket and starts serving; returns {@code this}. */
    public FlecheHttpServer start() throws IOException {
        lock.lock();
        try {
            if (started) {
                throw new IllegalStateException(stopped ? "server stopped; create a new one" : "already started");
            }
            transport.start();
            started = true;
            container.serverStarted();
            return this;
        } finally {
            lock.unlock();
        }
    }

    /**
     * Stops: no new connections; suspended requests are ended at once (long-polls answered by their timeout
     * handler, else {@code 503}; SSE and chunked streams closed); requests in flight get up to {@code grace} to
     * finish, every response saying {@code Connection: close}; then the rest are closed and {@code onShutdown}
     * runs. Returns whether everything finished in time. Idempotent.
     */
    public boolean stop(Duration grace) throws InterruptedException {
        lock.lock();
        try {
            if (!started || stopped) {
                stopped = true;
                return true;
            }
            stopped = true;
            try {
                transport.beginStop(); // first, so that what the container answers now says Connection: close
                container.endSuspended();
                return transport.stop(grace);
            } finally {
                container.serverStopped();
            }
        } finally {
            lock.unlock();
        }
    }

    /**
     * Installs the whole stop sequence for a container: on SIGTERM (or SIGINT) a {@link Drain} with
     * {@code policy} runs on its own thread (readiness 503, the delay, suspended responses ended, the listener
     * closed, the grace), then {@code afterStop} (close the database, flush logs), then the process exits with
     * status 0, or 1 when requests were still open at the end of the grace or {@code afterStop} threw. A second
     * signal cuts the delay short. Returns the drain, which can also be run directly.
     */
    public Drain drainOnSigterm(DrainPolicy policy, Runnable afterStop) {
        Drain drain = new Drain(transport(), container(), this::stop, policy);
        SignalTrap.install(() -> System.exit(drainAndStop(drain, afterStop) ? 0 : 1), drain::skipDelay);
        return drain;
    }

    private static boolean drainAndStop(Drain drain, Runnable afterStop) {
        boolean clean = false;
        try {
            clean = drain.run().clean();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } finally {
            try {
                afterStop.run();
            } catch (RuntimeException e) {
                System.getLogger(Drain.class.getName()).log(System.Logger.Level.ERROR, "afterStop failed", e);
                clean = false;
            }
        }
        return clean;
    }

    /** A {@link Drain} of this server with {@code policy}, not tied to a signal: call {@link Drain#run()}. */
    public Drain drain(DrainPolicy policy) {
        return new Drain(transport(), container(), this::stop, policy);
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

    /** The bound port (the real one when port 0 was asked for); valid once started. */
    public int port() {
        return transport.port();
    }

    /**
     * The application's base URI: {@code https} when the server speaks TLS, the server's host, the bound port, the
     * root and application paths.
     */
    public URI baseUri() {
        String scheme = transport.options().tls() != null ? "https://" : "http://";
        int port = port(); // -1 on a Unix domain socket: its clients ask for http://localhost/ through the socket
        return URI.create(scheme + host + (port < 0 ? "" : ":" + port) + container.basePath());
    }

    /** The container. */
    public FlecheContainer container() {
        return container;
    }

    /** The underlying transport server (metrics, options). */
    public HttpServer transport() {
        return transport;
    }

    /** Whether the server is started and not stopped. */
    public boolean isRunning() {
        lock.lock();
        try {
            return started && !stopped;
        } finally {
            lock.unlock();
        }
    }
}
