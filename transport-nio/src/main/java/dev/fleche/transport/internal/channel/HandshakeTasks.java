package dev.fleche.transport.internal.channel;

import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.Executor;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The threads that run {@code SSLEngine} delegated tasks (key exchange, certificate checks) off the reactors: one
 * pool per server, a fixed number of daemon threads {@code fleche-tls-N} and a bounded queue. When the queue is full
 * {@link #execute} throws {@link java.util.concurrent.RejectedExecutionException}, and the channel runs the task on
 * its reactor instead (slower for everyone, never lost).
 */
public final class HandshakeTasks implements Executor, AutoCloseable {
    private final ThreadPoolExecutor pool;

    /**
     * @param threads       worker threads, e.g. half the processors
     * @param queueCapacity tasks waiting for a thread before new ones are refused
     */
    public HandshakeTasks(int threads, int queueCapacity) {
        AtomicInteger ids = new AtomicInteger();
        pool = new ThreadPoolExecutor(threads, threads, 0, TimeUnit.MILLISECONDS,
                new ArrayBlockingQueue<>(queueCapacity), task -> {
                    Thread thread = new Thread(task, "fleche-tls-" + ids.incrementAndGet());
                    thread.setDaemon(true);
                    return thread;
                }, new ThreadPoolExecutor.AbortPolicy());
    }

    @Override
    public void execute(Runnable task) {
        pool.execute(task);
    }

    /** Stops the threads; tasks queued are dropped (their connections are closing with the server). */
    /** The pool a TLS server starts with: half the processors (at least one thread), 1,024 queued tasks. */
    public static HandshakeTasks forServer() {
        return new HandshakeTasks(Math.max(1, Runtime.getRuntime().availableProcessors() / 2), 1024);
    }

    @Override
    public void close() {
        pool.shutdownNow();
    }
}
