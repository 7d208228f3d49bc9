package dev.fleche.transport.internal.loop;

import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The timer wheel driven as a reactor drives it — advance, then wait exactly as long as {@code millisToWake}
 * says (a perfect selector) — on a fake clock: nodes expire at their deadline or within a millisecond after it,
 * never before, whatever their round; cancelled nodes never expire.
 */
class TimerWheelTest {
    private static final long MS = 1_000_000L;
    private static final long TICK = 10 * MS;
    private static final long ORIGIN = 987_654_321L; // not a multiple of the tick

    private final TimerWheel wheel = new TimerWheel(512, TICK, ORIGIN);
    private long now = ORIGIN;
    private int turns;

    /** A node recording when it expired. */
    private final class Node extends TimerNode {
        long expiredAt = -1;

        @Override
        protected void expire() {
            assertEquals(-1, expiredAt, "expired twice");
            expiredAt = now;
        }
    }

    /** Reactor turns until {@code until}: advance, then sleep what the wheel asks (0: nothing scheduled). */
    private void runUntil(long until) {
        while (now < until) {
            wheel.advance(now);
            long wait = wheel.millisToWake(now);
            now = wait == 0 ? until : Math.min(until, now + wait * MS);
            turns++;
        }
        wheel.advance(now);
    }

    private Node schedule(long delay) {
        Node node = new Node();
        wheel.schedule(node, now + delay);
        return node;
    }

    @Test
    void expiresWithinAMillisecondOfTheDeadlineNotAtTheEndOfItsTick() {
        Node node = schedule(130 * MS + 200_000); // 0.2 ms into a tick
        runUntil(ORIGIN + 200 * MS);
        long late = node.expiredAt - node.deadline;
        assertTrue(late >= 0 && late <= MS, "late by " + late + " ns");
    }

    @Test
    void randomDeadlinesOverSeveralRoundsExpireOnTime() {
        Random random = new Random(42);
        List<Node> nodes = new ArrayList<>();
        for (int i = 0; i < 2_000; i++) {
            nodes.add(schedule(random.nextInt(12_000) * MS + random.nextInt(1_000_000))); // up to 12 s: 2+ rounds
        }
        runUntil(ORIGIN + 13_000 * MS);
        for (Node node : nodes) {
            long late = node.expiredAt - node.deadline;
            assertTrue(node.expiredAt >= 0 && late >= 0 && late <= MS, "late by " + late + " ns");
        }
        assertEquals(0, wheel.size());
        // a wake-up per tick plus at most one per node (its own deadline within a tick)
        assertTrue(turns <= 13_000 / 10 + 2 * nodes.size(), turns + " turns");
    }

    @Test
    void aDeadlineAlreadyPassedExpiresOnTheNextAdvance() {
        runUntil(ORIGIN + 55 * MS);
        Node node = schedule(-20 * MS);
        assertEquals(1, wheel.millisToWake(now));
        wheel.advance(now);
        assertEquals(now, node.expiredAt);
    }

    @Test
    void cancelledNodesNeverExpireAndNothingLeftMeansNoWakeUps() {
        Node kept = schedule(33 * MS);
        Node cancelled = schedule(31 * MS);
        assertTrue(wheel.cancel(cancelled));
        assertFalse(wheel.cancel(cancelled));
        runUntil(ORIGIN + 100 * MS);
        assertEquals(-1, cancelled.expiredAt);
        assertTrue(kept.expiredAt >= kept.deadline);
        assertEquals(0, wheel.millisToWake(now), "empty wheel: wait for I/O only");
    }

    @Test
    void aNodeRearmedWhileExpiringWithinTheSameTickIsStillOnTime() {
        List<Long> late = new ArrayList<>();
        TimerNode node = new TimerNode() {
            int runs;

            @Override
            protected void expire() {
                late.add(now - deadline);
                if (++runs < 5) {
                    wheel.schedule(this, now + 3 * MS); // several times within one tick
                }
            }
        };
        wheel.schedule(node, now + 2 * MS);
        runUntil(ORIGIN + 100 * MS);
        assertEquals(5, late.size());
        for (long l : late) {
            assertTrue(l >= 0 && l <= MS, "late by " + l + " ns");
        }
    }
}
