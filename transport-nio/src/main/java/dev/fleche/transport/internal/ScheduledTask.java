package dev.fleche.transport.internal;

import dev.fleche.transport.Timeout;

import java.util.concurrent.atomic.AtomicInteger;

/** A user task on a reactor's timer wheel ({@code HttpExchange.schedule}); cancellable from any thread. */
final class ScheduledTask extends TimerNode implements Timeout {
    private static final int PENDING = 0;
    private static final int RAN = 1;
    private static final int CANCELLED = 2;

    private final Reactor reactor;
    private final Runnable task;
    private final AtomicInteger state = new AtomicInteger(PENDING);

    ScheduledTask(Reactor reactor, Runnable task) {
        this.reactor = reactor;
        this.task = task;
    }

    /** Reactor thread: puts the task on the wheel unless it was cancelled meanwhile. */
    void arm(long deadline) {
        if (state.get() == PENDING) {
            reactor.wheel.schedule(this, deadline);
        }
    }

    @Override
    void expire() {
        if (state.compareAndSet(PENDING, RAN)) {
            try {
                task.run();
            } catch (RuntimeException e) {
                Events.warn("timer-task-error", -1, e);
            }
        }
    }

    @Override
    public boolean cancel() {
        if (!state.compareAndSet(PENDING, CANCELLED)) {
            return false;
        }
        if (reactor.inLoop()) {
            reactor.wheel.cancel(this);
        } else {
            reactor.execute(() -> reactor.wheel.cancel(this));
        }
        return true;
    }
}
