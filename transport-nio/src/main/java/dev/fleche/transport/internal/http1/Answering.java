package dev.fleche.transport.internal.http1;

import dev.fleche.transport.ErrorRenderer;
import dev.fleche.transport.http1.ProtocolRule;
import dev.fleche.transport.http1.RequestHead;
import dev.fleche.transport.HttpFields;
import dev.fleche.transport.internal.channel.ConnectionChannel;
import dev.fleche.transport.internal.channel.FileRegion;
import dev.fleche.transport.internal.channel.Origin;
import dev.fleche.transport.internal.channel.PlainChannel;
import dev.fleche.transport.internal.exchange.BodyInput;
import dev.fleche.transport.internal.exchange.ConnectionDoor;
import dev.fleche.transport.internal.exchange.Exchange;
import dev.fleche.transport.internal.exchange.ResponseHead;
import dev.fleche.transport.internal.exchange.Responses;
import dev.fleche.transport.internal.loop.Reactor;
import dev.fleche.transport.internal.rules.RateWindow;
import dev.fleche.transport.internal.rules.Refusal;
import dev.fleche.transport.internal.telemetry.Telemetry;

import java.nio.ByteBuffer;

/**
 * The exchanges' side of an HTTP/1.1 connection: an exchange begun per head, its body handed over and the handler
 * called; what an exchange asks of its connection through its {@link ConnectionDoor}, on the loop, and what its
 * response completing means; the transport's refusals. It is the door's {@code Behind} (the door is built with it, and
 * so are the parts that hand the door to exchanges: {@link ExchangeInFlight} and {@link BodyIntake}); the twin of
 * HTTP/2's {@code StreamResponses}. It owns the decisions an exchange leads to: when it is dispatched, whether a
 * response part may still be written (the exchange in flight, the connection not lingering or closed), whether a
 * response closes the connection (no keep-alive, the server stopping, already closing, a body the client may not send
 * or too big to read and drop), the framing through {@link ResponseSide}, {@code 100 Continue}, a buffering handler's
 * tighter body limit, an abort, the watch for the client's departure, a {@code 500} when the handler throws, and
 * whether a refusal can still be sent.
 *
 * <p>It holds no state of its own and never names the connection: the state is the spine's {@link Http1State}, read
 * through {@link Spine}, and every step of it is one the spine takes when asked —
 * <pre>
 *   a head, no body ─▶ dispatched (DISPATCHED)
 *   a head with a body ─▶ bodyBegins (READING_BODY | STREAMING_BODY | EXPECTING_CONTINUE)
 *   body end, READING_BODY | STREAMING_BODY | EXPECTING_CONTINUE ─▶ dispatched;  DISCARDING_BODY ─▶ finishExchange
 *   response complete, DISPATCHED:   keep-alive ─▶ finishExchange (IDLE | DRAINING)   close ─▶ closing(false) (CLOSING)
 *   response complete, EXPECTING_CONTINUE | STREAMING_BODY:
 *                                    keep-alive ─▶ discardRest (DISCARDING_BODY)      close ─▶ closing(true)
 *   100 Continue sent, EXPECTING_CONTINUE ─▶ bodyOwed (STREAMING_BODY)
 *   a refusal sent ─▶ closing(true) (CLOSING_TO_LINGER)
 *   a refusal that cannot be sent, an abort, the handler's failure once its answer began ─▶ close (CLOSED)
 *   a half-close already seen, now watched ─▶ clientGone
 * </pre>
 * Reactor thread only, except {@link #takesFileRegions}, {@link #queuedBytes} and {@link #closeReason}.
 */
final class Answering implements ConnectionDoor.Behind {
    /** What the exchanges' side asks of the connection that holds the state: its steps, its reading, its output. */
    interface Spine {
        /** The connection's state now. */
        Http1State state();

        /** Nothing more of the request is to be read: DISPATCHED. */
        void dispatched();

        /** The body begins: {@code reading} (READING_BODY, STREAMING_BODY, EXPECTING_CONTINUE), its timer and rate. */
        void bodyBegins(Http1State reading);

        /** The exchange is over (response sent, body read): back to IDLE (DRAINING while the server stops). */
        void finishExchange();

        /** Nothing more is read or served: CLOSING ({@code clientMaySend}: CLOSING_TO_LINGER), closed once written. */
        void closing(boolean clientMaySend);

        /** The response went out before the body was read: DISCARDING_BODY, reading the rest to drop it. */
        void discardRest();

        /** {@code 100 Continue} went out: in EXPECTING_CONTINUE the client now owes the body (STREAMING_BODY). */
        void bodyOwed();

        /** The handler took body bytes: reading goes on. */
        void resumeReading();

        /** What is staged and queued is written now. */
        void flushOutput();

        /** The client left: the exchange fails, what is written still leaves, then the connection closes. */
        void clientGone();

        /** Closes now; idempotent. */
        void close(String reason);

        /** Why the connection closed, or null while open; any thread. */
        String closeReason();
    }

    private final Spine spine;
    private final Reactor reactor;
    private final ConnectionChannel channel;
    private final Inbound inbound;
    /** Read only: whether the client half-closed (the intake ENDED). */
    private final Intake intake;
    private final ResponseSide response;
    private final Telemetry telemetry;
    /** The one way up from this connection's exchanges; built with this part as what is behind it. */
    private final ConnectionDoor door;
    /** The exchange in flight, which the door is handed to. */
    final ExchangeInFlight inFlight;
    /** The body in flight, whose input the door is handed to. */
    final BodyIntake bodyIntake;

    Answering(Spine spine, Reactor reactor, long id, ConnectionChannel channel, Origin origin, Inbound inbound,
            Intake intake, ResponseSide response, Telemetry telemetry) {
        this.spine = spine;
        this.reactor = reactor;
        this.channel = channel;
        this.telemetry = telemetry;
        this.door = new ConnectionDoor(reactor, id, channel, origin, telemetry, this); // exchanges call this part
        this.inFlight = new ExchangeInFlight(door, reactor.handler, telemetry);
        this.inbound = inbound;
        this.bodyIntake = new BodyIntake(reactor.options, inbound, door, telemetry);
        this.intake = intake;
        this.response = response;
    }

    // ---------------------------------------------------------------- what an exchange asks, any thread

    /** Whether a response may be a file region ({@link FileRegion}): on a plain socket (TLS encrypts in the heap). */
    @Override
    public boolean takesFileRegions() {
        return channel instanceof PlainChannel;
    }

    /** Queued response bytes of this connection, for writers waiting on any thread. */
    @Override
    public long queuedBytes(int stream) {
        return response.queuedBytes();
    }

    @Override
    public String closeReason() {
        return spine.closeReason();
    }

    // ---------------------------------------------------------------- what an exchange asks, on the loop

    /** Writes a complete response of {@code stream}, unless it is over. */
    @Override
    public void respondOnLoop(int stream, int status, String reason, HttpFields fields, byte[] body) {
        Http1State state = spine.state();
        Exchange ex = writable(state, stream);
        if (ex != null) {
            boolean close = closesAfter(ex, state);
            boolean sent = response.whole(ex, status, reason, fields, body, close); // an invalid head: a 500
            responseComplete(ex, state, !sent || close);
        }
    }

    @Override
    public void streamPartOnLoop(int stream, ResponseHead head, byte[] data, int length, boolean last) {
        Http1State state = spine.state();
        Exchange ex = writable(state, stream);
        if (ex != null) {
            streamPart(ex, state, head, data, length, last);
        }
    }

    /**
     * The whole response of {@code stream}, its body {@code region} of a file, which goes from the file to the socket
     * ({@link FileRegion}). The region is closed when the stream is over.
     */
    @Override
    public void respondFileOnLoop(int stream, int status, HttpFields fields, FileRegion region) {
        Http1State state = spine.state();
        Exchange ex = writable(state, stream);
        if (ex == null) {
            region.close();
            return;
        }
        boolean close = closesAfter(ex, state);
        boolean sent = response.file(ex, status, fields, region, close); // an invalid head: a 500
        responseComplete(ex, state, !sent || close);
    }

    @Override
    public void respondBufferOnLoop(int stream, int status, HttpFields fields, ByteBuffer body) {
        Http1State state = spine.state();
        Exchange ex = writable(state, stream);
        if (ex != null) {
            boolean close = closesAfter(ex, state);
            boolean sent = response.buffer(ex, status, fields, body, close); // an invalid head: a 500
            responseComplete(ex, state, !sent || close);
        }
    }

    /** Sends {@code 100 Continue} for {@code stream} unless it is over or a final response was started. */
    @Override
    public void sendContinueOnLoop(int stream) {
        Http1State state = spine.state();
        Exchange ex = writable(state, stream);
        if (ex == null || state.closing() || ex.isResponseStarted()) {
            return;
        }
        response.out().sendContinue();
        spine.bodyOwed(); // from now on the client owes the body
    }

    @Override
    public void readerCaughtUpOnLoop(int stream) {
        Exchange ex = inFlight.of(stream);
        BodyInput input = ex == null ? null : ex.bodyInput();
        if (input != null && input.resumeStillWanted()) {
            spine.resumeReading();
        }
    }

    /**
     * The handler of {@code stream} said it buffers the body ({@link Exchange#expectBufferedBody()}): its body gets
     * the tighter {@code limit}, and is refused now when what is known of it already goes beyond.
     */
    @Override
    public void limitBodyOnLoop(int stream, long limit) {
        Exchange ex = inFlight.of(stream);
        if (ex == null) {
            return; // over already
        }
        switch (spine.state()) {
            case EXPECTING_CONTINUE, STREAMING_BODY -> {
                if (bodyIntake.lowerLimit(limit)) {
                    refuseTooLarge(limit, false);
                }
            }
            case DISPATCHED -> {
                if (ex.bodyBytes() > limit) { // received whole before the handler asked
                    refuseTooLarge(limit, false);
                }
            }
            default -> { } // DISCARDING_BODY, CLOSING and after: the response is out already
        }
    }

    /** The body of {@code stream} is over {@code limit}, and its handler's thread has claimed the response for a 413. */
    @Override
    public void refuseClaimedOnLoop(int stream, long limit) {
        Http1State state = spine.state();
        if (inFlight.of(stream) == null || state.closing() || state == Http1State.LINGERING
                || state == Http1State.CLOSED) {
            return; // refused already (the reactor found the body over the limit first), or closed
        }
        refuseTooLarge(limit, true);
    }

    /** The handler abandoned its exchange: closes unless its response is already out. */
    @Override
    public void abortOnLoop(int stream) {
        Exchange ex = inFlight.of(stream);
        telemetry.aborted();
        if (spine.state() != Http1State.CLOSED && ex != null && !ex.isResponseWritten()) {
            spine.close("aborted"); // (an exchange no longer in flight was answered)
        }
    }

    /**
     * {@code stream} began to watch for the client's departure ({@code HttpExchange#onDisconnect}): a half-close
     * already seen while it is in flight now counts as the client leaving, as it would have had the watch come first.
     */
    @Override
    public void departureWatched(int stream) {
        if (intake.ended() && inFlight.of(stream) != null && spine.state() == Http1State.DISPATCHED) {
            spine.clientGone();
        }
    }

    // ---------------------------------------------------------------- the exchange begins, takes its body, is handled

    /** A whole head: the exchange begins, and is dispatched now (no body, a streamed one) or once its body is whole. */
    void start(RequestHead head) {
        Exchange started = inFlight.start(head, response.bytes());
        Outbound out = response.held();
        if (out != null) {
            out.newExchange(); // pipelined behind a response still being written
        }
        if (!head.hasBody()) {
            spine.dispatched();
            dispatch(started);
            return;
        }
        switch (bodyIntake.begin(started)) {
            case TOO_LARGE -> refuse(Refusal.BODY_TOO_LARGE);
            case GATHERED -> spine.bodyBegins(Http1State.READING_BODY); // dispatched once the body is complete
            case STREAMED -> {
                spine.bodyBegins(Http1State.STREAMING_BODY);
                dispatch(started);
            }
            case EXPECTING_CONTINUE -> {
                spine.bodyBegins(Http1State.EXPECTING_CONTINUE); // the body rate starts once 100 Continue is sent
                dispatch(started);
            }
        }
    }

    /** The body of the exchange in flight is complete: handed to it (a gathered one, then the handler), or dropped. */
    void bodyComplete(RequestBody decoder) {
        RateWindow.stop(decoder.rate());
        Exchange current = inFlight.current();
        Http1State state = spine.state();
        switch (state) {
            case READING_BODY -> {
                current.bodyReceived(decoder.takeAggregate(), null, decoder.received());
                decoder.taken();
                spine.dispatched();
                dispatch(current);
            }
            case EXPECTING_CONTINUE, STREAMING_BODY -> {
                current.bodyReceived(null, decoder.trailers(), decoder.received());
                decoder.taken();
                spine.dispatched();
            }
            case DISCARDING_BODY -> {
                decoder.taken();
                spine.finishExchange();
            }
            default -> throw new IllegalStateException("body complete in state " + state);
        }
    }

    /** Calls the handler on this thread; a {@code 500} if it throws, or a close once its answer began. */
    private void dispatch(Exchange ex) {
        if (!inFlight.dispatch(ex)) {
            handlerFailed(ex);
        }
    }

    // ---------------------------------------------------------------- the transport's refusals

    /** The one refusal path: answers the rule's status (when a response can still be sent) and closes after it. */
    void refuse(ProtocolRule rule) {
        telemetry.refused(rule);
        refuse(rule.status(), rule.reason(), rule.name());
    }

    /** A refusal of the transport's own (a limit, a timeout): its status, or a close when it has none. */
    void refuse(Refusal refusal) {
        telemetry.refused(refusal);
        if (refusal.status() == 0) {
            spine.close(refusal == Refusal.DISCARD_LIMIT ? "discard-limit" : "refused");
            return;
        }
        refuse(refusal.status(), refusal.reason(reactor.options), refusal.name());
    }

    /** The body is over {@code limit}: a {@code 413} ({@code claimed}: the response was claimed for it already). */
    void refuseTooLarge(long limit, boolean claimed) {
        telemetry.refused(Refusal.BODY_TOO_LARGE);
        refuse(Refusal.BODY_TOO_LARGE.status(), Refusal.tooLarge(limit), Refusal.BODY_TOO_LARGE.name(), claimed);
    }

    private void refuse(int status, String reason, String rule) {
        refuse(status, reason, rule, false);
    }

    /** {@code claimed}: the exchange's response was claimed for this refusal already. */
    private void refuse(int status, String reason, String rule, boolean claimed) {
        telemetry.rejected(status, reason, rule);
        Http1State state = spine.state();
        if (state.closing() || state == Http1State.LINGERING || state == Http1State.CLOSED
                || !response.refusal(inFlight.current(), status, reason, rule, claimed)) {
            spine.close("reject"); // closing already, or the handler's answer had begun: the refusal cannot be sent
            return;
        }
        spine.closing(true);
    }

    /** Whether a refusal written now answers a {@code HEAD} request, and so has no body (the fuzz harness asks too). */
    boolean refusalAnswersHead() {
        Exchange current = inFlight.current();
        return current != null && current.isHead();
    }

    // ---------------------------------------------------------------- what it leads to

    /** The handler threw: answers {@code 500} when nothing was started, else closes the connection. */
    private void handlerFailed(Exchange ex) {
        if (!ex.claimResponse()) {
            spine.close("handler-error");
            return;
        }
        Refusal refusal = Refusal.HANDLER_FAILED;
        String reason = refusal.reason(reactor.options);
        ErrorRenderer.Body body = Responses.renderError(reactor.options.errorRenderer(), refusal.status(), reason);
        HttpFields fields = new HttpFields(1).add("Content-Type", body.contentType());
        respondOnLoop(ex.stream(), refusal.status(), null, fields, body.bytes());
    }

    /** The exchange {@code stream} when a response part of it may still be written in {@code state}, else null. */
    private Exchange writable(Http1State state, int stream) {
        return state != Http1State.LINGERING && state != Http1State.CLOSED ? inFlight.of(stream) : null;
    }

    /** Writes the next part of a streamed response of {@code ex}; {@code head} is non-null on the first part. */
    private void streamPart(Exchange ex, Http1State state, ResponseHead head, byte[] data, int length, boolean last) {
        if (head != null) {
            // HTTP/1.0 has no chunked coding: the close ends the body
            boolean close = closesAfter(ex, state) || (head.chunked() && ex.head().minorVersion() == 0);
            if (!response.streamHead(ex, head, close)) {
                responseComplete(ex, state, true); // a 500 in its place; later parts find no body to frame: dropped
                return;
            }
        }
        Outbound out = response.out();
        out.streamData(data, length);
        if (last) {
            responseComplete(ex, state, out.streamEnd());
        } else if (out.stagedBytes() >= Outbound.STAGING_FLUSH_BYTES) {
            spine.flushOutput();
        }
    }

    /** Whether the response of {@code ex}, written in {@code state}, closes the connection after it. */
    private boolean closesAfter(Exchange ex, Http1State state) {
        if (!ex.head().keepAlive() || reactor.isDraining() || state.closing()) {
            return true;
        }
        // The rest of the body is read and dropped to keep the connection only when it is sure to come and small.
        return switch (state) {
            case EXPECTING_CONTINUE -> true; // the client may not send it at all
            case STREAMING_BODY -> !inbound.body().fits(reactor.options.maxDiscardBytes());
            default -> false;
        };
    }

    /**
     * The response of {@code ex} is framed whole: what follows it is the spine's step for {@code state}, read when the
     * exchange asked (framing only stages bytes: it never moves the state).
     */
    private void responseComplete(Exchange ex, Http1State state, boolean close) {
        ex.responseWritten();
        telemetry.responseFramed(response.bytes());
        switch (state) {
            case DISPATCHED -> {
                if (close) {
                    spine.closing(false);
                } else {
                    spine.finishExchange();
                }
            }
            case EXPECTING_CONTINUE, STREAMING_BODY -> {
                if (close) {
                    spine.closing(true);
                } else {
                    inbound.body().responseSent(reactor.options.maxDiscardBytes());
                    spine.discardRest(); // finishExchange() runs when the rest of the body is read
                }
            }
            case CLOSING, CLOSING_TO_LINGER -> { } // already closing
            default -> throw new IllegalStateException("response complete in state " + state);
        }
    }
}
