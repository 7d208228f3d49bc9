package dev.fleche.perf.loadgen;

import java.time.Instant;

/**
 * SSE: checks the event streams of one {@link Worker} as their bytes arrive, on its thread. A stream is subscribed
 * when its {@code 200 text/event-stream} head arrives. Its events must carry numbers that follow each other (the
 * first may be any); a gap, a repeat or a malformed event is an error. The first {@code warmupTicks} events of
 * every stream are the warm-up's: checked, not timed; each later one counts in the window and its lateness (the
 * time it was read minus the send time it carries, both wall clock, microseconds) is recorded. A stream the server
 * ends is an error: a broadcast stream stays open until the client leaves.
 */
final class StreamCheck {
    private final Engine engine;
    private final Stats stats;
    private final long warmupTicks;

    StreamCheck(Engine engine, Stats stats) {
        this.engine = engine;
        this.stats = stats;
        this.warmupTicks = engine.spec().warmupTicks();
    }

    /** Takes the stream's head (once), then every event decoded on {@code c} since the last call. */
    void take(Conn c) {
        if (!c.subscribed && c.parser.headReceived() && c.parser.status() == 200 && c.parser.isEventStream()) {
            c.subscribed = true;
            stats.requests++;
            engine.subscribed();
        }
        EventStreamDecoder d = c.parser.events();
        int n = d.decoded();
        if (n > 0) {
            long nowMicros = epochMicros();
            for (int i = 0; i < n; i++) {
                event(c, d.number(i), nowMicros - d.sentMicros(i));
            }
            d.clearDecoded();
            engine.delivered(n);
        }
        int malformed = d.takeMalformed();
        if (malformed > 0) {
            stats.bodyErrors += malformed;
            stats.error("stream " + c.index + ": malformed event '" + d.lastMalformed() + "'");
        }
    }

    /** The server ended the stream on {@code c} (or answered without one): its last events, then the error. */
    void ended(Conn c) {
        take(c);
        int expected = engine.spec().expectStatus();
        if (c.parser.status() != expected) {
            stats.statusErrors++;
            stats.error("status " + c.parser.status() + " (expected " + expected + ")");
        } else {
            stats.bodyErrors++;
            stats.error("stream " + c.index + " ended by the server after " + c.streamEvents + " events"
                    + (c.parser.isEventStream() ? "" : " (not text/event-stream)"));
        }
    }

    private void event(Conn c, long number, long latenessMicros) {
        if (c.streamEvents > 0 && number != c.lastEvent + 1) {
            stats.bodyErrors++;
            stats.error("stream " + c.index + ": event " + number + " after event " + c.lastEvent);
        }
        c.lastEvent = number;
        if (c.streamEvents++ >= warmupTicks) {
            stats.events++;
            stats.record(latenessMicros * 1000, latenessMicros * 1000);
        }
    }

    private static long epochMicros() {
        Instant t = Instant.now();
        return t.getEpochSecond() * 1_000_000L + t.getNano() / 1000;
    }
}
