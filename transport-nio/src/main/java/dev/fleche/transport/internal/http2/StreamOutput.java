package dev.fleche.transport.internal.http2;

import dev.fleche.transport.ErrorRenderer;
import dev.fleche.transport.HttpFields;
import dev.fleche.transport.ServerOptions;
import dev.fleche.transport.internal.exchange.Responses;
import dev.fleche.transport.internal.loop.WriteQueue;
import dev.fleche.transport.internal.rules.Refusal;
import dev.fleche.transport.internal.rules.RateWindow;
import dev.fleche.transport.internal.telemetry.Telemetry;

import java.nio.ByteBuffer;

/**
 * The output scheduler of an HTTP/2 connection: the response bytes each stream holds back ({@link H2Stream#pending}),
 * framed as DATA of the client's frame size as far as the stream's window, the connection's and the queued-output
 * budget allow — DATA never takes the queue beyond the budget — and the stream's {@code END_STREAM}. A stream the
 * connection holds back (its window or its budget) waits in the {@link FlowControl}'s line; a stream its own window
 * holds back waits for its {@code WINDOW_UPDATE}. It frames and counts; what follows (a stream ended, one blocked) is
 * the owner's to decide, from what {@link #pump} returns. Never names the connection; reactor thread only.
 *
 * <pre>
 *   queue ─▶ pump: DATA while pending, both windows open and budget room ─┬─ all out, END_STREAM sent ─▶ ENDED
 *                                                                          ├─ held by a window or the budget ─▶ BLOCKED
 *                                                                          └─ nothing pending, no end yet ─▶ IDLE
 * </pre>
 */
final class StreamOutput {
    /** What a pump left a stream with. */
    enum Pumped {
        /** Its {@code END_STREAM} went out: its response is complete. */
        ENDED,
        /** Bytes (or its end) wait for a window or the budget. */
        BLOCKED,
        /** Nothing waits: the handler has not given more yet. */
        IDLE
    }

    /** What a response head left a stream with. */
    enum Head {
        /** Its body follows ({@link #queue}). */
        BODY_FOLLOWS,
        /** The head ended the stream (no body): its response is complete. */
        ENDED,
        /** The handler's fields were invalid: a {@code 500} went in its place, its body queued (to pump). */
        REPLACED
    }

    private final Http2Framer framer;
    private final FlowControl flow;
    private final Http2Budgets budgets;
    private final WriteQueue out;
    private final Telemetry telemetry;
    private final ServerOptions options;

    StreamOutput(Http2Framer framer, FlowControl flow, Http2Budgets budgets, WriteQueue out, Telemetry telemetry,
            ServerOptions options) {
        this.options = options;
        this.framer = framer;
        this.flow = flow;
        this.budgets = budgets;
        this.out = out;
        this.telemetry = telemetry;
    }

    /**
     * Frames the response head of {@code s} (HPACK, HEADERS and CONTINUATIONs): {@code content-length} as the body's,
     * or for {@code HEAD} as the handler's own field says; {@code END_STREAM} with it when there is no body. Invalid
     * fields (a name not a token, a value with CR, LF or NUL) are the handler's fault: a {@code 500} in their place.
     */
    Head head(H2Stream s, int status, HttpFields fields, long contentLength, boolean noBody) {
        String method = s.exchange.method();
        s.bodyAllowed = Responses.bodyAllowed(status) && !"HEAD".equals(method);
        try {
            Http2Framer.checkFields(fields);
        } catch (IllegalArgumentException e) {
            telemetry.handlerFailed(e);
            telemetry.responded(Refusal.INVALID_RESPONSE_HEAD.status());
            ErrorRenderer.Body body = Responses.renderError(options.errorRenderer(), 500,
                    Refusal.INVALID_RESPONSE_HEAD.reason(options));
            s.bodyAllowed = !"HEAD".equals(method);
            framer.headers(s.id, 500, new HttpFields(1).add("content-type", body.contentType()),
                    body.bytes().length, false);
            s.headSent = true;
            queue(s, body.bytes(), body.bytes().length, true);
            return Head.REPLACED;
        }
        if (s.log != null) {
            s.log.status = status;
        }
        boolean endStream = noBody || !s.bodyAllowed;
        framer.headers(s.id, status, fields, Responses.bodyAllowed(status)
                ? announcedLength("HEAD".equals(method), fields, contentLength) : -1, endStream);
        s.headSent = true;
        if (!endStream) {
            return Head.BODY_FOLLOWS;
        }
        s.pendingEnd = true;
        s.endSent = true;
        return Head.ENDED;
    }

    /**
     * The {@code content-length} a response head announces: the body's length, but for {@code HEAD} the length the
     * handler's own field gives (the body it would have sent, RFC 9110 9.3.2), as HTTP/1.1 keeps it; none when that
     * field is not a length.
     */
    private static long announcedLength(boolean head, HttpFields fields, long contentLength) {
        String declared = head ? fields.get("content-length") : null;
        if (declared == null) {
            return contentLength;
        }
        try {
            long length = Long.parseLong(declared.trim());
            return length >= 0 ? length : -1;
        } catch (NumberFormatException e) {
            return -1;
        }
    }

    /** Body bytes of {@code s} to send behind its window (dropped when the response has no body); {@code last}: its end. */
    void queue(H2Stream s, byte[] data, int length, boolean last) {
        if (length > 0 && s.bodyAllowed) {
            s.pending.add(ByteBuffer.wrap(data, 0, length));
            s.pendingBytes += length;
        }
        if (last) {
            s.pendingEnd = true;
        }
    }

    /** The remaining bytes of {@code data}, a buffer that never changes, to send behind the window; the body's end. */
    void queue(H2Stream s, ByteBuffer data, boolean last) {
        int length = data.remaining();
        if (length > 0 && s.bodyAllowed) {
            s.pending.add(data);
            s.pendingBytes += length;
        }
        if (last) {
            s.pendingEnd = true;
        }
    }

    /**
     * Sends what the windows of {@code s} and of the connection allow, as DATA frames of the peer's size, into the
     * room the queued-output budget leaves; when the connection (its window or its budget) holds it back, {@code s}
     * waits for it in line. Moved bytes wake the stream's writer. {@code now}: the reactor's clock.
     */
    Pumped pump(H2Stream s, long now) {
        telemetry.http2StreamPumped();
        boolean moved = false;
        while (!s.pending.isEmpty() && s.sendWindow > 0 && s.localOpen()) {
            long room = dataRoom();
            if (!flow.connectionOpen() || room <= 0) {
                flow.waitFor(s);
                break;
            }
            ByteBuffer part = s.pending.peek();
            int n = (int) Math.min(Math.min(Math.min(part.remaining(), framer.peerMaxFrame()), room),
                    flow.sendable(s));
            boolean end = s.pendingEnd && s.pending.size() == 1 && n == part.remaining();
            framer.data(s.id, part, n, end);
            part.position(part.position() + n);
            if (!part.hasRemaining()) {
                s.pending.poll();
            }
            flow.sent(s, n);
            s.pendingBytes -= n;
            RateWindow.add(s.responseRate, n);
            if (s.log != null) {
                s.log.bytesOut += n;
            }
            moved = true;
            if (end) {
                s.endSent = true;
            }
        }
        if (s.pending.isEmpty() && s.pendingEnd && !s.endSent && s.localOpen()) {
            framer.data(s.id, null, 0, 0, true);
            s.endSent = true;
        }
        if (moved) {
            flow.moved(now);
            s.exchange.outboundWritten();
        }
        if (s.endSent && s.localOpen()) {
            return Pumped.ENDED;
        }
        return s.blocked() ? Pumped.BLOCKED : Pumped.IDLE;
    }

    /**
     * The stream that may send now that the connection can (its window grew, its output drained): the next in line
     * while the connection's window and budget have room; null when none may.
     */
    H2Stream nextToWake() {
        return flow.connectionOpen() && dataRoom() > 0 ? flow.nextWaiting() : null;
    }

    /** The DATA payload the queued-output budget has room for now (a frame's header counted); 0 or less: none. */
    private long dataRoom() {
        return budgets.outputRoom(out.unsentBytes()) - Frames.HEADER_BYTES;
    }
}
