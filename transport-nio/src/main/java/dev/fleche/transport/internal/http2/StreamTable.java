package dev.fleche.transport.internal.http2;

import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The streams of an HTTP/2 connection by id, and what it remembers of the ids it saw (RFC 9113 5.1.1): the highest
 * stream the client opened, the highest the connection acted on (served, answered or reset; not one refused
 * unprocessed: its GOAWAY's last), and the ids closed lately, to tell a frame on a closed stream (a stream error)
 * from one on a stream never opened (a connection error). Holds them and decides nothing; never names the connection.
 * Reactor thread only, but {@link #get}, which blocked writers call.
 */
final class StreamTable {
    /** Stream ids recently closed, remembered to tell a frame on a closed stream from one on a never-opened one. */
    private static final int CLOSED_REMEMBERED = 64;

    /** Read by writers' threads (the door's {@code queuedBytes}); changed on the loop only. */
    private final Map<Integer, H2Stream> streams = new ConcurrentHashMap<>();
    private final int[] recentlyClosed = new int[CLOSED_REMEMBERED];
    private int recentlyClosedNext;
    private int lastClientStream;
    private int lastProcessed;

    H2Stream get(int stream) {
        return streams.get(stream);
    }

    /** {@code s} is open from now. */
    void open(H2Stream s) {
        streams.put(s.id, s);
    }

    /** {@code s} is over: it leaves the table and its id is remembered as closed. */
    void closed(H2Stream s) {
        streams.remove(s.id);
        remember(s.id);
    }

    /** A stream that never entered the table (refused, answered alone) is remembered as closed. */
    void remember(int stream) {
        recentlyClosed[recentlyClosedNext] = stream;
        recentlyClosedNext = (recentlyClosedNext + 1) % CLOSED_REMEMBERED;
    }

    boolean wasClosed(int stream) {
        for (int closed : recentlyClosed) {
            if (closed == stream) {
                return true;
            }
        }
        return false;
    }

    /** Whether {@code stream} is above every stream the client opened: "idle" (RFC 9113 5.1). */
    boolean idle(int stream) {
        return stream > lastClientStream;
    }

    /**
     * HEADERS open {@code stream}: it must be above the last stream the client opened (RFC 9113 5.1.1), and it is the
     * last from now.
     */
    void opening(int stream) throws Http2Exception {
        if (stream <= lastClientStream) {
            if (wasClosed(stream)) {
                throw Http2Exception.connection(Http2Error.STREAM_CLOSED, "HEADERS on closed stream " + stream);
            }
            throw Http2Exception.connection(Http2Error.PROTOCOL_ERROR,
                    "stream " + stream + " not above the last stream " + lastClientStream + " (RFC 9113 5.1.1)");
        }
        lastClientStream = stream;
    }

    /** The connection acts on {@code stream} from here: served, answered or reset (not refused unprocessed). */
    void processed(int stream) {
        lastProcessed = stream;
    }

    /** The highest stream acted on: the last stream our GOAWAY names. */
    int lastProcessed() {
        return lastProcessed;
    }

    int size() {
        return streams.size();
    }

    boolean isEmpty() {
        return streams.isEmpty();
    }

    /** The open streams, live (a stream that leaves while they are walked is allowed to). */
    Collection<H2Stream> all() {
        return streams.values();
    }

    /** The open streams now, copied: for walks whose steps may close streams. */
    List<H2Stream> snapshot() {
        return new ArrayList<>(streams.values());
    }

    void clear() {
        streams.clear();
    }
}
