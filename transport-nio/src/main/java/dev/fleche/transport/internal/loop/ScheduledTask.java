package dev.fleche.transport.internal.loop;

import dev.fleche.transport.internal.telemetry.Events;
import dev.fleche.transport.Timeout;

import java.util.concurrent.atomic.AtomicInteger;

/** A user task on a reactor's timer wheel ({@code HttpExchange.schedule}); cancellable from any thread. */
public final class ScheduledTask extends TimerNode implements Timeout {
    private static final int PENDING = 0;
    private static final int RAN = 1;
    private static final int CANCELLED = 2;

    private final Reactor reactor;
    private final Runnable task;
    private final AtomicInteger state = new AtomicInteger(PENDING);

    public ScheduledTask(Reactor reactor, Runnable task) {
        this.reactor = reactor;
        this.task = task;
    }

    /** Reactor thread: puts the task on the wheel unless it was cancelled meanwhile. */
    public void arm(long deadline) {
        if (state.get() == PENDING && !isScheduled()) {
            reactor.wheel.schedule(this, deadline);
            reactor.scheduledTasks++;
        }
    }

    @Override
    protected void expire() {
        reactor.scheduledTasks--; // the wheel unlinked this node before calling expire()
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
            unlink();
        } else {
            reactor.execute(this::unlink);
        }
        return true;
    }

    /** Reactor thread: releases the timer slot, if the task was armed. */
    private void unlink() {
        if (reactor.wheel.cancel(this)) {
            reactor.scheduledTasks--;
        }
    }
}
