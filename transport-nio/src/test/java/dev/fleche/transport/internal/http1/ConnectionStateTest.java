package dev.fleche.transport.internal.http1;

import dev.fleche.transport.internal.rules.Deadline;
import static dev.fleche.transport.internal.http1.Http1State.CLOSED;
import static dev.fleche.transport.internal.http1.Http1State.CLOSING;
import static dev.fleche.transport.internal.http1.Http1State.CLOSING_TO_LINGER;
import static dev.fleche.transport.internal.http1.Http1State.DISCARDING_BODY;
import static dev.fleche.transport.internal.http1.Http1State.DISPATCHED;
import static dev.fleche.transport.internal.http1.Http1State.DRAINING;
import static dev.fleche.transport.internal.http1.Http1State.EXPECTING_CONTINUE;
import static dev.fleche.transport.internal.http1.Http1State.HANDSHAKING;
import static dev.fleche.transport.internal.http1.Http1State.IDLE;
import static dev.fleche.transport.internal.http1.Http1State.LINGERING;
import static dev.fleche.transport.internal.http1.Http1State.READING_BODY;
import static dev.fleche.transport.internal.http1.Http1State.READING_HEAD;
import static dev.fleche.transport.internal.http1.Http1State.STREAMING_BODY;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.fleche.transport.internal.http1.Http1State;
import java.util.EnumMap;
import java.util.EnumSet;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * The connection's state machine against the diagram on {@link Http1Connection} (its table: {@link Http1State}), written out here a second time: every
 * step the diagram draws is taken, every other one is refused with {@link IllegalStateException}.
 */
@Timeout(10)
class ConnectionStateTest {
    /** The diagram's steps, by the event that takes them. */
    private static final Map<Http1State, Set<Http1State>> DIAGRAM = new EnumMap<>(Http1State.class);

    static {
        // TLS: handshake done; plain HTTP on the TLS port (raw 400, lingers); EOF with records pending; a failure
        DIAGRAM.put(HANDSHAKING, EnumSet.of(IDLE, CLOSING, CLOSING_TO_LINGER, CLOSED));
        // bytes of a head; a whole head with no body, a small body, a streamed body, one expecting 100-continue;
        // the server stops; a half-close's end or the client gone (close), a refusal (linger); EOF or timeout
        DIAGRAM.put(IDLE, EnumSet.of(READING_HEAD, DISPATCHED, READING_BODY, STREAMING_BODY, EXPECTING_CONTINUE,
                DRAINING, CLOSING, CLOSING_TO_LINGER, CLOSED));
        // as IDLE: a request already on its way is still served
        DIAGRAM.put(DRAINING, EnumSet.of(READING_HEAD, DISPATCHED, READING_BODY, STREAMING_BODY, EXPECTING_CONTINUE,
                CLOSING, CLOSING_TO_LINGER, CLOSED));
        // head complete (four ways); the client gone, a parse error or header timeout
        DIAGRAM.put(READING_HEAD, EnumSet.of(DISPATCHED, READING_BODY, STREAMING_BODY, EXPECTING_CONTINUE, CLOSING,
                CLOSING_TO_LINGER, CLOSED));
        // body complete: dispatched; the client gone; 408 / 413; EOF
        DIAGRAM.put(READING_BODY, EnumSet.of(DISPATCHED, CLOSING, CLOSING_TO_LINGER, CLOSED));
        // 100 Continue sent; the body came anyway; the response first (closes); 413 / 408
        DIAGRAM.put(EXPECTING_CONTINUE, EnumSet.of(STREAMING_BODY, DISPATCHED, CLOSING, CLOSING_TO_LINGER, CLOSED));
        // body complete; response complete first (keep-alive: discard the rest; close: linger); 413 / 408
        DIAGRAM.put(STREAMING_BODY, EnumSet.of(DISPATCHED, DISCARDING_BODY, CLOSING, CLOSING_TO_LINGER, CLOSED));
        // response complete, keep-alive (idle, or draining while the server stops) or close
        DIAGRAM.put(DISPATCHED, EnumSet.of(IDLE, DRAINING, CLOSING, CLOSING_TO_LINGER, CLOSED));
        // the rest of the body read; EOF with output pending; a timeout's 408; the discard limit
        DIAGRAM.put(DISCARDING_BODY, EnumSet.of(IDLE, DRAINING, CLOSING, CLOSING_TO_LINGER, CLOSED));
        // output written: close (linger only for a kept pipelined request)
        DIAGRAM.put(CLOSING, EnumSet.of(LINGERING, CLOSED));
        // output written: linger while the client may send (close when our side cannot be shut)
        DIAGRAM.put(CLOSING_TO_LINGER, EnumSet.of(LINGERING, CLOSED));
        // EOF, 2 s or 1 MiB
        DIAGRAM.put(LINGERING, EnumSet.of(CLOSED));
        DIAGRAM.put(CLOSED, EnumSet.noneOf(Http1State.class));
    }

    @Test
    void theDiagramNamesEveryState() {
        assertEquals(EnumSet.allOf(Http1State.class), DIAGRAM.keySet());
    }

    @ParameterizedTest
    @EnumSource(Http1State.class)
    void everyStepTheDiagramDrawsIsTaken(Http1State from) {
        for (Http1State to : DIAGRAM.get(from)) {
            assertSame(to, from.to(to), from + " -> " + to);
        }
    }

    @ParameterizedTest
    @EnumSource(Http1State.class)
    void everyOtherStepIsRefused(Http1State from) {
        for (Http1State to : EnumSet.complementOf(EnumSet.copyOf(DIAGRAM.get(from)))) {
            IllegalStateException e = assertThrows(IllegalStateException.class, () -> from.to(to), from + " -> " + to);
            assertTrue(e.getMessage().contains(from + " to " + to), e.getMessage());
        }
    }

    @Test
    void noStateStepsToItself() {
        for (Http1State state : Http1State.values()) {
            assertThrows(IllegalStateException.class, () -> state.to(state), state.name());
        }
    }

    @Test
    void everyStateButClosedCanClose() {
        for (Http1State state : Http1State.values()) {
            assertEquals(state != CLOSED, state.allows(CLOSED), state.name());
        }
    }

    @Test
    void eachStateNamesItsOwnDeadline() {
        assertEquals(Deadline.HANDSHAKE, HANDSHAKING.deadline);
        assertEquals(Deadline.IDLE, IDLE.deadline);
        assertEquals(Deadline.DRAIN_IDLE, DRAINING.deadline);
        assertEquals(Deadline.HEADER, READING_HEAD.deadline);
        for (Http1State body : EnumSet.of(READING_BODY, EXPECTING_CONTINUE, STREAMING_BODY, DISCARDING_BODY)) {
            assertEquals(Deadline.BODY, body.deadline, body.name());
        }
        assertEquals(Deadline.LINGER, LINGERING.deadline);
        for (Http1State none : EnumSet.of(DISPATCHED, CLOSING, CLOSING_TO_LINGER, CLOSED)) {
            assertEquals(null, none.deadline, none.name()); // only the output's deadlines
        }
    }

    @Test
    void readingStopsOnlyWhenClosing() {
        for (Http1State state : Http1State.values()) {
            assertEquals(state != CLOSING && state != CLOSING_TO_LINGER && state != CLOSED, state.reads(),
                    state.name());
        }
    }
}
