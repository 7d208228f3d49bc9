package dev.fleche.transport.internal.http2;

import dev.fleche.transport.ErrorRenderer;
import dev.fleche.transport.HttpFields;
import dev.fleche.transport.HttpHandler;
import dev.fleche.transport.RequestBodyException;
import dev.fleche.transport.ServerOptions;
import dev.fleche.transport.http1.ProtocolRule;
import dev.fleche.transport.internal.exchange.Exchange;
import dev.fleche.transport.internal.exchange.ResponseHead;
import dev.fleche.transport.internal.exchange.Responses;
import dev.fleche.transport.internal.rules.Deadline;
import dev.fleche.transport.internal.rules.Deadlines;
import dev.fleche.transport.internal.rules.RateWindow;
import dev.fleche.transport.internal.rules.Refusal;
import dev.fleche.transport.internal.telemetry.Telemetry;

import java.io.IOException;
import java.nio.ByteBuffer;

/**
 * The response side of an HTTP/2 connection's streams: what the exchanges answer (heads, body parts, {@code 100
 * Continue}), handed to the {@link StreamOutput} and pumped as the windows allow; the transport's own answers on a
 * stream ({@code 413} for a body over its limit, {@code 408} for a body that timed out, an error a handler left, and
 * the refusal of a request before it became a stream); the streams' body and response-rate deadlines as they come
 * due; and a stream's local end ({@code END_STREAM} sent: its exchange complete, the rest of its request body dropped).
 * Its state is the streams' own ({@link H2Stream}); what stays the connection's (resets, the reset budget, the timer,
 * a stream closed both ways, flushing) it asks of its {@link Listener}. Never names the connection; reactor thread
 * only. The connection checks that it still answers (not closing, not closed) before it hands a response on.
 *
 * <pre>
 *   head ─ StreamOutput.head ─┬─ no body: END_STREAM ─▶ ended
 *                             ├─ invalid fields: 500 in its place ─▶ pump
 *                             └─ body follows ─▶ queue ─▶ pump ─┬─ END_STREAM out ─▶ ended
 *                                                               └─ held by a window ─▶ stall timer (and the rate)
 *   ended: OPEN ─▶ HALF_CLOSED_LOCAL (the rest of the body dropped, or RST_STREAM NO_ERROR ─▶ CLOSED)
 *          HALF_CLOSED_REMOTE ─▶ CLOSED
 * </pre>
 */
final class StreamResponses {
    /** What the connection decides for the responses: resets, the reset budget, its timer, its output. */
    interface Listener {
        /** The reactor's time now. */
        long now();

        /** The connection's timer must fire by {@code deadline} ({@link Long#MIN_VALUE}: no deadline). */
        void armTimer(long deadline);

        /** {@code stream} is reset with {@code error} (and dropped). */
        void resetStream(int stream, Http2Error error, String why);

        /** An RST_STREAM frame with {@code error} is written on {@code stream}, and nothing else is done. */
        void rstFrame(int stream, Http2Error error);

        /** A reset or refusal sent for the client's doing ({@code what}): counted in the reset budget. */
        void countSent(String what);

        /** {@code s} is closed both ways. */
        void streamClosed(H2Stream s);

        /** What is staged and queued is written now. */
        void flushOutput();
    }

    private final ServerOptions options;
    private final StreamTable streams;
    private final FlowControl flow;
    private final StreamOutput output;
    private final StreamTimers timers;
    private final StreamRequests requests;
    private final PeerSettings peerSettings;
    private final Http2Framer framer;
    private final Deadlines deadlines;
    private final Telemetry telemetry;
    private final Listener listener;

    StreamResponses(ServerOptions options, StreamTable streams, FlowControl flow, StreamOutput output,
            StreamTimers timers, StreamRequests requests, PeerSettings peerSettings, Http2Framer framer,
            Deadlines deadlines, Telemetry telemetry, Listener listener) {
        this.options = options;
        this.streams = streams;
        this.flow = flow;
        this.output = output;
        this.timers = timers;
        this.requests = requests;
        this.peerSettings = peerSettings;
        this.framer = framer;
        this.deadlines = deadlines;
        this.telemetry = telemetry;
        this.listener = listener;
    }

    // ---------------------------------------------------------------- from the exchanges (through the door)

    /** A whole response on {@code stream}; true when its body was queued (the owner flushes a large staging). */
    boolean respond(int stream, int status, HttpFields fields, byte[] body) {
        H2Stream s = writable(stream);
        if (s == null || !writeHead(s, status, fields, body.length, body.length == 0)) {
            return false;
        }
        telemetry.responded(status);
        queueBody(s, body, body.length, true);
        return true;
    }

    /** A whole response on {@code stream}, its body the remaining bytes of {@code body} (framed from where they are). */
    boolean respond(int stream, int status, HttpFields fields, ByteBuffer body) {
        H2Stream s = writable(stream);
        int length = body.remaining();
        if (s == null || !writeHead(s, status, fields, length, length == 0)) {
            return false;
        }
        telemetry.responded(status);
        if (!s.endSent) {
            output.queue(s, body, true);
            pump(s);
        }
        return true;
    }

    /** A part of a streamed response (its head first, if {@code head}); true when the part was queued. */
    boolean streamPart(int stream, ResponseHead head, byte[] data, int length, boolean last) {
        H2Stream s = writable(stream);
        if (s == null) {
            return false;
        }
        if (head != null) {
            if (!writeHead(s, head.status(), head.fields(), head.contentLength(), last && length == 0)) {
                return false;
            }
            telemetry.responded(head.status());
        }
        queueBody(s, data, length, last);
        return true;
    }

    /** {@code 100 Continue} on {@code stream}, unless its response began; true when it was framed. */
    boolean sendContinue(int stream) {
        H2Stream s = writable(stream);
        if (s != null && !s.headSent && !s.exchange.isResponseStarted()) {
            long now = listener.now();
            s.awaitingContinue = false;
            listener.armTimer(timers.bodyOwed(s, now)); // from now on the client owes the body
            listener.armTimer(timers.startBodyRate(s, now));
            framer.headers(s.id, 100, new HttpFields(0), -1, false);
            return true;
        }
        return false;
    }

    /** The handler read what it held of the body of {@code stream}: the client may send again. */
    void readerCaughtUp(int stream) {
        H2Stream s = streams.get(stream);
        if (s != null && s.body != null && s.body.resumeStillWanted()) {
            long now = listener.now();
            s.readerPaused = false;
            listener.armTimer(timers.bodyOwed(s, now));
            listener.armTimer(timers.startBodyRate(s, now)); // a new window: the handler's time does not count
            requests.giveBack(s, true);
        }
    }

    /** The handler limits the body of {@code stream} to {@code limit}: refused now if it is beyond already. */
    void limitBody(int stream, long limit) {
        H2Stream s = streams.get(stream);
        if (s == null) {
            return;
        }
        s.bodyLimit = Math.min(s.bodyLimit, limit);
        if (s.received > limit || s.expectedLength > limit) {
            refuseTooLarge(s, limit, false);
        }
    }

    /** The exchange claimed the response to refuse the body of {@code stream} as over {@code limit}. */
    void refuseClaimed(int stream, long limit) {
        H2Stream s = streams.get(stream);
        if (s != null) {
            refuseTooLarge(s, limit, true);
        }
    }

    private H2Stream writable(int stream) {
        H2Stream s = streams.get(stream);
        return s != null && s.localOpen() && !s.endSent ? s : null;
    }

    // ---------------------------------------------------------------- the transport's own answers

    /** The body of {@code s} is over {@code limit}: {@code 413} when the response is still ours, else a reset. */
    void refuseTooLarge(H2Stream s, long limit, boolean claimed) {
        telemetry.refused(Refusal.BODY_TOO_LARGE);
        String reason = Refusal.tooLarge(limit);
        telemetry.rejected(413, reason, Refusal.BODY_TOO_LARGE.name());
        Exchange ex = s.exchange;
        boolean ours = claimed || ex.claimResponse() || ex.refusalClaimed();
        ex.bodyRefused(new RequestBodyException(413, Refusal.BODY_TOO_LARGE.name(), reason));
        if (s.log != null) {
            s.log.rule = Refusal.BODY_TOO_LARGE.name();
        }
        s.aggregate = null;
        if (!ours || s.headSent) {
            listener.resetStream(s.id, Http2Error.CANCEL, reason);
            return;
        }
        answerError(s, 413, reason);
        listener.countSent("413");
    }

    /** The transport's own answer on {@code s}, whose response it claimed; the stream ends with it. */
    void answerError(H2Stream s, int status, String reason) {
        ErrorRenderer.Body body = Responses.renderError(options.errorRenderer(), status, reason);
        HttpFields fields = new HttpFields(1).add("content-type", body.contentType());
        if (writeHead(s, status, fields, body.bytes().length, false)) {
            telemetry.responded(status);
            queueBody(s, body.bytes(), body.bytes().length, true);
        }
    }

    /**
     * A request refused by {@code rule} before it became an exchange (its header list too large, its target too
     * long): counted, told as a {@code reject} event, answered with a whole response and access-logged, as HTTP/1.1
     * refuses a head; and counted in the reset budget, as a refusal the client provoked. Its body goes out only
     * within the windows (the stream's initial one and the connection's, which it takes from), as any response's;
     * else the refusal is its header block alone, with {@code END_STREAM} (RFC 9113 6.9.1).
     */
    void refuseAlone(int stream, ProtocolRule rule) {
        telemetry.refused(rule);
        telemetry.rejected(rule.status(), rule.reason(), rule.name());
        ErrorRenderer.Body body = Responses.renderError(options.errorRenderer(), rule.status(), rule.reason());
        int length = body.bytes().length;
        boolean withBody = flow.fits(length, peerSettings.initialWindow());
        if (withBody) {
            framer.headers(stream, rule.status(), new HttpFields(1).add("content-type", body.contentType()), length,
                    false);
            framer.data(stream, body.bytes(), 0, length, true);
            flow.sentAlone(length);
        } else {
            framer.headers(stream, rule.status(), new HttpFields(0), -1, true);
        }
        telemetry.responded(rule.status());
        if (!requests.lastBlockEndedStream()) {
            listener.rstFrame(stream, Http2Error.NO_ERROR);
        }
        streams.remember(stream);
        telemetry.refusedAlone(rule.name(), rule.status(), withBody ? length : 0, listener.now());
        listener.countSent(rule.status() + " " + rule.name());
    }

    // ---------------------------------------------------------------- the streams' deadlines

    /**
     * The body timeout and minimum body rate of each stream whose client owes body bytes (its side open, the handler
     * not holding things up; {@link StreamTimers}). A stream whose client waits for {@code 100 Continue} has the body
     * timeout and no rate, as HTTP/1.1's {@code EXPECTING_CONTINUE} has: a handler that never reads must not hold
     * the stream for ever. Returns when the next one is due.
     */
    long expireBodies(long now) {
        long next = timers.horizon(now);
        for (H2Stream s : streams.snapshot()) {
            if (StreamTimers.owesBody(s)) {
                Deadline fired = timers.bodyDue(s, now);
                if (fired != null) {
                    bodyRefused(s, fired, fired.refusal());
                }
                long due = timers.bodyNext(s);
                next = due - next < 0 ? due : next;
            }
        }
        listener.flushOutput();
        return next;
    }

    /**
     * The body of {@code s} timed out ({@code deadline}): {@code 408} with {@code refusal}'s reason when the response
     * is still ours (counted and logged under its rule), else {@code RST_STREAM CANCEL} (its log line, cut, names
     * the rule), so that a stream that stops sending does not hold its slot for ever.
     */
    private void bodyRefused(H2Stream s, Deadline deadline, Refusal refusal) {
        telemetry.timedOut(deadline);
        RateWindow.stop(s.bodyRate);
        if (s.log != null) {
            s.log.rule = refusal.name();
        }
        Exchange ex = s.exchange;
        if (!s.localOpen() || !ex.claimResponse()) {
            listener.resetStream(s.id, Http2Error.CANCEL, refusal.reason(options));
            return;
        }
        telemetry.refused(refusal);
        telemetry.rejected(refusal.status(), refusal.reason(options), refusal.name());
        ex.bodyRefused(new RequestBodyException(refusal.status(), refusal.name(), refusal.reason(options)));
        s.bodySince = listener.now(); // the rest of its body, if any, gets one more timeout
        answerError(s, refusal.status(), refusal.reason(options));
        listener.countSent(refusal.status() + " " + refusal.name());
    }

    /**
     * The response rate of each stream whose response waits on its own window: fewer bytes than the rate over a
     * window resets the stream ({@code RST_STREAM CANCEL}, its writer fails), as HTTP/1.1 closes a connection whose
     * client takes a blocked response too slowly; the connection goes on. Returns when the next one is due.
     */
    long expireResponseRates(long now) {
        long next = timers.horizon(now);
        for (H2Stream s : streams.snapshot()) {
            if (timers.responseTooSlow(s, now)) {
                telemetry.timedOut(Deadline.RESPONSE_RATE);
                listener.resetStream(s.id, Http2Error.CANCEL, "response taken slower than the minimum data rate");
                continue;
            }
            long due = StreamTimers.responseNext(s);
            if (due != Long.MIN_VALUE) {
                next = due - next < 0 ? due : next;
            }
        }
        listener.flushOutput();
        return next;
    }

    /** Streams whose response waited on a window for the whole write-stall timeout: reset, their writers fail. */
    void stallBlockedStreams(long now) {
        for (H2Stream s : streams.snapshot()) {
            if (s.blocked()) {
                listener.resetStream(s.id, Http2Error.CANCEL, "flow-control window closed for the write-stall timeout");
            }
        }
        flow.moved(now);
    }

    // ---------------------------------------------------------------- heads, bodies, the pump

    /**
     * Writes the response head of {@code s} ({@link StreamOutput#head}); false when the handler's fields are invalid
     * (then a {@code 500} answers in its place, and the stream ends with it). A head that ends the stream completes it.
     */
    private boolean writeHead(H2Stream s, int status, HttpFields fields, long contentLength, boolean noBody) {
        switch (output.head(s, status, fields, contentLength, noBody)) {
            case ENDED -> localEnded(s);
            case REPLACED -> {
                pump(s);
                return false;
            }
            case BODY_FOLLOWS -> { }
        }
        return true;
    }

    /** Queues body bytes of {@code s} behind its window (dropped when the response has none); sends what may go. */
    private void queueBody(H2Stream s, byte[] data, int length, boolean last) {
        if (s.endSent) {
            return;
        }
        output.queue(s, data, length, last);
        pump(s);
    }

    /**
     * Sends what the windows of {@code s} and of the connection allow ({@link StreamOutput}); a stream whose end went
     * out is complete; one held back arms the stall timer, and the response rate when its own window holds it.
     */
    void pump(H2Stream s) {
        long now = listener.now();
        switch (output.pump(s, now)) {
            case ENDED -> localEnded(s);
            case BLOCKED -> {
                listener.armTimer(deadlines.stallAt(flow.progress()));
                if (s.sendWindow <= 0) {
                    listener.armTimer(timers.startResponseRate(s, now)); // the client must open its window at the rate
                }
            }
            case IDLE -> { }
        }
        if (s.pending.isEmpty()) {
            RateWindow.stop(s.responseRate); // nothing waits for the client
        }
    }

    /**
     * The connection can send again (its window grew, its output drained): the streams waiting for it send, in the
     * order they began to wait, until it cannot; a stream it holds back again waits at the end of the line.
     */
    void wakeWaiting() {
        H2Stream s;
        while ((s = output.nextToWake()) != null) {
            pump(s); // sends a byte at least, or no longer waits for the connection: the loop ends
        }
    }

    /**
     * Calls {@code handler} with the exchange of {@code s} on this thread; when it throws, answers {@code 500} if
     * nothing was started, else resets the stream ({@code INTERNAL_ERROR}).
     */
    void dispatch(H2Stream s, HttpHandler handler) {
        Exchange ex = s.exchange;
        try {
            handler.handle(ex);
        } catch (Throwable t) {
            telemetry.handlerFailed(t);
            if (ex.claimResponse()) {
                answerError(s, Refusal.HANDLER_FAILED.status(), Refusal.HANDLER_FAILED.reason(options));
            } else {
                listener.resetStream(s.id, Http2Error.INTERNAL_ERROR, "handler failed");
            }
        }
    }

    /**
     * Forgets {@code s} (reset, or the connection closing): its held-back bytes are dropped, its windows forgotten,
     * its log entry cut, and its exchange, unless answered, hears {@code why} the client left.
     */
    void drop(H2Stream s, String why) {
        if (s.state != H2Stream.State.CLOSED) {
            s.moveTo(H2Stream.State.CLOSED);
        }
        flow.forget(s);
        s.pending.clear();
        s.pendingBytes = 0;
        streams.closed(s);
        logEnds(s, true);
        Exchange ex = s.exchange;
        if (ex != null && !ex.isResponseWritten()) {
            telemetry.exchangeEnded();
            ex.clientGone(why);
        }
    }

    /** The connection closed: every stream's log entry is cut, its exchange hears {@code why}; none is left. */
    void connectionClosed(String why) {
        for (H2Stream s : streams.snapshot()) {
            logEnds(s, true);
            Exchange ex = s.exchange;
            if (ex != null && !ex.isResponseWritten()) {
                telemetry.exchangeEnded();
            }
            if (ex != null) {
                ex.clientGone(why);
            }
        }
        streams.clear();
    }

    /** The stream's access-log entry ends: whole, or {@code cut}. */
    void logEnds(H2Stream s, boolean cut) {
        if (s.log != null) {
            telemetry.streamEnded(s.log, cut);
            s.log = null;
        }
    }

    /** We sent END_STREAM on {@code s}: its response is complete. */
    private void localEnded(H2Stream s) {
        logEnds(s, false);
        Exchange ex = s.exchange;
        if (!ex.isResponseWritten()) {
            ex.responseWritten();
            telemetry.exchangeEnded();
        }
        if (s.state == H2Stream.State.OPEN) {
            // The client is still sending a body the handler did not wait for: the rest is read and dropped up to
            // maxDiscardBytes (as HTTP/1.1 does), beyond which RST_STREAM NO_ERROR tells it to stop (RFC 9113 8.1).
            s.moveTo(H2Stream.State.HALF_CLOSED_LOCAL);
            s.aggregate = null;
            if (s.body != null) {
                s.body.fail(new IOException("the response is complete; the rest of the request body is dropped"));
                s.body = null;
            }
            long now = listener.now();
            s.readerPaused = false; // dropped from now on: the client owes the rest, within the body timeout
            listener.armTimer(timers.bodyOwed(s, now));
            listener.armTimer(timers.startBodyRate(s, now));
            requests.giveBack(s, true);
            if (s.awaitingContinue
                    || (s.expectedLength >= 0 && s.expectedLength - s.received > options.maxDiscardBytes())) {
                // a client waiting for 100 Continue sends no body now; a body beyond the discard limit is not read
                listener.rstFrame(s.id, Http2Error.NO_ERROR);
                s.moveTo(H2Stream.State.CLOSED);
            }
        } else if (s.state == H2Stream.State.HALF_CLOSED_REMOTE) {
            s.moveTo(H2Stream.State.CLOSED);
        }
        if (s.state == H2Stream.State.CLOSED) {
            listener.streamClosed(s);
        }
    }
}
