package dev.fleche.transport;

import static org.junit.jupiter.api.Assertions.fail;

import java.io.IOException;
import java.nio.channels.Selector;
import java.time.Duration;
import java.util.concurrent.locks.AbstractQueuedSynchronizer;
import java.util.concurrent.locks.LockSupport;
import java.util.function.BooleanSupplier;
import java.util.function.LongSupplier;

/**
 * Waits for a condition that a test can observe but not be notified of (a metrics counter, a thread's state).
 * The wait is bounded and fails with the condition's name; it never stands in for a guess of how long something
 * takes. Where a latch, a future or a socket read can be awaited instead, tests do that.
 */
final class Await {
    private static final long POLL_NANOS = 500_000;

    private Await() {
    }

    /** Returns once {@code condition} holds; fails after {@code timeout}. */
    static void until(String what, Duration timeout, BooleanSupplier condition) {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() - deadline > 0) {
                fail("timed out after " + timeout.toMillis() + " ms waiting for: " + what);
            }
            LockSupport.parkNanos(POLL_NANOS);
        }
    }

    /** Returns once {@code condition} holds; fails after 5 s. */
    static void until(String what, BooleanSupplier condition) {
        until(what, Duration.ofSeconds(5), condition);
    }

    /**
     * Returns once {@code writer} has been parked on a condition (the outbound window), with none of the
     * {@code progress} counters moving, for 200 ms; fails after 10 s. A single look is not enough: a writer also
     * parks briefly while the reactor catches up with a client that reads. The waits between looks are selects
     * on an empty selector.
     */
    static void writerBlocked(Thread writer, LongSupplier... progress) throws IOException {
        long deadline = System.nanoTime() + 10_000_000_000L;
        long steadySince = System.nanoTime();
        long[] last = new long[progress.length];
        try (Selector ticker = Selector.open()) {
            while (true) {
                boolean steady = awaitingCondition(writer);
                for (int i = 0; i < progress.length; i++) {
                    long now = progress[i].getAsLong();
                    steady &= now == last[i];
                    last[i] = now;
                }
                long now = System.nanoTime();
                if (!steady) {
                    steadySince = now;
                } else if (now - steadySince > 200_000_000L) {
                    return;
                }
                if (now - deadline > 0) {
                    fail("the writer never blocked: " + java.util.Arrays.toString(last));
                }
                ticker.select(10);
            }
        }
    }

    /**
     * Whether {@code thread} is parked in {@code Condition.await} (not merely waiting to take a lock): the only
     * condition a response writer waits on is the outbound window.
     */
    static boolean awaitingCondition(Thread thread) {
        Thread.State state = thread.getState();
        return (state == Thread.State.WAITING || state == Thread.State.TIMED_WAITING)
                && LockSupport.getBlocker(thread) instanceof AbstractQueuedSynchronizer.ConditionObject;
    }
}
