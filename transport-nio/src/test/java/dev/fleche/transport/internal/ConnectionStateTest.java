package dev.fleche.transport.internal;

import static dev.fleche.transport.internal.Connection.State.CLOSED;
import static dev.fleche.transport.internal.Connection.State.CLOSING;
import static dev.fleche.transport.internal.Connection.State.DISCARDING_BODY;
import static dev.fleche.transport.internal.Connection.State.DISPATCHED;
import static dev.fleche.transport.internal.Connection.State.HANDSHAKING;
import static dev.fleche.transport.internal.Connection.State.IDLE;
import static dev.fleche.transport.internal.Connection.State.LINGERING;
import static dev.fleche.transport.internal.Connection.State.READING_BODY;
import static dev.fleche.transport.internal.Connection.State.READING_HEAD;
import static dev.fleche.transport.internal.Connection.State.STREAMING_BODY;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.fleche.transport.internal.Connection.State;
import java.util.EnumMap;
import java.util.EnumSet;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * The connection's state machine against the diagram on {@link Connection}, written out here a second time: every
 * step the diagram draws is taken, every other one is refused with {@link IllegalStateException}.
 */
@Timeout(10)
class ConnectionStateTest {
    /** The diagram's steps, by the event that takes them. */
    private static final Map<State, Set<State>> DIAGRAM = new EnumMap<>(State.class);

    static {
        // TLS: handshake done; plain HTTP on the TLS port (raw 400); a failed handshake or its timeout
        DIAGRAM.put(HANDSHAKING, EnumSet.of(IDLE, CLOSING, CLOSED));
        // bytes of a head; a whole head with no body, a small body, a streamed body; a refusal, EOF or timeout
        DIAGRAM.put(IDLE, EnumSet.of(READING_HEAD, DISPATCHED, READING_BODY, STREAMING_BODY, CLOSING, CLOSED));
        // head complete (three ways); a parse error or header timeout
        DIAGRAM.put(READING_HEAD, EnumSet.of(DISPATCHED, READING_BODY, STREAMING_BODY, CLOSING, CLOSED));
        // body complete: dispatched; 408 / EOF
        DIAGRAM.put(READING_BODY, EnumSet.of(DISPATCHED, CLOSING, CLOSED));
        // body complete; response complete first (keep-alive: discard the rest; close: closing); 413 / 408
        DIAGRAM.put(STREAMING_BODY, EnumSet.of(DISPATCHED, DISCARDING_BODY, CLOSING, CLOSED));
        // response complete, keep-alive or close
        DIAGRAM.put(DISPATCHED, EnumSet.of(IDLE, CLOSING, CLOSED));
        // the rest of the body read; EOF with output pending; discard limit or timeout
        DIAGRAM.put(DISCARDING_BODY, EnumSet.of(IDLE, CLOSING, CLOSED));
        // output written: linger while the client may send, else close
        DIAGRAM.put(CLOSING, EnumSet.of(LINGERING, CLOSED));
        // EOF, 2 s or 1 MiB
        DIAGRAM.put(LINGERING, EnumSet.of(CLOSED));
        DIAGRAM.put(CLOSED, EnumSet.noneOf(State.class));
    }

    @Test
    void theDiagramNamesEveryState() {
        assertEquals(EnumSet.allOf(State.class), DIAGRAM.keySet());
    }

    @ParameterizedTest
    @EnumSource(State.class)
    void everyStepTheDiagramDrawsIsTaken(State from) {
        for (State to : DIAGRAM.get(from)) {
            assertSame(to, from.to(to), from + " -> " + to);
        }
    }

    @ParameterizedTest
    @EnumSource(State.class)
    void everyOtherStepIsRefused(State from) {
        for (State to : EnumSet.complementOf(EnumSet.copyOf(DIAGRAM.get(from)))) {
            IllegalStateException e = assertThrows(IllegalStateException.class, () -> from.to(to), from + " -> " + to);
            assertTrue(e.getMessage().contains(from + " to " + to), e.getMessage());
        }
    }

    @Test
    void noStateStepsToItself() {
        for (State state : State.values()) {
            assertThrows(IllegalStateException.class, () -> state.to(state), state.name());
        }
    }

    @Test
    void everyStateButClosedCanClose() {
        for (State state : State.values()) {
            assertEquals(state != CLOSED, state.allows(CLOSED), state.name());
        }
    }

    @Test
    void readingStopsOnlyWhenClosing() {
        for (State state : State.values()) {
            assertEquals(state != CLOSING && state != CLOSED, state.reads(), state.name());
        }
    }
}
