package dev.fleche.jersey.internal;

import dev.fleche.jersey.FlecheProperties;
import org.glassfish.jersey.CommonProperties;

import java.util.Map;
import java.util.concurrent.Executor;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.Semaphore;
import java.util.concurrent.SynchronousQueue;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Where requests run when they leave the reactor. Admission never queues without bound: {@link #tryExecute}
 * returns {@code false} when saturated and the caller answers {@code 503}.
 *
 * <table>
 *   <caption>Choice of threads</caption>
 *   <tr><th>configuration</th><th>threads</th><th>saturation</th></tr>
 *   <tr><td>{@value FlecheProperties#EXECUTOR} set</td><td>the user's executor</td><td>it throws
 *       {@code RejectedExecutionException}</td></tr>
 *   <tr><td>{@code jersey.config.threads.use.virtual=false}, or a runtime without virtual threads</td>
 *       <td>bounded pool (up to {@value FlecheProperties#WORKER_THREADS}, started only when none is idle; queue
 *       {@value FlecheProperties#WORKER_QUEUE}), threads from {@code jersey.config.threads.factory} when set</td>
 *       <td>queue full</td></tr>
 *   <tr><td>{@code jersey.config.threads.factory} set and {@code use.virtual=true}</td><td>one thread per request
 *       from that factory</td><td>{@value FlecheProperties#MAX_CONCURRENT_REQUESTS} running</td></tr>
 *   <tr><td>otherwise (Java 21+)</td><td>one virtual thread per request</td>
 *       <td>{@value FlecheProperties#MAX_CONCURRENT_REQUESTS} running</td></tr>
 * </table>
 */
public abstract class Workers {

    /** Runs {@code task} on a worker; returns {@code false}, without running it, when saturated. */
    public abstract boolean tryExecute(Runnable task);

    /** Releases threads the container created (a user's executor is left alone). */
    public abstract void shutdown();

    /** What runs the requests, for logs and tests. */
    public abstract String describe();

    /**
     * After {@link #shutdown()}: waits up to {@code timeout} for the requests still running to finish (a request
     * whose client the transport has answered or lost may still be in Jersey); whether they all did. Always true
     * for a user's executor, which the container does not track.
     */
    public boolean awaitIdle(java.time.Duration timeout) throws InterruptedException {
        return true;
    }

    /** Requests accepted and not yet finished (running or waiting for a thread); -1 when unknown (a user's executor). */
    public int inFlight() {
        return -1;
    }

    /** Requests waiting for a thread (0 when each request gets its own); -1 when unknown (a user's executor). */
    public int queued() {
        return -1;
    }

    /** The workers the application's {@code properties} ask for. */
    public static Workers from(Map<String, Object> properties) {
        Executor executor = Settings.instance(properties, FlecheProperties.EXECUTOR, Executor.class);
        if (executor != null) {
            return new External(executor);
        }
        Object virtualSetting = properties.get(CommonProperties.USE_VIRTUAL_THREADS);
        boolean virtualWanted = virtualThreadsWanted(properties);
        ThreadFactory factory = Settings.instance(properties, CommonProperties.THREAD_FACTORY, ThreadFactory.class);
        int limit = Settings.integer(properties, FlecheProperties.MAX_CONCURRENT_REQUESTS, 10_000, 1);
        if (factory != null && virtualSetting != null && virtualWanted) {
            return new PerTask(task -> startThread(factory, task), limit, "one thread per request from " + factory);
        }
        ThreadFactory virtual = factory == null && virtualWanted ? VirtualThreads.factory() : null;
        if (virtual != null) {
            return new PerTask(task -> startThread(virtual, task), limit, "virtual threads");
        }
        int threads = Settings.integer(properties, FlecheProperties.WORKER_THREADS,
                Math.max(16, 4 * Runtime.getRuntime().availableProcessors()), 1);
        int queue = Settings.integer(properties, FlecheProperties.WORKER_QUEUE, 10_000, 0);
        return new Pool(threads, queue, factory != null ? factory : new Named("fleche-worker-"));
    }

    /** Whether the application leaves virtual threads on ({@code jersey.config.threads.use.virtual}, default true). */
    static boolean virtualThreadsWanted(Map<String, Object> properties) {
        return Settings.bool(properties, CommonProperties.USE_VIRTUAL_THREADS, true);
    }

    private static void startThread(ThreadFactory factory, Runnable task) {
        Thread thread = factory.newThread(task);
        if (thread == null) {
            throw new RejectedExecutionException("thread factory " + factory + " refused a thread");
        }
        thread.start();
    }

    /**
     * A bounded pool of platform threads with a bounded queue that starts a thread only when no thread is idle:
     * a container doing short or asynchronous work keeps a few threads, one serving many blocking calls grows to
     * its maximum, and then queues. Threads end after 60 s without work.
     *
     * <p>A plain {@link ThreadPoolExecutor} starts a new thread for every task until it has its core size, idle
     * threads or not, and starts threads beyond it only when the queue is full; here the queue refuses a task (so
     * that the executor starts a thread) while more tasks are pending than threads are alive. The two counts are
     * read racily: at worst a thread more is started or a task waits for a busy thread.
     */
    static final class Pool extends Workers {
        private final AtomicInteger pending = new AtomicInteger();
        private final AtomicInteger alive = new AtomicInteger();
        private final int max;
        private final int queue;
        private final ThreadPoolExecutor pool;

        Pool(int threads, int queue, ThreadFactory factory) {
            this.max = threads;
            this.queue = queue;
            BlockingQueue<Runnable> waiting = queue == 0 ? new SynchronousQueue<>() : new Waiting(queue);
            pool = new ThreadPoolExecutor(0, threads, 60, TimeUnit.SECONDS, waiting, counted(factory),
                    Pool::queueWhenFull) {
                @Override
                protected void afterExecute(Runnable task, Throwable thrown) {
                    pending.decrementAndGet();
                }
            };
        }

        /** Threads from {@code factory} that count themselves alive until they end. */
        private ThreadFactory counted(ThreadFactory factory) {
            return worker -> {
                Thread thread = factory.newThread(() -> {
                    try {
                        worker.run();
                    } finally {
                        alive.decrementAndGet();
                    }
                });
                if (thread != null) {
                    alive.incrementAndGet();
                }
                return thread;
            };
        }

        /**
         * The executor could not start a thread for a task the queue refused: another one reached the maximum
         * meanwhile. The task waits in the queue when there is room.
         */
        private static void queueWhenFull(Runnable task, ThreadPoolExecutor executor) {
            if (executor.isShutdown() || !(executor.getQueue() instanceof Waiting)
                    || !((Waiting) executor.getQueue()).queue(task)) {
                throw new RejectedExecutionException("workers saturated");
            }
        }

        /** The bounded queue, refusing a task while no thread is idle and the pool may still grow. */
        private final class Waiting extends ArrayBlockingQueue<Runnable> {
            Waiting(int capacity) {
                super(capacity);
            }

            @Override
            public boolean offer(Runnable task) {
                int threads = alive.get();
                return (threads >= max || pending.get() <= threads) && super.offer(task);
            }

            boolean queue(Runnable task) {
                return super.offer(task);
            }
        }

        @Override
        public boolean tryExecute(Runnable task) {
            pending.incrementAndGet();
            try {
                pool.execute(task);
                return true;
            } catch (RejectedExecutionException e) {
                pending.decrementAndGet();
                return false;
            }
        }

        /** Threads alive now. */
        int threads() {
            return alive.get();
        }

        /** Tasks accepted and not yet finished. */
        int pending() {
            return pending.get();
        }

        @Override
        public void shutdown() {
            pool.shutdown();
        }

        @Override
        public boolean awaitIdle(java.time.Duration timeout) throws InterruptedException {
            return pool.awaitTermination(timeout.toNanos(), TimeUnit.NANOSECONDS);
        }

        @Override
        public int inFlight() {
            return pending.get();
        }

        @Override
        public int queued() {
            return pool.getQueue().size();
        }

        @Override
        public String describe() {
            return "bounded pool of up to " + max + " threads (started when none is idle), queue " + queue;
        }
    }

    /** One new thread per task, at most {@code limit} running. */
    static class PerTask extends Workers {
        /** Starts a thread running the task; may throw {@link RejectedExecutionException}. */
        interface Starter {
            void start(Runnable task);
        }

        private final Starter starter;
        private final Semaphore permits;
        private final int limit;
        private final String description;
        private volatile boolean shutDown;

        PerTask(Starter starter, int limit, String description) {
            this.starter = starter;
            this.permits = new Semaphore(limit);
            this.limit = limit;
            this.description = description + ", at most " + limit + " at once";
        }

        @Override
        public boolean tryExecute(Runnable task) {
            if (shutDown || !permits.tryAcquire()) {
                return false;
            }
            Runnable guarded = () -> {
                try {
                    task.run();
                } finally {
                    permits.release();
                }
            };
            try {
                starter.start(guarded);
                return true;
            } catch (RejectedExecutionException e) {
                permits.release();
                return false;
            }
        }

        @Override
        public void shutdown() {
            shutDown = true; // threads end with their request
        }

        @Override
        public boolean awaitIdle(java.time.Duration timeout) throws InterruptedException {
            if (!permits.tryAcquire(limit, timeout.toNanos(), TimeUnit.NANOSECONDS)) {
                return false;
            }
            permits.release(limit);
            return true;
        }

        @Override
        public int inFlight() {
            return limit - permits.availablePermits();
        }

        @Override
        public int queued() {
            return 0;
        }

        @Override
        public String describe() {
            return description;
        }
    }

    /** The user's executor. */
    static final class External extends Workers {
        private final Executor executor;

        External(Executor executor) {
            this.executor = executor;
        }

        @Override
        public boolean tryExecute(Runnable task) {
            try {
                executor.execute(task);
                return true;
            } catch (RejectedExecutionException e) {
                return false;
            }
        }

        @Override
        public void shutdown() {
            // not ours
        }

        @Override
        public String describe() {
            return "executor " + executor;
        }
    }

    /** Daemon platform threads named {@code prefix + n}. */
    static final class Named implements ThreadFactory {
        private final String prefix;
        private final AtomicInteger count = new AtomicInteger();

        Named(String prefix) {
            this.prefix = prefix;
        }

        @Override
        public Thread newThread(Runnable task) {
            Thread thread = new Thread(task, prefix + count.incrementAndGet());
            thread.setDaemon(true);
            return thread;
        }
    }

    /** Virtual threads, found reflectively: the module compiles for Java 17. */
    static final class VirtualThreads {
        private VirtualThreads() {
        }

        /** Whether this runtime has virtual threads (Java 21+). */
        static boolean available() {
            return Runtime.version().feature() >= 21;
        }

        /**
         * {@code Thread.ofVirtual().factory()}: unnamed virtual threads, or null on a runtime without them. Threads
         * come straight from it, not from {@code Executors.newVirtualThreadPerTaskExecutor()}, whose executor adds
         * every thread to a shared set and removes it again: two writes per request to memory that every core
         * shares, for a bookkeeping {@link PerTask}'s permits already do.
         */
        static ThreadFactory factory() {
            try {
                Object builder = Thread.class.getMethod("ofVirtual").invoke(null);
                return (ThreadFactory) Class.forName("java.lang.Thread$Builder").getMethod("factory").invoke(builder);
            } catch (ReflectiveOperationException | RuntimeException e) {
                return null;
            }
        }

        /** {@code Executors.newVirtualThreadPerTaskExecutor()}, or null on a runtime without virtual threads. */
        static ExecutorService newPerTaskExecutor() {
            try {
                return (ExecutorService) Executors.class.getMethod("newVirtualThreadPerTaskExecutor").invoke(null);
            } catch (ReflectiveOperationException | RuntimeException e) {
                return null;
            }
        }
    }
}
