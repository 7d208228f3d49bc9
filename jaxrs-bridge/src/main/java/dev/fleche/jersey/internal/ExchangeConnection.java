package dev.fleche.jersey.internal;

import dev.fleche.jersey.ClientConnection;
import dev.fleche.transport.HttpExchange;
import dev.fleche.transport.Timeout;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicIntegerFieldUpdater;
import java.util.concurrent.locks.ReentrantLock;

/**
 * The {@link ClientConnection} of one request: the exchange's disconnect signal and reactor timer, with every
 * timer tracked so that {@link #end()} — called by the response writer when the response completes, whatever
 * the way — cancels those still armed. Created only when a request asks for it.
 */
final class ExchangeConnection implements ClientConnection {
    private static final Timeout ENDED = () -> false;

    private final HttpExchange exchange;
    private final Workers workers;
    private final ReentrantLock lock = new ReentrantLock();
    /** Timers armed and not yet run or cancelled; null until the first. Guarded by {@link #lock}. */
    private Set<Tracked> timers;
    private boolean ended;

    ExchangeConnection(HttpExchange exchange, Workers workers) {
        this.exchange = exchange;
        this.workers = workers;
    }

    @Override
    public long id() {
        return exchange.connectionId();
    }

    @Override
    public boolean isOpen() {
        return exchange.isOpen();
    }

    @Override
    public void onDisconnect(Runnable callback) {
        exchange.onDisconnect(Objects.requireNonNull(callback, "callback"));
    }

    @Override
    public Timeout schedule(Runnable task, long delay, TimeUnit unit) {
        Objects.requireNonNull(task, "task");
        Objects.requireNonNull(unit, "unit");
        Tracked tracked = new Tracked(task);
        lock.lock();
        try {
            if (ended) {
                return ENDED;
            }
            if (timers == null) {
                timers = new HashSet<>(4);
            }
            timers.add(tracked);
        } finally {
            lock.unlock();
        }
        Timeout handle = exchange.schedule(tracked, delay, unit);
        tracked.handle = handle;
        if (tracked.state != Tracked.PENDING) {
            handle.cancel(); // cancelled (or ended) before the handle existed
        }
        return tracked;
    }

    @Override
    public boolean dispatch(Runnable task) {
        return workers.tryExecute(Objects.requireNonNull(task, "task"));
    }

    /** The response is complete: cancels every timer still armed; later ones are refused. Idempotent. */
    void end() {
        List<Tracked> armed;
        lock.lock();
        try {
            if (ended) {
                return;
            }
            ended = true;
            if (timers == null || timers.isEmpty()) {
                return;
            }
            armed = new ArrayList<>(timers);
            timers = null;
        } finally {
            lock.unlock();
        }
        for (Tracked tracked : armed) {
            tracked.cancel();
        }
    }

    private void forget(Tracked tracked) {
        lock.lock();
        try {
            if (timers != null) {
                timers.remove(tracked);
            }
        } finally {
            lock.unlock();
        }
    }

    /** One timer: runs or is cancelled exactly once, and is forgotten either way. */
    private final class Tracked implements Runnable, Timeout {
        static final int PENDING = 0;
        static final int DONE = 1;
        private static final AtomicIntegerFieldUpdater<Tracked> STATE =
                AtomicIntegerFieldUpdater.newUpdater(Tracked.class, "state");

        private final Runnable task;
        volatile int state;
        volatile Timeout handle;

        Tracked(Runnable task) {
            this.task = task;
        }

        @Override
        public void run() {
            if (STATE.compareAndSet(this, PENDING, DONE)) {
                forget(this);
                task.run();
            }
        }

        @Override
        public boolean cancel() {
            if (!STATE.compareAndSet(this, PENDING, DONE)) {
                return false;
            }
            forget(this);
            Timeout current = handle;
            if (current != null) {
                current.cancel();
            }
            return true;
        }
    }
}
