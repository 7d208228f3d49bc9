package dev.fleche.transport.internal.rules;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.fleche.transport.MinDataRate;
import dev.fleche.transport.ServerOptions;
import dev.fleche.transport.TlsOptions;
import java.time.Duration;
import java.util.EnumSet;
import javax.net.ssl.SSLContext;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Every timer of a connection at its edge, on an injected clock: one nanosecond before it nothing is due and
 * {@link Deadlines#next()} names it; at it and after it, it fires. Each timer has its own length here, so a timer
 * firing in another's place shows.
 */
@Timeout(10)
class DeadlinesTest {
    private static final long MS = 1_000_000L;
    private static final long T0 = 1_000_000_000_000L;
    private static final long IDLE = 60_000 * MS;
    private static final long HEADER = 20_000 * MS;
    private static final long BODY = 30_000 * MS;
    private static final long STALL = 25_000 * MS;
    private static final long RATE_WINDOW = 5_000 * MS;
    private static final long RATE_BYTES = 1_000; // 200 B/s over 5 s

    private static final ServerOptions OPTIONS = ServerOptions.builder()
            .idleTimeout(Duration.ofNanos(IDLE)).headerTimeout(Duration.ofNanos(HEADER))
            .bodyTimeout(Duration.ofNanos(BODY)).writeStallTimeout(Duration.ofNanos(STALL))
            .minRequestBodyRate(new MinDataRate(200, Duration.ofNanos(RATE_WINDOW)))
            .minResponseRate(new MinDataRate(200, Duration.ofNanos(RATE_WINDOW)))
            .build();

    /** What the connection would tell: settable per test. */
    private static final class In implements Deadlines.Input {
        boolean paused;
        boolean waiting;
        long progress;
        RateWindow response;
        RateWindow request;

        @Override public boolean readPaused() { return paused; }
        @Override public boolean outputWaiting() { return waiting; }
        @Override public long lastWriteProgress() { return progress; }
        @Override public RateWindow responseRate() { return response; }
        @Override public RateWindow requestRate() { return request; }
    }

    private final Deadlines deadlines = new Deadlines(OPTIONS, T0);
    private final In in = new In();

    /** Before {@code at}: nothing due, and the next look is at {@code at}; at it and after it: {@code expected}. */
    private void edge(Deadline phase, long at, Deadline expected) {
        assertNull(deadlines.due(phase, in, at - 1), "1 ns before " + expected);
        assertEquals(at, deadlines.next(), "the next look, before " + expected);
        assertSame(expected, deadlines.due(phase, in, at), "at " + expected);
        assertSame(expected, deadlines.due(phase, in, at + 1), "after " + expected);
    }

    @ParameterizedTest
    @EnumSource(names = {"IDLE", "HEADER", "BODY", "LINGER"})
    void aPhaseTimerFiresAtItsLengthFromTheRestart(Deadline phase) {
        deadlines.restart(T0 + 7 * MS);
        edge(phase, T0 + 7 * MS + phase.nanos(OPTIONS), phase);
    }

    @Test
    void theHandshakeTimerIsTlsOptionsHandshakeTimeout() {
        assertEquals(0, Deadline.HANDSHAKE.nanos(OPTIONS), "no TLS: no handshake timeout");
        for (Deadline deadline : Deadline.values()) {
            assertTrue(deadline == Deadline.HANDSHAKE || deadline.nanos(OPTIONS) > 0, deadline.name());
        }
    }

    @Test
    void theHandshakeTimerFiresAtItsEdgeWhateverWaits() throws Exception {
        long handshake = 10_000 * MS;
        ServerOptions tls = OPTIONS.toBuilder().tls(TlsOptions.builder(SSLContext.getDefault())
                .handshakeTimeout(Duration.ofNanos(handshake)).build()).build();
        Deadlines handshaking = new Deadlines(tls, T0);
        in.waiting = true; // the handshake's own flight waiting: only the handshake timer applies
        in.progress = T0;
        assertNull(handshaking.due(Deadline.HANDSHAKE, in, T0 + handshake - 1));
        assertEquals(T0 + handshake, handshaking.next());
        assertSame(Deadline.HANDSHAKE, handshaking.due(Deadline.HANDSHAKE, in, T0 + handshake));
        assertSame(Deadline.HANDSHAKE, handshaking.due(Deadline.HANDSHAKE, in, T0 + handshake + 1));
    }

    @Test
    void aDispatchedRequestHasNoTimerOfItsOwn() {
        assertNull(deadlines.due(null, in, T0 + 365L * 24 * 3_600_000 * MS));
    }

    @Test
    void theBodyTimerWaitsWhileReadingIsPaused() {
        in.paused = true;
        assertNull(deadlines.due(Deadline.BODY, in, T0 + BODY));
        assertNull(deadlines.due(Deadline.BODY, in, T0 + 10 * BODY));
    }

    @Test
    void writeStallCountsFromTheLastProgressInEveryPhase() {
        in.waiting = true;
        in.progress = T0 + 3 * MS;
        edge(null, T0 + 3 * MS + STALL, Deadline.WRITE_STALL);
        edge(Deadline.BODY, T0 + 3 * MS + STALL, Deadline.WRITE_STALL);
    }

    @Test
    void theResponseRateFiresAtTheEndOfAShortWindow() {
        in.waiting = true;
        in.progress = T0;
        in.response = running(T0, RATE_BYTES - 1);
        edge(null, T0 + RATE_WINDOW, Deadline.RESPONSE_RATE);
    }

    @Test
    void aWindowThatReachedTheRateStartsTheNext() {
        in.waiting = true;
        in.progress = T0 + RATE_WINDOW;
        in.response = running(T0, RATE_BYTES);
        assertNull(deadlines.due(null, in, T0 + RATE_WINDOW));
        assertEquals(T0 + 2 * RATE_WINDOW, deadlines.next());
    }

    @Test
    void theResponseRateOnlyCountsWhileOutputWaits() {
        in.response = running(T0, 0);
        assertNull(deadlines.due(null, in, T0 + 2 * RATE_WINDOW));
    }

    @Test
    void theBodyRateFiresAtTheEndOfAShortWindow() {
        in.request = running(T0, RATE_BYTES - 1);
        edge(Deadline.BODY, T0 + RATE_WINDOW, Deadline.BODY_RATE);
    }

    @Test
    void theBodyRateWaitsWhileReadingIsPaused() {
        in.paused = true;
        in.request = running(T0, 0);
        assertNull(deadlines.due(Deadline.BODY, in, T0 + RATE_WINDOW));
    }

    @Test
    void theBodyRateIsOnlyForTheBodyPhase() {
        in.request = running(T0, 0);
        assertNull(deadlines.due(null, in, T0 + RATE_WINDOW));
        assertSame(Deadline.IDLE, deadlines.due(Deadline.IDLE, in, T0 + IDLE));
    }

    @Test
    void aClientThatStoppedIsNamedByTheBodyTimeoutNotTheRate() {
        in.request = running(T0 + BODY - RATE_WINDOW, 0);
        assertSame(Deadline.BODY, deadlines.due(Deadline.BODY, in, T0 + BODY));
    }

    @Test
    void whileStoppingAnIdleConnectionClosesADrainPeriodAfterTheStop() {
        deadlines.restart(T0);
        deadlines.drain(T0 + 5 * MS);
        assertEquals(T0 + 5 * MS + Deadline.DRAIN_IDLE_NANOS, deadlines.at(Deadline.DRAIN_IDLE));
        edge(Deadline.DRAIN_IDLE, T0 + 5 * MS + Deadline.DRAIN_IDLE_NANOS, Deadline.DRAIN_IDLE);
    }

    @Test
    void whileStoppingTheDrainPeriodCountsFromTheLastActivityWhenLater() {
        deadlines.drain(T0);
        deadlines.restart(T0 + 9 * MS);
        edge(Deadline.DRAIN_IDLE, T0 + 9 * MS + Deadline.DRAIN_IDLE_NANOS, Deadline.DRAIN_IDLE);
    }

    @Test
    void whileStoppingAnIdleConnectionWithOutputWaitingTimesOutAsIdle() {
        deadlines.drain(T0);
        in.waiting = true;
        in.progress = T0 + Deadline.DRAIN_IDLE_NANOS;
        assertSame(Deadline.IDLE, deadlines.due(Deadline.DRAIN_IDLE, in, T0 + Deadline.DRAIN_IDLE_NANOS));
    }

    @Test
    void eachTimerIsNamedOnceWithItsReason() {
        EnumSet<Deadline> refusing = EnumSet.noneOf(Deadline.class);
        for (Deadline deadline : Deadline.values()) {
            if (deadline.refusal() != null) {
                refusing.add(deadline);
                assertEquals(408, deadline.refusal().status(), deadline.name());
            }
        }
        assertEquals(EnumSet.of(Deadline.HEADER, Deadline.BODY, Deadline.BODY_RATE), refusing);
        assertEquals("idle-timeout", Deadline.IDLE.closeReason());
        assertEquals("stop", Deadline.DRAIN_IDLE.closeReason());
        assertEquals("linger-timeout", Deadline.LINGER.closeReason());
        assertEquals("request-rate", Deadline.BODY_RATE.phase());
        assertEquals(EnumSet.of(Deadline.DRAIN_IDLE, Deadline.LINGER), EnumSet.complementOf(timeouts()));
    }

    private static EnumSet<Deadline> timeouts() {
        EnumSet<Deadline> set = EnumSet.noneOf(Deadline.class);
        for (Deadline deadline : Deadline.values()) {
            if (deadline.isTimeout()) {
                set.add(deadline);
            }
        }
        return set;
    }

    private static RateWindow running(long start, long bytes) {
        RateWindow window = new RateWindow(new MinDataRate(200, Duration.ofNanos(RATE_WINDOW)));
        window.start(start);
        window.add(bytes);
        return window;
    }
}
