package dev.fleche.jersey.internal;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The bounded pool starts threads only when none is idle, grows to its maximum, then queues, then refuses. */
class WorkersPoolTest {
    private final AtomicInteger made = new AtomicInteger();
    private final ThreadFactory factory = task -> {
        Thread thread = new Thread(task, "pool-test-" + made.incrementAndGet());
        thread.setDaemon(true);
        return thread;
    };
    private Workers.Pool pool;

    @AfterEach
    void shutdown() {
        if (pool != null) {
            pool.shutdown();
        }
    }

    @Test
    void oneRequestAtATimeNeedsOneThread() throws InterruptedException {
        pool = new Workers.Pool(16, 100, factory);
        for (int i = 0; i < 200; i++) {
            CountDownLatch ran = new CountDownLatch(1);
            assertTrue(pool.tryExecute(ran::countDown));
            assertTrue(ran.await(10, TimeUnit.SECONDS));
            awaitIdle(); // the task counts as pending until its thread is back for the next one
        }
        assertEquals(1, made.get(), "sequential work on an idle pool: one thread (a fixed pool starts all 16)");
        assertEquals(1, pool.threads());
    }

    private void awaitIdle() {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (pool.pending() != 0) {
            assertTrue(System.nanoTime() - deadline < 0, "the finished task never left the pending count");
            Thread.onSpinWait();
        }
    }

    /** A task that signals {@code entered}, waits for {@code release}, then runs {@code after}. */
    private static Runnable blocking(CountDownLatch entered, CountDownLatch release, Runnable after) {
        return () -> {
            entered.countDown();
            try {
                release.await(10, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            after.run();
        };
    }

    @Test
    void growsWhileEveryThreadIsBusyThenQueuesThenRefuses() throws InterruptedException {
        pool = new Workers.Pool(3, 2, factory);
        CountDownLatch entered = new CountDownLatch(3);
        CountDownLatch release = new CountDownLatch(1);
        CountDownLatch finished = new CountDownLatch(5);
        Runnable blocking = blocking(entered, release, finished::countDown);
        for (int i = 0; i < 3; i++) {
            assertTrue(pool.tryExecute(blocking));
        }
        assertTrue(entered.await(10, TimeUnit.SECONDS), "three blocking tasks run at once on three threads");
        assertEquals(3, pool.threads());
        assertTrue(pool.tryExecute(finished::countDown), "queued");
        assertTrue(pool.tryExecute(finished::countDown), "queued");
        assertFalse(pool.tryExecute(finished::countDown), "three busy threads and a full queue: refused");
        assertEquals(3, made.get(), "no thread beyond the maximum");
        release.countDown();
        assertTrue(finished.await(10, TimeUnit.SECONDS), "the queued tasks ran once the threads were free");
    }

    @Test
    void withoutQueueATaskRunsOnAnIdleThreadOrANewOne() throws InterruptedException {
        pool = new Workers.Pool(2, 0, factory);
        CountDownLatch release = new CountDownLatch(1);
        CountDownLatch entered = new CountDownLatch(2);
        Runnable blocking = blocking(entered, release, () -> { });
        assertTrue(pool.tryExecute(blocking));
        assertTrue(pool.tryExecute(blocking));
        assertTrue(entered.await(10, TimeUnit.SECONDS));
        assertFalse(pool.tryExecute(() -> { }), "both threads busy, no queue: refused");
        release.countDown();
    }
}
