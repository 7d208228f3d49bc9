package dev.fleche.async;

import java.time.Duration;
import java.util.concurrent.locks.LockSupport;
import java.util.function.BooleanSupplier;

import static org.junit.jupiter.api.Assertions.fail;

/**
 * Waits, bounded, for a condition a test can observe but not be notified of (a counter, a flag). Where a latch,
 * a future or a socket read can be awaited instead, tests do that.
 */
final class Await {
    private Await() {
    }

    static void until(String what, Duration timeout, BooleanSupplier condition) {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() - deadline > 0) {
                fail("timed out after " + timeout.toMillis() + " ms waiting for: " + what);
            }
            LockSupport.parkNanos(500_000);
        }
    }

    static void until(String what, BooleanSupplier condition) {
        until(what, Duration.ofSeconds(5), condition);
    }
}
