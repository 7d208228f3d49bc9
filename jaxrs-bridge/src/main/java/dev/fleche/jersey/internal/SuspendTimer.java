package dev.fleche.jersey.internal;

import dev.fleche.transport.HttpExchange;
import dev.fleche.transport.Timeout;
import org.glassfish.jersey.server.spi.ContainerResponseWriter.TimeoutHandler;

import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Consumer;

/**
 * The suspend state and timeout of one response writer. The timer is the connection's reactor timer
 * ({@link HttpExchange#schedule}); it is re-armed by {@link #reset} and <b>always cancelled</b> by
 * {@link #close()}, which the writer calls on commit and failure. A generation number makes a stale expiry
 * (one that raced with a re-arm) a no-op. A lock, not {@code synchronized}: virtual threads must not pin here.
 *
 * <pre>
 *   [RUNNING] ──suspend──▶ [SUSPENDED, timer armed if timeout &gt; 0] ──expiry──▶ onExpired(handler) (reactor)
 *       │                        │  ▲ reset: cancel + re-arm
 *       └────────── close ───────┴──┴──▶ [CLOSED] (timer cancelled; later expiries ignored)
 * </pre>
 */
final class SuspendTimer {
    private final HttpExchange exchange;
    private final Consumer<TimeoutHandler> onExpired;
    private final ReentrantLock lock = new ReentrantLock();
    private volatile boolean suspended;
    private boolean closed;
    private TimeoutHandler handler;
    private Timeout timeout;
    private long generation;

    /**
     * @param onExpired   called on the reactor thread with the handler (possibly null) when the timeout expires
     */
    SuspendTimer(HttpExchange exchange, Consumer<TimeoutHandler> onExpired) {
        this.exchange = exchange;
        this.onExpired = onExpired;
    }

    /** Suspends; false when already suspended. {@code time <= 0} means no timeout. */
    boolean suspend(long time, TimeUnit unit, TimeoutHandler timeoutHandler) {
        lock.lock();
        try {
            if (suspended) {
                return false;
            }
            suspended = true;
            handler = timeoutHandler;
            if (!closed) {
                arm(time, unit);
            }
            return true;
        } finally {
            lock.unlock();
        }
    }

    /** Replaces the timeout; {@link IllegalStateException} when not suspended. */
    void reset(long time, TimeUnit unit) {
        lock.lock();
        try {
            if (!suspended) {
                throw new IllegalStateException("the response is not suspended");
            }
            cancel();
            if (!closed) {
                arm(time, unit);
            }
        } finally {
            lock.unlock();
        }
    }

    boolean isSuspended() {
        return suspended;
    }

    /** The timeout handler given to {@link #suspend} (Jersey's {@code AsyncResponse} for an async request). */
    TimeoutHandler handler() {
        lock.lock();
        try {
            return handler;
        } finally {
            lock.unlock();
        }
    }

    /** The response is complete: cancels the timer for good. */
    void close() {
        lock.lock();
        try {
            closed = true;
            cancel();
        } finally {
            lock.unlock();
        }
    }

    private void arm(long time, TimeUnit unit) {
        if (time <= 0) {
            return;
        }
        long armed = ++generation;
        timeout = exchange.schedule(() -> expire(armed), time, unit);
    }

    private void cancel() {
        if (timeout != null) {
            timeout.cancel();
            timeout = null;
        }
    }

    private void expire(long armed) {
        TimeoutHandler current;
        lock.lock();
        try {
            if (closed || timeout == null || armed != generation) {
                return;
            }
            timeout = null;
            current = handler;
        } finally {
            lock.unlock();
        }
        onExpired.accept(current);
    }
}
