package dev.fleche.jersey.internal;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The striped limit is exact: every permit can be taken from one thread, none beyond the limit, each comes back. */
@Timeout(30)
class PermitsTest {

    @Test
    void oneThreadGetsEveryPermitAndNoMore() {
        for (int limit : new int[] {1, 2, 7, 10, 64, 1000}) {
            for (int processors : new int[] {1, 2, 3, 8, 16, 100}) {
                Permits permits = new Permits(limit, processors);
                List<Integer> tokens = new ArrayList<>();
                for (int i = 0; i < limit; i++) {
                    int token = permits.tryAcquire();
                    assertNotEquals(Permits.NONE, token, "permit " + (i + 1) + " of " + limit + ", " + processors + " cpus");
                    tokens.add(token);
                }
                assertEquals(limit, permits.taken());
                assertEquals(Permits.NONE, permits.tryAcquire(), "beyond " + limit + ", " + processors + " cpus");
                permits.release(tokens.remove(tokens.size() - 1));
                assertEquals(limit - 1, permits.taken());
                tokens.add(permits.tryAcquire());
                assertEquals(Permits.NONE, permits.tryAcquire());
                tokens.forEach(permits::release);
                assertEquals(0, permits.taken());
            }
        }
    }

    @Test
    void aPermitReturnedOnAnotherThreadIsFreeForEveryThread() throws Exception {
        Permits permits = new Permits(3, 8);
        int a = permits.tryAcquire();
        int b = permits.tryAcquire();
        int c = permits.tryAcquire();
        assertEquals(Permits.NONE, permits.tryAcquire());
        Thread other = new Thread(() -> permits.release(b));
        other.start();
        other.join();
        AtomicInteger fromThird = new AtomicInteger(Permits.NONE);
        Thread third = new Thread(() -> fromThird.set(permits.tryAcquire()));
        third.start();
        third.join();
        assertNotEquals(Permits.NONE, fromThird.get());
        assertEquals(Permits.NONE, permits.tryAcquire());
        permits.release(a);
        permits.release(c);
        permits.release(fromThird.get());
        assertEquals(0, permits.taken());
    }

    @Test
    void neverMoreThanTheLimitAtOnceUnderContention() throws Exception {
        int limit = 37;
        int threads = 8;
        Permits permits = new Permits(limit, 4);
        AtomicInteger holding = new AtomicInteger();
        AtomicInteger most = new AtomicInteger();
        AtomicReference<Throwable> failed = new AtomicReference<>();
        CyclicBarrier start = new CyclicBarrier(threads);
        CountDownLatch done = new CountDownLatch(threads);
        for (int t = 0; t < threads; t++) {
            Thread thread = new Thread(() -> {
                try {
                    start.await();
                    List<Integer> mine = new ArrayList<>();
                    for (int i = 0; i < 20_000; i++) {
                        int token = permits.tryAcquire();
                        if (token != Permits.NONE) {
                            most.accumulateAndGet(holding.incrementAndGet(), Math::max);
                            mine.add(token);
                        }
                        if (mine.size() > 5 || (token == Permits.NONE && !mine.isEmpty())) {
                            holding.decrementAndGet();
                            permits.release(mine.remove(0));
                        }
                    }
                    for (int token : mine) {
                        holding.decrementAndGet();
                        permits.release(token);
                    }
                } catch (Throwable e) {
                    failed.set(e);
                } finally {
                    done.countDown();
                }
            });
            thread.start();
        }
        assertTrue(done.await(20, TimeUnit.SECONDS));
        assertNull(failed.get());
        assertTrue(most.get() <= limit, "at most " + limit + " at once, saw " + most.get());
        assertEquals(0, permits.taken());
        assertTrue(permits.awaitNoneTaken(Duration.ZERO));
    }

    @Test
    void awaitNoneTakenWakesWhenTheLastReturns() throws Exception {
        Permits permits = new Permits(4, 2);
        int token = permits.tryAcquire();
        assertFalse(permits.awaitNoneTaken(Duration.ofMillis(20)));
        CountDownLatch waiting = new CountDownLatch(1);
        AtomicReference<Boolean> result = new AtomicReference<>();
        Thread waiter = new Thread(() -> {
            try {
                waiting.countDown();
                result.set(permits.awaitNoneTaken(Duration.ofSeconds(20)));
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        });
        waiter.start();
        assertTrue(waiting.await(5, TimeUnit.SECONDS));
        permits.release(token);
        waiter.join(20_000);
        assertEquals(Boolean.TRUE, result.get());
    }
}
