package dev.fleche.jersey.internal;

import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The responses of one container that are suspended right now (long-polls, {@code AsyncResponse}, SSE streams),
 * so that a drain can end them. A writer registers when it suspends and leaves when it completes; once
 * {@link #endAll()} ran, every later suspend is ended at once (a request that arrives on a kept-alive connection
 * during the drain must not start a new wait).
 *
 * <pre>
 *  [OPEN] ──endAll──▶ [ENDING]: registered writers ended now; register() ends the newcomer and says so
 * </pre>
 *
 * Ending a writer means: a {@code ChunkedOutput} entity (an SSE sink) is closed, which ends its chunked body;
 * any other suspended response has its suspend timeout expire now, so the application's timeout handler answers
 * (Jersey's default is {@code 503}), or the container answers {@code 503} with {@code Retry-After}.
 */
public final class SuspendedWriters {
    enum Phase { OPEN, ENDING }

    /** A suspended response, as the registry sees it. */
    interface Suspended {
        /** The server drains: end the response now (a chunked entity closed, anything else timed out). */
        void endForDrain();
    }

    private final Set<Suspended> writers = ConcurrentHashMap.newKeySet();
    private volatile Phase phase = Phase.OPEN;

    /** Registers a suspended response; while ending, ends it at once instead. */
    void register(Suspended writer) {
        switch (phase) {
            case OPEN -> {
                writers.add(writer);
                if (phase == Phase.ENDING && writers.remove(writer)) {
                    writer.endForDrain(); // endAll ran between the check and the add
                }
            }
            case ENDING -> writer.endForDrain();
        }
    }

    /** The response completed. */
    void remove(Suspended writer) {
        writers.remove(writer);
    }

    /** Ends every suspended response now and every later one as it suspends; returns how many were ended now. */
    public int endAll() {
        phase = Phase.ENDING;
        int ended = 0;
        for (Suspended writer : writers) {
            if (writers.remove(writer)) {
                writer.endForDrain();
                ended++;
            }
        }
        return ended;
    }

    /** Suspended responses right now. */
    public int size() {
        return writers.size();
    }
}
