package dev.fleche.transport.internal.http2;

import dev.fleche.transport.ServerOptions;
import dev.fleche.transport.internal.http2.Frames;
import dev.fleche.transport.internal.http2.Http2Error;
import dev.fleche.transport.internal.http2.Http2Exception;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The parts issue 36 gave {@link Http2Connection}, on their own: {@link Http2Budgets} (its counts, its window, its
 * output marks), {@link PeerSettings} (the last value of a frame wins, applied once) and {@link WaitingStreams}
 * (in order, each once, taken out when it stops waiting).
 */
@Timeout(10)
class Http2PartsTest {
    private static final long SECOND = 1_000_000_000L;

    @Test
    void theResetBudgetTripsPastItsLimitUnderItsRuleAndANewWindowStartsAfresh() throws Http2Exception {
        ServerOptions options = ServerOptions.builder().http2MaxResets(3).build();
        Http2Budgets budgets = new Http2Budgets(options, 0);
        for (int i = 0; i < 3; i++) {
            budgets.reset(i, "RST_STREAM REFUSED_STREAM");
        }
        Http2Exception calm = assertThrows(Http2Exception.class, () -> budgets.reset(5, "431"));
        assertEquals(Http2Error.ENHANCE_YOUR_CALM, calm.error());
        assertTrue(calm.isConnectionError());
        assertEquals("HTTP2_RESETS", calm.rule());
        assertTrue(calm.getMessage().contains("(last: 431)"), calm.getMessage());

        Http2Budgets fresh = new Http2Budgets(options, 0);
        for (int i = 0; i < 3; i++) {
            fresh.reset(0, "reset");
        }
        fresh.reset(10 * SECOND, "reset"); // 10 s later: a new window
    }

    @Test
    void theControlFrameBudgetIsItsOwn() throws Http2Exception {
        Http2Budgets budgets = new Http2Budgets(ServerOptions.builder().http2MaxControlFrames(2).http2MaxResets(2)
                .build(), 0);
        budgets.controlFrame(0, "PING");
        budgets.controlFrame(0, "PING");
        budgets.reset(0, "reset"); // counted apart
        assertEquals("HTTP2_CONTROL_FRAMES", assertThrows(Http2Exception.class,
                () -> budgets.controlFrame(0, "SETTINGS")).rule());
    }

    @Test
    void theOutputBudgetIsFullAtItsSizeAndDrainedAtHalf() {
        Http2Budgets budgets = new Http2Budgets(ServerOptions.builder().http2MaxQueuedOutputBytes(4096).build(), 0);
        assertFalse(budgets.outputFull(4095));
        assertTrue(budgets.outputFull(4096));
        assertEquals(96, budgets.outputRoom(4000));
        assertTrue(budgets.outputRoom(5000) < 0);
        assertFalse(budgets.outputDrained(2049));
        assertTrue(budgets.outputDrained(2048));
    }

    @Test
    void aSettingsFrameIsAppliedOnceWithTheLastValueOfEachParameter() {
        PeerSettings settings = new PeerSettings();
        Http2Framer framer = new Http2Framer(null, null);
        assertEquals(Frames.DEFAULT_WINDOW, settings.initialWindow());
        for (int i = 0; i < 2730; i++) {
            settings.entry(Frames.SETTINGS_INITIAL_WINDOW_SIZE, 1000 + i % 2);
        }
        settings.entry(Frames.SETTINGS_MAX_FRAME_SIZE, 32_768);
        settings.entry(Frames.SETTINGS_MAX_FRAME_SIZE, 20_000);
        settings.entry(0x99, 7); // unknown: ignored
        assertEquals(Frames.DEFAULT_WINDOW, settings.initialWindow(), "nothing applied before the frame's end");
        assertEquals(1001 - Frames.DEFAULT_WINDOW, settings.end(framer), "one change: to the last value");
        assertEquals(1001, settings.initialWindow());
        assertEquals(20_000, framer.peerMaxFrame());
        assertEquals(0, settings.end(framer), "an empty frame changes nothing");
        settings.entry(Frames.SETTINGS_INITIAL_WINDOW_SIZE, 1001);
        assertEquals(0, settings.end(framer), "the same value: no change");
    }

    @Test
    void waitingStreamsComeBackInOrderEachOnce() {
        WaitingStreams waiting = new WaitingStreams();
        assertTrue(waiting.isEmpty());
        assertNull(waiting.next());
        H2Stream a = new H2Stream(1, true, 0, 0);
        H2Stream b = new H2Stream(3, true, 0, 0);
        H2Stream c = new H2Stream(5, true, 0, 0);
        waiting.add(a);
        waiting.add(b);
        waiting.add(a); // already waiting: once
        waiting.add(c);
        waiting.remove(b); // it ended
        assertFalse(b.waitsForConnection);
        assertSame(a, waiting.next());
        assertFalse(a.waitsForConnection);
        waiting.add(a); // held back again: at the end of the line
        assertSame(c, waiting.next());
        assertSame(a, waiting.next());
        assertNull(waiting.next());
        assertTrue(waiting.isEmpty());
    }
}
