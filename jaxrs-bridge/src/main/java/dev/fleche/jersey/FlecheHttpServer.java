package dev.fleche.jersey;

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
        container.attach(rootPath);
        this.container = container;
        this.host = host;
        this.transport = HttpServer.create(options, container.bridge()::handle);
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
            container.started();
            return this;
        } finally {
            lock.unlock();
        }
    }

    /**
     * Stops: no new connections, requests in flight get up to {@code grace} to finish, then the rest are closed;
     * then {@code onShutdown}. Returns whether everything finished in time. Idempotent.
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
                return transport.stop(grace);
            } finally {
                container.stopped();
            }
        } finally {
            lock.unlock();
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
        return URI.create(scheme + host + ":" + port() + container.bridge().basePath());
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
