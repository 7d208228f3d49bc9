package dev.fleche.transport;

/** A task scheduled on a reactor's timer by {@link HttpExchange#schedule}. */
public interface Timeout {

    /**
     * Cancels the task if it has not run yet; returns whether this call cancelled it. Safe from any thread; the
     * task's timer slot is released at once when called on the reactor, else on the reactor's next turn.
     */
    boolean cancel();
}
