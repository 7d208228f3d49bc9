package dev.fleche.transport.internal.http2;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.util.Set;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

/** The diagrams on {@link Http2Connection} ({@link Http2State}) and {@link H2Stream}: every step they draw is taken, every other throws. */
@Timeout(10)
class Http2StatesTest {

    @Test
    void connectionSteps() {
        Http2State[] all = Http2State.values();
        Set<String> drawn = Set.of("PREFACE>OPEN", "PREFACE>GOING_AWAY", "PREFACE>CLOSED", "OPEN>DRAINING",
                "OPEN>GOING_AWAY", "OPEN>CLOSED", "DRAINING>CLOSING", "DRAINING>GOING_AWAY", "DRAINING>CLOSED",
                "CLOSING>CLOSED", "GOING_AWAY>CLOSED");
        for (Http2State from : all) {
            for (Http2State to : all) {
                if (drawn.contains(from + ">" + to)) {
                    assertEquals(to, from.to(to));
                } else {
                    assertThrows(IllegalStateException.class, () -> from.to(to), from + ">" + to);
                }
            }
        }
    }

    @Test
    void streamSteps() {
        H2Stream.State[] all = H2Stream.State.values();
        Set<String> drawn = Set.of("OPEN>HALF_CLOSED_REMOTE", "OPEN>HALF_CLOSED_LOCAL", "OPEN>CLOSED",
                "HALF_CLOSED_REMOTE>CLOSED", "HALF_CLOSED_LOCAL>CLOSED");
        for (H2Stream.State from : all) {
            for (H2Stream.State to : all) {
                if (drawn.contains(from + ">" + to)) {
                    assertEquals(to, from.to(to));
                } else {
                    assertThrows(IllegalStateException.class, () -> from.to(to), from + ">" + to);
                }
            }
        }
    }
}
