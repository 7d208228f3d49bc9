package dev.fleche.jersey;

import dev.fleche.transport.Timeout;

import java.util.concurrent.TimeUnit;

/**
 * The client connection a request arrived on, for code that outlives the resource method (suspended requests,
 * SSE, streaming). Read it from the request property {@value FlecheProperties#CONNECTION}:
 *
 * <pre>{@code
 * @GET
 * public void poll(@Suspended AsyncResponse response, @Context ContainerRequestContext request) {
 *     ClientConnection connection = (ClientConnection) request.getProperty(FlecheProperties.CONNECTION);
 *     connection.schedule(() -> connection.dispatch(() -> response.resume("tick")), 1, TimeUnit.SECONDS);
 * }
 * }</pre>
 *
 * <p>Timers are the connection's reactor timer (a hashed wheel: O(1) to arm and cancel, no thread per timer)
 * and belong to the request: every timer armed here that has not run yet is <b>cancelled when the response
 * completes</b> — committed, failed, or abandoned because the client left. Reactor callbacks ({@link #schedule}
 * tasks, {@link #onDisconnect} callbacks) must not block; hand blocking work to {@link #dispatch}.
 *
 * <p>Every method may be called from any thread.
 */
public interface ClientConnection {

    /** The transport's connection id (as in its events). */
    long id();

    /** Whether the client is still connected: an EOF or a reset seen by the reactor turns this false at once. */
    boolean isOpen();

    /**
     * Registers {@code callback}, run on the reactor thread as soon as the client disconnects before the response
     * is complete; at once when it already has. Must not block. Callbacks are dropped when the response completes.
     */
    void onDisconnect(Runnable callback);

    /**
     * Runs {@code task} on the connection's reactor thread after {@code delay} unless cancelled first or the
     * response completes first. {@code task} must not block. Returns the handle that cancels it; after the
     * response is complete nothing is armed and the handle is already cancelled.
     */
    Timeout schedule(Runnable task, long delay, TimeUnit unit);

    /**
     * Runs {@code task} on one of the container's worker threads (virtual threads, or the bounded pool); returns
     * {@code false}, without running it, when they are saturated.
     */
    boolean dispatch(Runnable task);
}
