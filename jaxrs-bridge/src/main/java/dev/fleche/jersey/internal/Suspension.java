package dev.fleche.jersey.internal;

import dev.fleche.transport.HttpExchange;
import jakarta.ws.rs.container.AsyncResponse;
import jakarta.ws.rs.sse.SseEventSink;
import org.glassfish.jersey.server.ChunkedOutput;
import org.glassfish.jersey.server.spi.ContainerResponseWriter.TimeoutHandler;

import java.io.IOException;
import java.util.concurrent.TimeUnit;

/**
 * What a suspended response needs beyond its writer, made on its first suspend (most responses never suspend):
 * the suspend timeout on the connection's reactor timer ({@link SuspendTimer}), the registration with the
 * container's {@link SuspendedWriters} so that a drain can end it, and the relay of the client's departure to the
 * application. It talks to its writer only through {@link Owner}; the writer tells it when the response is complete
 * ({@link #close()}), which cancels the timer and unregisters for good.
 *
 * <pre>
 *  suspend ─▶ [SUSPENDED: timer armed, registered, listening for the client leaving]
 *     ├─ timeout (reactor) ──▶ worker: the handler's onTimeout (Jersey: 503), or 503 + Retry-After at once
 *     ├─ drain ──────────────▶ a chunked entity (SSE) closed; anything else times out now
 *     ├─ client left (reactor) ▶ worker: complete, close a plain ChunkedOutput, resume AsyncResponse with
 *     │                          ClientGone (Jersey runs its ConnectionCallbacks); retried while workers are full
 *     └─ close (the writer completed) ─▶ [CLOSED: timer cancelled, unregistered]
 * </pre>
 */
final class Suspension implements SuspendedWriters.Suspended {
    /** The response writer's logger: a suspension reports as part of it. */
    private static final System.Logger LOG = System.getLogger("dev.fleche.jersey.internal.ResponseWriter");
    /** While the workers are saturated, a disconnect is retried this often, for up to 5 s. */
    private static final long DISCONNECT_RETRY_MILLIS = 20;
    private static final int DISCONNECT_RETRIES = 250;

    /** The writer, as its suspension sees it. */
    interface Owner {
        /** Claims the completion of the response (timers end); false when it was complete already. */
        boolean complete();

        /** Whether the response is complete. */
        boolean isComplete();

        /** The response's entity when it is a {@link ChunkedOutput} (an SSE sink is one), else null. */
        ChunkedOutput<?> chunkedEntity();

        /** The suspend timed out with no handler able to run: {@code 503} with {@code Retry-After}, at once. */
        void timedOut();

        /** Runs {@code handler}'s {@code onTimeout} for this response (on a worker). */
        void onTimeout(TimeoutHandler handler);
    }

    private final HttpExchange exchange;
    private final Workers workers;
    private final SuspendedWriters registry;
    private final Owner owner;
    private final SuspendTimer timer;
    private int disconnectRetries; // reactor thread only

    Suspension(HttpExchange exchange, Workers workers, SuspendedWriters registry, Owner owner) {
        this.exchange = exchange;
        this.workers = workers;
        this.registry = registry;
        this.owner = owner;
        this.timer = new SuspendTimer(exchange, this::expired);
    }

    /** Suspends ({@code time <= 0}: no timeout); false when already suspended. */
    boolean suspend(long time, TimeUnit unit, TimeoutHandler handler) {
        boolean suspended = timer.suspend(time, unit, handler);
        if (suspended) {
            exchange.onDisconnect(this::clientLeft);
        }
        if (owner.isComplete()) {
            close(); // completed meanwhile: the timer must not outlive the response
        } else if (suspended) {
            registry.register(this);
            if (owner.isComplete()) {
                registry.remove(this); // completed meanwhile
            }
        }
        return suspended;
    }

    /** Replaces the timeout; {@link IllegalStateException} when not suspended. */
    void reset(long time, TimeUnit unit) {
        timer.reset(time, unit);
    }

    boolean isSuspended() {
        return timer.isSuspended();
    }

    /** The response is complete: the timer is cancelled for good and the drain forgets it. */
    void close() {
        timer.close();
        registry.remove(this);
    }

    /**
     * The container drains: a chunked entity (an SSE sink) is closed, which ends its body; any other suspended
     * response times out now (the application's timeout handler, else Jersey's {@code 503}).
     */
    @Override
    public void endForDrain() {
        if (owner.isComplete()) {
            return;
        }
        ChunkedOutput<?> stream = owner.chunkedEntity();
        if (stream != null) {
            if (!workers.tryExecute(() -> close(stream, "closing a chunked output for a drain failed"))) {
                close(stream, "closing a chunked output for a drain failed");
            }
            return;
        }
        expired(timer.handler());
    }

    /** Reactor: the timeout expired; Jersey's handler may write, so it runs on a worker. */
    private void expired(TimeoutHandler handler) {
        if (handler == null || !workers.tryExecute(() -> owner.onTimeout(handler))) {
            owner.timedOut();
        }
    }

    /** Reactor: the client of the suspended exchange left; tell the application from a worker. */
    private void clientLeft() {
        if (owner.isComplete()) {
            return;
        }
        if (workers.tryExecute(this::disconnected)) {
            return;
        }
        if (++disconnectRetries <= DISCONNECT_RETRIES) {
            exchange.schedule(this::clientLeft, DISCONNECT_RETRY_MILLIS, TimeUnit.MILLISECONDS);
            return;
        }
        LOG.log(System.Logger.Level.WARNING, "workers saturated for 5 s: the disconnect of " + exchange
                + " was not reported to the application");
        owner.complete();
    }

    /** Worker: completes the exchange, closes a chunked entity (not an SSE sink), runs Jersey's ConnectionCallbacks. */
    private void disconnected() {
        TimeoutHandler handler = timer.handler();
        ChunkedOutput<?> stream = owner.chunkedEntity();
        if (!owner.complete()) {
            return; // completed meanwhile
        }
        if (stream != null && !(stream instanceof SseEventSink)) {
            close(stream, "closing the chunked output of a departed client failed");
        }
        if (handler instanceof AsyncResponse async && async.isSuspended()) {
            try {
                async.resume(ClientGone.response());
            } catch (RuntimeException e) {
                LOG.log(System.Logger.Level.DEBUG, "reporting a disconnect to Jersey failed", e);
            }
        }
    }

    private static void close(ChunkedOutput<?> stream, String failure) {
        try {
            stream.close();
        } catch (IOException | RuntimeException e) {
            LOG.log(System.Logger.Level.DEBUG, failure, e);
        }
    }
}
