package dev.fleche.transport.internal.http2;

import java.util.ArrayDeque;

/**
 * The streams of an HTTP/2 connection whose response bytes wait for the connection rather than for their own
 * window: for its send window (the client's {@code WINDOW_UPDATE} on stream 0) or for its queued-output budget (the
 * socket to take what is queued). In the order they began to wait, each at most once. When the connection can send
 * again it takes them in that order, and only them, so that a {@code WINDOW_UPDATE} on stream 0 costs the streams it
 * lets move, not every stream open (no copy of the stream map). A stream that stops waiting for another reason (it
 * ends, it is reset) is taken out at once. Holds no other state and decides nothing; its queue is made on first use.
 * Reactor thread only.
 */
final class WaitingStreams {
    private ArrayDeque<H2Stream> queue;

    /** {@code s} waits for the connection from now (unless it already does). */
    void add(H2Stream s) {
        if (s.waitsForConnection) {
            return;
        }
        if (queue == null) {
            queue = new ArrayDeque<>(4);
        }
        s.waitsForConnection = true;
        queue.add(s);
    }

    /** The stream that has waited longest, no longer waiting; null when none waits. */
    H2Stream next() {
        H2Stream s = queue == null ? null : queue.poll();
        if (s != null) {
            s.waitsForConnection = false;
        }
        return s;
    }

    /** {@code s} no longer waits (it ended or was reset). */
    void remove(H2Stream s) {
        if (s.waitsForConnection) {
            queue.remove(s);
            s.waitsForConnection = false;
        }
    }

    boolean isEmpty() {
        return queue == null || queue.isEmpty();
    }
}
