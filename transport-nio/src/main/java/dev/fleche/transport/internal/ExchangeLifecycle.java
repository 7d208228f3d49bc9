package dev.fleche.transport.internal;

import dev.fleche.transport.HttpExchange;
import dev.fleche.transport.Timeout;
import dev.fleche.transport.TlsInfo;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.TimeUnit;

/**
 * The part of an {@link Exchange} tied to its connection and reactor rather than to the request or the response:
 * the connection's identity and addresses, whether the client is still there and what runs when it leaves,
 * aborting, and running or scheduling tasks on the reactor. Fields marked "reactor" are touched only by the
 * connection's reactor thread. A base class rather than a helper object, so that an exchange stays a single
 * allocation.
 */
abstract class ExchangeLifecycle implements HttpExchange {
    final Connection connection;

    // reactor
    private List<Runnable> disconnectCallbacks;
    private boolean responseWritten;
    // any thread
    private volatile boolean open = true;

    ExchangeLifecycle(Connection connection) {
        this.connection = connection;
    }

    /**
     * The connection is lost: fails whatever waits on it (the body reader, a blocked response writer) with
     * {@code error}. Runs on the reactor, before the disconnect callbacks.
     */
    abstract void connectionLost(IOException error);

    // ---------------------------------------------------------------- connection

    @Override public boolean isSecure() { return connection.channel.tlsInfo() != null; }
    /** Settled before the first request was read, never changed after: safe from any thread. */
    @Override public TlsInfo tls() { return connection.channel.tlsInfo(); }
    @Override public long connectionId() { return connection.id; }

    @Override
    public InetSocketAddress remoteAddress() {
        Socket socket = connection.socket().socket();
        return (InetSocketAddress) socket.getRemoteSocketAddress();
    }

    @Override
    public InetSocketAddress localAddress() {
        Socket socket = connection.socket().socket();
        return (InetSocketAddress) socket.getLocalSocketAddress();
    }

    // ---------------------------------------------------------------- connection state

    void responseWritten() {
        responseWritten = true;
        disconnectCallbacks = null;
    }

    @Override
    public void abort() {
        execute(() -> connection.abort(responseWritten));
    }

    @Override
    public boolean isOpen() {
        return open;
    }

    /** The client left or the connection closed: fail the body, wake writers, run disconnect callbacks. */
    void clientGone(String reason) {
        if (!open) {
            return;
        }
        open = false;
        IOException error = new IOException(reason);
        connectionLost(error);
        List<Runnable> callbacks = disconnectCallbacks;
        disconnectCallbacks = null;
        if (callbacks != null && !responseWritten) {
            for (Runnable callback : callbacks) {
                runSafely(callback);
            }
        }
    }

    private void runSafely(Runnable callback) {
        try {
            callback.run();
        } catch (RuntimeException e) {
            Events.warn("callback-error", connection.id, e);
        }
    }

    @Override
    public void onDisconnect(Runnable callback) {
        Objects.requireNonNull(callback, "callback");
        execute(() -> {
            if (!open) {
                runSafely(callback);
            } else if (!responseWritten) {
                if (disconnectCallbacks == null) {
                    disconnectCallbacks = new ArrayList<>(2);
                }
                disconnectCallbacks.add(callback);
            }
        });
    }

    // ---------------------------------------------------------------- reactor

    @Override
    public Timeout schedule(Runnable task, long delay, TimeUnit unit) {
        Objects.requireNonNull(task, "task");
        ScheduledTask scheduled = new ScheduledTask(connection.reactor, task);
        long nanos = unit.toNanos(delay);
        if (inReactor()) {
            scheduled.arm(connection.reactor.now + nanos);
        } else {
            long at = connection.reactor.options.nanoClock().getAsLong() + nanos;
            execute(() -> scheduled.arm(at));
        }
        return scheduled;
    }

    @Override
    public void execute(Runnable task) {
        connection.reactor.execute(task);
    }

    @Override
    public boolean inReactor() {
        return connection.reactor.inLoop();
    }
}
