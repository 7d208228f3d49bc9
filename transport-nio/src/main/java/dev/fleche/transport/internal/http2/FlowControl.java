package dev.fleche.transport.internal.http2;

import dev.fleche.transport.ServerOptions;

/**
 * HTTP/2 flow control of one connection (RFC 9113 5.2, 6.9), both ways: the connection's send window (what the client
 * lets us send) and the streams waiting for it, the connection's receive window (what we let the client send) and the
 * windows of each stream (kept in its {@link H2Stream}, changed here). Each method is one event — DATA received, a
 * window given back, a {@code WINDOW_UPDATE} or a new initial window received, DATA sent — and returns what the owner
 * sends or does; a window beyond its bounds throws the {@link Http2Exception} the owner answers. It also keeps when
 * window-blocked streams last moved (the stall timer counts from there). Never names the connection; reactor thread
 * only.
 *
 * <pre>
 *   receive: CONNECTION_WINDOW ─ DATA ─▶ used ≥ half ─▶ WINDOW_UPDATE(0, used) ─▶ CONNECTION_WINDOW
 *            stream window ─ DATA ─▶ owed ≥ half the initial window (or the handler caught up) ─▶ WINDOW_UPDATE(s)
 *   send:    window > 0 ─ DATA ─▶ 0: the stream waits (its own window: for WINDOW_UPDATE(s); the connection's:
 *            in WaitingStreams, for WINDOW_UPDATE(0) or the output budget) ─▶ woken in the order it began to wait
 * </pre>
 */
final class FlowControl {
    /**
     * The connection's receive window, raised from the RFC's 65,535 by a WINDOW_UPDATE after our SETTINGS, and
     * topped up once half of it was used: what waits for handlers is bounded per stream (its window and
     * {@code inboundWindowBytes}), so the connection's window only has to keep uploads from stalling on round trips.
     */
    static final int CONNECTION_WINDOW = 1024 * 1024;

    private final int initialWindowBytes;
    private long sendWindow = Frames.DEFAULT_WINDOW;
    private long receiveWindow = CONNECTION_WINDOW;
    private int receiveUsed;
    private final WaitingStreams waiting = new WaitingStreams();
    /** When the window-blocked streams last moved (a DATA frame, a window update). */
    private long progress;

    FlowControl(ServerOptions options, long now) {
        this.initialWindowBytes = options.http2InitialWindowBytes();
        this.progress = now;
    }

    /** The increment of the WINDOW_UPDATE on stream 0 that follows our SETTINGS: the receive window we keep. */
    static int initialIncrement() {
        return CONNECTION_WINDOW - Frames.DEFAULT_WINDOW;
    }

    /** The window a new stream gives the client: what we announce (the RFC's default until our SETTINGS are acked). */
    long streamReceiveWindow() {
        return Math.max(initialWindowBytes, Frames.DEFAULT_WINDOW);
    }

    // ---------------------------------------------------------------- receiving

    /**
     * DATA counting {@code flowLength} arrived: taken from the connection's window; returns the increment of the
     * WINDOW_UPDATE on stream 0 to send now (once half the window is used), else 0.
     */
    int received(int flowLength) throws Http2Exception {
        receiveWindow -= flowLength;
        if (receiveWindow < 0) {
            throw Http2Exception.connection(Http2Error.FLOW_CONTROL_ERROR, "DATA beyond the connection's window");
        }
        receiveUsed += flowLength;
        if (receiveUsed < CONNECTION_WINDOW / 2) {
            return 0;
        }
        int increment = receiveUsed;
        receiveWindow += increment;
        receiveUsed = 0;
        return increment;
    }

    /** DATA counting {@code flowLength} arrived on {@code s}: taken from its window, and owed back to the client. */
    void received(H2Stream s, int flowLength) throws Http2Exception {
        s.receiveWindow -= flowLength;
        if (s.receiveWindow < 0) {
            throw Http2Exception.stream(s.id, Http2Error.FLOW_CONTROL_ERROR, "DATA beyond the stream's window");
        }
        s.owed += flowLength;
    }

    /**
     * What {@code s} gives back now with a WINDOW_UPDATE: what it owes once half the initial window is owed (or at
     * once when {@code now}), while the client may still send; else 0.
     */
    int giveBack(H2Stream s, boolean now) {
        int owed = s.owed;
        if (owed > 0 && s.remoteOpen() && (now || owed >= initialWindowBytes / 2)) {
            s.receiveWindow += owed;
            s.owed = 0;
            return owed;
        }
        return 0;
    }

    // ---------------------------------------------------------------- sending

    /** A WINDOW_UPDATE on stream 0 at {@code now}: the connection may send {@code increment} more. */
    void connectionUpdate(int increment, long now) throws Http2Exception {
        progress = now;
        sendWindow += increment;
        if (sendWindow > Frames.MAX_WINDOW) {
            throw Http2Exception.connection(Http2Error.FLOW_CONTROL_ERROR, "connection window beyond 2^31-1");
        }
    }

    /** A WINDOW_UPDATE on {@code s} at {@code now}: it may send {@code increment} more. */
    void streamUpdate(H2Stream s, int increment, long now) throws Http2Exception {
        progress = now;
        s.sendWindow += increment;
        if (s.sendWindow > Frames.MAX_WINDOW) {
            throw Http2Exception.stream(s.id, Http2Error.FLOW_CONTROL_ERROR, "stream window beyond 2^31-1");
        }
    }

    /** A WINDOW_UPDATE on a stream not open (closed, or never opened) at {@code now}. */
    void otherUpdate(long now) {
        progress = now;
    }

    /** A new {@code SETTINGS_INITIAL_WINDOW_SIZE} changes the send window of {@code s} by {@code delta} (RFC 9113 6.9.2). */
    void initialWindowChanged(H2Stream s, long delta) throws Http2Exception {
        s.sendWindow += delta;
        if (s.sendWindow > Frames.MAX_WINDOW) {
            throw Http2Exception.connection(Http2Error.FLOW_CONTROL_ERROR,
                    "SETTINGS_INITIAL_WINDOW_SIZE makes a stream window exceed 2^31-1");
        }
    }

    /** What DATA on {@code s} may carry now, by both windows (0 or less: nothing). */
    long sendable(H2Stream s) {
        return Math.min(s.sendWindow, sendWindow);
    }

    /** Whether the connection's window lets DATA go. */
    boolean connectionOpen() {
        return sendWindow > 0;
    }

    /** {@code n} bytes of DATA on {@code s} were framed. */
    void sent(H2Stream s, int n) {
        s.sendWindow -= n;
        sendWindow -= n;
    }

    /** Whether a body of {@code length} bytes fits both windows of a new stream (whose window is {@code initial}). */
    boolean fits(long length, long initial) {
        return length <= Math.min(initial, sendWindow);
    }

    /** {@code length} bytes of DATA were framed on a stream that never entered the table (a refusal's body). */
    void sentAlone(int length) {
        sendWindow -= length;
    }

    /** Window-blocked streams moved at {@code now} (DATA framed for one). */
    void moved(long now) {
        progress = now;
    }

    /** When window-blocked streams last moved (a DATA frame, a window update): the stall timer counts from there. */
    long progress() {
        return progress;
    }

    // ---------------------------------------------------------------- the streams waiting for the connection

    /** {@code s} waits for the connection (its window, or its output budget), in line, once. */
    void waitFor(H2Stream s) {
        waiting.add(s);
    }

    /** The stream that has waited longest, no longer waiting; null when none waits. */
    H2Stream nextWaiting() {
        return waiting.next();
    }

    /** {@code s} no longer waits (it ended or was reset). */
    void forget(H2Stream s) {
        waiting.remove(s);
    }

    /** Whether streams wait for the connection while its window is open: the output budget holds them. */
    boolean waitingForBudget() {
        return sendWindow > 0 && !waiting.isEmpty();
    }
}
