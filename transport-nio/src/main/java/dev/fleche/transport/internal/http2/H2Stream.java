package dev.fleche.transport.internal.http2;

import dev.fleche.transport.internal.exchange.BodyInput;
import dev.fleche.transport.internal.exchange.Exchange;
import dev.fleche.transport.internal.rules.RateWindow;
import java.nio.ByteBuffer;
import java.util.ArrayDeque;

/**
 * One HTTP/2 stream of an {@link Http2Connection}: its state (RFC 9113 5.1, from the server's side: a stream begins
 * when the client's HEADERS arrive, so "idle" is a stream not in the connection's map), its exchange, its two
 * flow-control windows and the response bytes it holds back for them. Reactor thread only, but
 * {@link #pendingBytes}, read by the stream's blocked writer.
 *
 * <pre>
 *   (idle) ─ HEADERS ─▶ OPEN ─ client END_STREAM ─▶ HALF_CLOSED_REMOTE ─ our END_STREAM ─▶ CLOSED
 *                         └── our END_STREAM ──▶ HALF_CLOSED_LOCAL ── client END_STREAM ──▶ CLOSED
 *   (idle) ─ HEADERS with END_STREAM ─▶ HALF_CLOSED_REMOTE;   any ─ RST_STREAM either way ─▶ CLOSED
 * </pre>
 */
final class H2Stream {
    enum State {
        OPEN, HALF_CLOSED_REMOTE, HALF_CLOSED_LOCAL, CLOSED;

        /** Returns {@code next} when the diagram has that step, throws otherwise. */
        State to(State next) {
            boolean allowed = switch (this) {
                case OPEN -> next != OPEN;
                case HALF_CLOSED_REMOTE, HALF_CLOSED_LOCAL -> next == CLOSED;
                case CLOSED -> false;
            };
            if (!allowed) {
                throw new IllegalStateException("stream cannot go from " + this + " to " + next);
            }
            return next;
        }
    }

    final int id;
    State state;
    Exchange exchange;
    /** Its access-log entry while the stream is logged, else null. */
    dev.fleche.transport.internal.telemetry.accesslog.LogEntry log;
    /** The body's stream to the handler, when streamed; null when aggregated or absent. */
    BodyInput body;
    /** A small body with a known length, received whole before the handler runs; null otherwise. */
    byte[] aggregate;
    /** The request's content-length, or -1; the body bytes received (padding excluded). */
    long expectedLength = -1;
    long received;
    /** Body bytes dropped after the response was complete (bounded by {@code maxDiscardBytes}). */
    long discarded;
    /** When body bytes last arrived (or the client began to owe them): its body timeout counts from here. */
    long bodySince;
    /** The client waits for {@code 100 Continue} before it sends the body: the body timeout runs, the rate not yet. */
    boolean awaitingContinue;
    /** The body's minimum data rate ({@code minRequestBodyRate}) while the client owes body bytes; null when off. */
    RateWindow bodyRate;
    /** The tighter limit of a handler that buffers the body. */
    long bodyLimit = Long.MAX_VALUE;

    /** What we may still send on this stream (the client's window for it). */
    long sendWindow;
    /** What the client may still send on this stream. */
    long receiveWindow;
    /** Body bytes received and not yet given back with WINDOW_UPDATE. */
    int owed;
    /** The handler's window is full: credit waits for {@code readerCaughtUp}. */
    boolean readerPaused;

    /** Response body bytes waiting for a window, in order; the last part was handed over ({@link #pendingEnd}). */
    final ArrayDeque<ByteBuffer> pending = new ArrayDeque<>(2);
    volatile long pendingBytes;
    /**
     * The response's minimum data rate ({@code minResponseRate}), running while the stream's own send window holds
     * its bytes back (the client does not open it fast enough); null when off.
     */
    RateWindow responseRate;
    boolean pendingEnd;
    /** Its bytes wait for the connection (its window or its output budget), in the connection's {@link WaitingStreams}. */
    boolean waitsForConnection;
    /** The response head went out; with END_STREAM; whether the response carries a body at all. */
    boolean headSent;
    boolean endSent;
    boolean bodyAllowed = true;

    H2Stream(int id, boolean endStream, long sendWindow, long receiveWindow) {
        this.id = id;
        this.state = endStream ? State.HALF_CLOSED_REMOTE : State.OPEN;
        this.sendWindow = sendWindow;
        this.receiveWindow = receiveWindow;
    }

    void moveTo(State next) {
        state = state.to(next);
    }

    /** Whether the client may still send DATA or trailers on it. */
    boolean remoteOpen() {
        return state == State.OPEN || state == State.HALF_CLOSED_LOCAL;
    }

    /** Whether response frames may still be sent on it. */
    boolean localOpen() {
        return state == State.OPEN || state == State.HALF_CLOSED_REMOTE;
    }

    /** Whether response bytes wait for a window. */
    boolean blocked() {
        return !pending.isEmpty() || (pendingEnd && !endSent);
    }
}
