package dev.fleche.perf.app;

import java.time.Instant;

/**
 * The data of every broadcast server-sent event, on every target: {@code <number> <µs>}, the event's number (one
 * more than the previous broadcast's) and the time the server started sending it, in microseconds since the epoch
 * (its wall clock). The generator, on the same machine, checks the numbers follow each other and takes the send
 * time from the time it reads the event: the event's lateness.
 */
public final class EventData {
    private EventData() {
    }

    /** The data of event {@code number}, stamped now. */
    public static String of(long number) {
        Instant now = Instant.now();
        return number + " " + (now.getEpochSecond() * 1_000_000L + now.getNano() / 1000);
    }
}
