package dev.fleche.transport.internal.http1;

import dev.fleche.transport.internal.channel.ConnectionChannel;
import dev.fleche.transport.internal.exchange.ConnectionDoor;
import dev.fleche.transport.internal.rules.Deadline;
import dev.fleche.transport.internal.rules.Deadlines;
import dev.fleche.transport.internal.exchange.Exchange;
import dev.fleche.transport.internal.channel.FileRegion;
import dev.fleche.transport.internal.channel.Origin;
import dev.fleche.transport.internal.channel.PlaintextRequestException;
import dev.fleche.transport.internal.loop.KeyInterest;
import dev.fleche.transport.internal.loop.Reactor;
import dev.fleche.transport.internal.rules.Refusal;
import dev.fleche.transport.internal.telemetry.Telemetry;
import dev.fleche.transport.internal.loop.TimerNode;
import dev.fleche.transport.http1.RequestException;
import dev.fleche.transport.http1.RequestHead;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.SelectionKey;
import java.nio.channels.SocketChannel;
import javax.net.ssl.SSLException;

/**
 * One HTTP/1.1 client connection, owned by one {@link Reactor}: the spine. It holds the lifecycle as one
 * {@link Http1State} (and drives the small {@link Intake} axis, a part that holds it) and takes every step of it:
 * what to do with bytes read, which timer applies, after a response, on an error. Everything else is a part it owns,
 * with its own state, that returns results or asks it for a step: the {@link ConnectionChannel} (bytes in and out,
 * plain or TLS; it tells the connection when its handshake is done), the {@link KeyInterest} (the selection key and
 * its interest set), {@link Answering} (the exchanges' side: an exchange begun per head, its body handed over, the
 * handler called, what the exchange asks through its {@link ConnectionDoor} — it is the door's {@code Behind} — and
 * what its response completing means, the transport's refusals; it asks this spine for each step through
 * {@link Answering.Spine}), {@link ExchangeInFlight} (the exchange in flight, started, handed to the handler, ended),
 * {@link Inbound} (kept bytes, head parser, body decoder), {@link BodyIntake} (how the body in flight begins, the bytes
 * it takes, its rate and its limit), {@link ResponseSide} (the response side while there is one: its {@link Outbound},
 * the framing of responses and refusals into its write queue, taken and let go; a {@code 500} in place of an invalid
 * head), {@link Http1Shared} (the reactor's encoder and parser pool), {@link Lingering} (the lingering close),
 * {@link Http2Handover} (how a client that speaks HTTP/2 is recognised, with {@link Http2Entry}, and the hand-over of
 * its socket through {@link ToHttp2}), {@link Deadlines} (which timer is due, reading the connection through
 * {@link Http1Progress}) and {@link Telemetry} (counters, events, access log); the steps its state may take are
 * {@link Http1State}'s table. Exchanges reach the connection only through their door, which hops onto the loop; the
 * door is its own object, the same for HTTP/2. It is its own timer node: one deadline, whichever applies. Every
 * method runs on the reactor thread.
 *
 * <pre>
 *   HANDSHAKING (TLS only; handshake timer) ─ handshake done (told by the channel) ─▶ IDLE
 *     └─ plain HTTP on the TLS port: raw 400 ─▶ CLOSING_TO_LINGER;  handshake failure or timeout ─▶ CLOSED
 *
 *              ┌──────────────── response complete, keep-alive (DRAINING while the server stops) ────────────┐
 *              ▼                                                                                             │
 *   IDLE | DRAINING ─ bytes ─▶ READING_HEAD ─ head ─┬─ no body ────────────────────────────▶ DISPATCHED ─────┤
 *     (a whole head goes on at once)                ├─ small body ─▶ READING_BODY ─ body end ───▲            │
 *                                                   ├─ streamed ──▶ STREAMING_BODY ─ body end ──┤            │
 *                                                   └─ Expect: 100-continue ─▶ EXPECTING_CONTINUE ─ body end ┘│
 *                                                        └─ 100 Continue sent ─▶ STREAMING_BODY              │
 *                                              STREAMING_BODY ─ response complete ─▶ DISCARDING_BODY ─ body end ┘
 *
 *   from any state above: the last response ─▶ CLOSING ─ written ─▶ CLOSED (LINGERING if a pipelined request was kept)
 *                         a refusal, an unread body ─▶ CLOSING_TO_LINGER ─ written ─▶ LINGERING ─ EOF, 2 s, 1 MiB ─▶ CLOSED
 *
 *   Intake (reading, in the states that read):  OPEN ⇄ PAUSED (a slow handler's full window, a kept pipelined request,
 *                                               output above outboundHighWaterBytes before the next request)
 *                                               OPEN ─ EOF in DISPATCHED: a half-close ─▶ ENDED (answer, then CLOSING)
 * </pre>
 *
 * Any state may go to CLOSED (an I/O error, an abort, a stop, a timeout without a response). Bytes of the next
 * request that arrive while one is in flight (pipelining) are kept by {@link Inbound}, bounded, and served once the
 * state is IDLE again: responses leave in request order. Bytes are served in one place, {@link #serve}, which loops
 * while the state lets it read; a response completed during that loop lets the loop go on, and one completed later
 * (from a task) serves the kept bytes itself — so serving never re-enters itself.
 */
public final class Http1Connection extends TimerNode
        implements Reactor.Attachment, ConnectionChannel.Listener, Answering.Spine {
    public final Reactor reactor;

    final ConnectionChannel channel;
    final long id;
    /** The client's and our addresses: the socket's, or a PROXY header's. */
    private final Origin origin;
    /** The selection key and the interest set on it. */
    private final KeyInterest interest;
    /** This connection's place in its reactor's list. */
    private int slot = -1;

    private Http1State state;
    private final Inbound inbound = new Inbound();
    /**
     * The response side, only while there is one ({@link ResponseSide}): an idle keep-alive connection holds no
     * {@link Outbound}. The minimum response rate's window lives there (bytes waiting for the client), the request
     * body's in the body decoder.
     */
    private final ResponseSide response;
    /** The exchange in flight (its response the next to be written, its body the next bytes read); how many began. */
    private final ExchangeInFlight inFlight;
    /** How the body in flight begins, what it takes, its rate and its limit. */
    private final BodyIntake bodyIntake;
    /** The way to HTTP/2 before the first request, and the HTTP/2 connection the socket went to. */
    private final Http2Handover http2;
    /** What is read from the socket: paused by flow control, ended by a half-close. */
    private final Intake intake = new Intake();
    /** Whether {@link #serve} is on the stack: a response completed inside it leaves the rest of its bytes to it. */
    private boolean serving;
    /** In LINGERING: what the client sends is dropped, within a limit; null before. */
    private Lingering lingering;
    /**
     * The timers: the current phase's counts from the first byte of the head in READING_HEAD, else the last activity
     * (bytes read, an exchange started or ended, reading resumed).
     */
    private final Deadlines deadlines;
    /** What the deadlines read of this connection: reading paused, output waiting, the two rates. */
    private final Http1Progress progress;
    public volatile String closeReason;
    /** Counters, events and the access log, told what happened; never null. */
    private final Telemetry telemetry;
    /** What the exchanges ask through their door (its {@code Behind}), and what their responses completing mean. */
    private final Answering answering;
    /** What this reactor's HTTP/1.1 connections share: the encoder, the parser pool, the way to HTTP/2. */
    private final Http1Shared shared;

    public Http1Connection(Reactor reactor, SocketChannel socket, long id, Origin origin, byte[] early,
            Http1Shared shared) throws IOException {
        this.reactor = reactor;
        this.shared = shared;
        this.id = id;
        this.origin = origin;
        this.channel = reactor.openChannel(socket, this, early);
        this.interest = new KeyInterest(channel);
        this.state = channel.isHandshaking() ? Http1State.HANDSHAKING : Http1State.IDLE;
        this.deadlines = new Deadlines(reactor.options, reactor.now);
        this.telemetry = Telemetry.of(reactor.counters, reactor.events, id, reactor.accessLog, channel, origin,
                reactor.options.nanoClock());
        this.response = new ResponseSide(reactor, channel, this, shared.encoder, telemetry);
        this.progress = new Http1Progress(intake, response, inbound);
        this.http2 = new Http2Handover(reactor, channel, this, id, origin, shared.http2);
        this.answering = new Answering(this, reactor, id, channel, origin, inbound, intake, response, telemetry);
        this.inFlight = answering.inFlight; // made with the door, which answering is behind
        this.bodyIntake = answering.bodyIntake;
    }

    private void moveTo(Http1State next) {
        state = state.to(next);
    }

    @Override
    public int slot() {
        return slot;
    }

    @Override
    public void slot(int value) {
        slot = value;
    }

    @Override
    public void opened(SelectionKey registered) {
        interest.registered(registered);
        telemetry.opened(origin);
        armTimer(deadlines.at(state.deadline));
    }

    // ---------------------------------------------------------------- readiness

    /** The selector reported {@code ready}: writes what is queued, then reads. Closes on any failure. */
    @Override
    public void onReady(SelectionKey ready) {
        onReady(ready.isWritable(), ready.isReadable());
    }

    /** The channel can make progress by itself (a TLS task finished): retries both directions. */
    @Override
    public void channelReady() {
        ConnectionChannel.Listener handedTo = http2.handedTo();
        if (handedTo != null) {
            handedTo.channelReady(); // the channel's listener is still this connection
            return;
        }
        onReady(true, true);
    }

    private void onReady(boolean writable, boolean readable) {
        try {
            if (writable) {
                flushOutput();
            }
            if (readable && state != Http1State.CLOSED) {
                onReadable();
            }
            updateInterest();
        } catch (IOException e) {
            channelFailed(e, "io-error");
        } catch (RuntimeException e) {
            telemetry.failed(e);
            close("internal-error");
        }
    }

    private void onReadable() throws IOException {
        if (state == Http1State.LINGERING) {
            discardLingering();
            return;
        }
        ByteBuffer buffer = reactor.readBuffer;
        do {
            ByteBuffer direct = state == Http1State.STREAMING_BODY && !inbound.hasLeftover()
                    ? inbound.body().directTarget() : null;
            if (direct != null) {
                if (!readBodyDirect(direct)) {
                    return;
                }
                continue; // the body ended or reading paused: bytes the channel holds go the usual way, if any
            }
            buffer.clear();
            int kept = inbound.restore(buffer);
            int n = channel.read(buffer); // may end the handshake: application bytes may come with its last flight
            if (n < 0) {
                if (kept > 0) {
                    inbound.keep(buffer.array(), 0, kept); // a pipelined request: still answered after a half-close
                }
                onEof();
                return;
            }
            if (n == 0 && kept == 0) {
                return;
            }
            telemetry.read(n);
            if (state != Http1State.READING_HEAD) {
                deadlines.restart(reactor.now);
            }
            serve(buffer.array(), 0, buffer.position());
        } while (channel.hasBufferedInput() && state.reads() && intake.open());
    }

    /**
     * A streamed body with a {@code Content-Length}: read from the channel straight into the handler's stream (no
     * copy by the transport), batch after batch while bytes come and the state and window let it read, the handler
     * woken once for the batch (a TLS channel gives one record per read: one wake per record otherwise). Returns
     * whether it stopped because the state or the window no longer lets the body be read so (rather than for want
     * of bytes, or the client's end).
     */
    private boolean readBodyDirect(ByteBuffer first) throws IOException {
        RequestBody decoder = inbound.body();
        try {
            for (ByteBuffer target = first; target != null; ) {
                int n = bodyIntake.readDirect(channel, target);
                if (n < 0) {
                    onEof();
                    return false;
                }
                if (n == 0) {
                    return false;
                }
                deadlines.restart(reactor.now);
                bodyBytesTaken(decoder, n);
                target = state == Http1State.STREAMING_BODY && intake.open() ? decoder.directTarget() : null;
            }
            return true;
        } finally {
            decoder.directBatchDone();
        }
    }

    // ---------------------------------------------------------------- HTTP/2

    /**
     * Before the first request: takes {@code bytes} for HTTP/2 when the client chose {@code h2} by ALPN, or when
     * they begin with the connection preface (prior knowledge; a partial preface is kept until it is whole or
     * differs). Returns whether the bytes were taken.
     */
    private boolean http2Entry(byte[] bytes, int offset, int end) {
        switch (http2.entry(bytes, offset, end)) {
            case HTTP2 -> becomeHttp2(null, null, null, bytes, offset, end);
            case PARTIAL -> inbound.keep(bytes, offset, end);
            default -> {
                return false;
            }
        }
        return true;
    }

    /**
     * Hands the socket to HTTP/2 ({@link Http2Handover}): this connection ends without closing it (no timer, no parts
     * held) and the new one takes its key, its place in the reactor and {@code bytes[offset, end)}; {@code before}
     * (a {@code 101}) is written first, and an upgraded request becomes stream 1.
     */
    private void becomeHttp2(byte[] before, RequestHead upgraded, byte[] settings, byte[] bytes, int offset, int end) {
        reactor.wheel.cancel(this);
        moveTo(Http1State.CLOSED);
        inbound.release(shared);
        response.forget();
        http2.handOver(interest.key(), before, upgraded, settings, bytes, offset, end);
    }

    // ---------------------------------------------------------------- TLS

    /** The channel's first TLS handshake is done (told during a read or a write): wait for a request. */
    @Override
    public void handshakeDone() {
        if (state != Http1State.HANDSHAKING) {
            return;
        }
        moveTo(Http1State.IDLE);
        deadlines.restart(reactor.now);
        telemetry.handshakeDone(channel.tlsInfo());
        armTimer(deadlines.at(Deadline.IDLE));
        if (http2.alpnChosen()) { // the next bytes read, or this task if none come with the handshake, hand over
            reactor.execute(() -> {
                if (state == Http1State.IDLE && inFlight.none()) {
                    becomeHttp2(null, null, null, null, 0, 0);
                }
            });
        }
    }

    /**
     * The channel failed: plain HTTP on the TLS port is a refusal (the channel queued a raw 400: write it, then
     * close as after any refusal); a TLS failure (bad records, a failed handshake, a renegotiation) is the client's
     * fault: a DEBUG event with its message, no stack trace, then close; any other I/O error closes as {@code reason}.
     */
    private void channelFailed(IOException e, String reason) {
        if (e instanceof PlaintextRequestException) {
            plaintextRefused();
        } else if (e instanceof SSLException) {
            telemetry.tlsFailed(state, e.getMessage());
            close("tls-error");
        } else if (e instanceof FileRegion.Changed) {
            close("file-changed"); // the response is cut short: its Content-Length would lie
        } else {
            close(reason);
        }
    }

    private void plaintextRefused() {
        telemetry.plaintextRefused();
        if (state == Http1State.CLOSED) {
            return;
        }
        if (state != Http1State.HANDSHAKING) {
            close("reject");
            return;
        }
        closing(true); // the channel holds the raw 400: flushOutput writes it, then the close lingers
        flushOutput();
    }

    /**
     * The client ended its stream (TCP FIN, or TLS {@code close_notify}). With a whole request dispatched, that is
     * a half-close (RFC 9112 9.6 lets a client do it; curl and load balancers do): no more requests will come, but
     * the ones received are answered — the request in flight, then any pipelined after it — and the connection
     * closes after the last answer (the intake has ENDED). In the middle of a head or a body, the client is gone.
     */
    private void onEof() {
        if (state == Http1State.DISPATCHED) {
            intake.end();
            Exchange current = inFlight.current();
            if (current != null && current.watchesDeparture()) {
                clientGone(); // someone waits to hear the client left (a long-poll): it must not wait for ever
                return;
            }
            telemetry.halfClosed();
            return; // reading stops (updateInterest); finishExchange and serve close after the last answer
        }
        clientGone();
    }

    /** The client left, or ended its stream in the middle of a request: fail the exchange, finish writing, close. */
    @Override
    public void clientGone() {
        telemetry.disconnected();
        inFlight.clientGone("client closed the connection");
        if (!response.pending()) {
            close("eof");
        } else {
            closeReason = "eof"; // what is written still leaves, but the connection ends because the client left
            closing(false);
        }
    }

    // ---------------------------------------------------------------- serving bytes

    /**
     * Serves {@code bytes[offset, end)}: parses heads, feeds bodies, dispatches, while the state lets it read;
     * keeps what the exchange in flight leaves for the next request. The only place where bytes are parsed.
     */
    private void serve(byte[] bytes, int offset, int end) {
        int at = offset;
        serving = true;
        try {
            while (at < end) {
                switch (state) {
                    case IDLE, DRAINING -> {
                        if (outputAboveHighWater()) {
                            holdPipelined(bytes, at, end);
                            return;
                        }
                        at = readHead(bytes, at, end);
                    }
                    case READING_HEAD -> at = readHead(bytes, at, end);
                    case READING_BODY, EXPECTING_CONTINUE, STREAMING_BODY, DISCARDING_BODY ->
                            at = readBody(bytes, at, end);
                    case DISPATCHED -> {
                        if (inbound.keep(bytes, at, end)) {
                            pauseReading(); // the exchange in flight must finish before we read further
                        }
                        return;
                    }
                    default -> {
                        return; // closing, LINGERING, CLOSED: nothing more is served
                    }
                }
            }
        } catch (RequestException e) {
            answering.refuse(e.rule());
        } finally {
            serving = false;
        }
        if (intake.ended()) {
            afterInputEnded();
        }
    }

    /**
     * Whether the responses waiting for the client (staged and queued) are at {@code outboundHighWaterBytes} once
     * what the socket takes now is written: then the next pipelined request waits — the backpressure on a client
     * that pipelines and does not read, whose answers would otherwise pile up without bound.
     */
    private boolean outputAboveHighWater() {
        if (!response.atHighWater()) {
            return false;
        }
        flushOutput();
        return response.atHighWater();
    }

    /**
     * Keeps {@code bytes[at, end)} (the next pipelined requests, if the flush did not close the connection) and stops
     * reading until the client has taken the queued output down to half the mark ({@link #servePipelined}).
     */
    private void holdPipelined(byte[] bytes, int at, int end) {
        if (state.waitsForRequest()) {
            inbound.keep(bytes, at, end);
            pauseReading();
        }
    }

    /**
     * Whether the pipelined requests kept by {@link #holdPipelined} may be served now: no request in flight, no
     * {@link #serve} on the stack, and the client took the output down to half the mark.
     */
    private boolean pipelinedMayGoOn() {
        return state.waitsForRequest() && inbound.hasLeftover() && !serving && response.drainedToHalf();
    }

    /** A task once the output drained: the pipelined requests kept by {@link #holdPipelined} are served. */
    private void servePipelined() {
        if (pipelinedMayGoOn()) {
            resumeReading();
            byte[] kept = inbound.takeLeftover();
            serve(kept, 0, kept.length);
        }
    }

    /**
     * The client half-closed and the bytes it sent before are served: once no request is in flight, nothing more
     * can come — close after the last answer; a request left incomplete means the client is gone.
     */
    private void afterInputEnded() {
        switch (state) {
            case IDLE, DRAINING -> {
                closing(false);
                flushOutput(); // what is staged leaves now; closes once written
            }
            case READING_HEAD, READING_BODY, EXPECTING_CONTINUE, STREAMING_BODY, DISCARDING_BODY -> clientGone();
            default -> { } // DISPATCHED: its answer comes later; CLOSING and after: already closing
        }
    }

    private int readHead(byte[] bytes, int offset, int end) throws RequestException {
        if (inFlight.none() && state == Http1State.IDLE && http2Entry(bytes, offset, end)) {
            return end;
        }
        if (state.waitsForRequest()) {
            telemetry.headBegins(reactor.now);
        }
        int at = inbound.parseHead(shared, bytes, offset, end);
        RequestHead head = inbound.completedHead(shared);
        if (head != null && inFlight.none()) {
            byte[] settings = http2.upgradeSettings(head);
            if (settings != null) {
                becomeHttp2(Http2Entry.SWITCHING_PROTOCOLS, head, settings, bytes, at, end);
                return end;
            }
        }
        if (head != null) {
            answering.start(head); // dispatched now, or once its body is complete
        } else if (state.waitsForRequest() && inbound.headInProgress()) {
            moveTo(Http1State.READING_HEAD);
            deadlines.restart(reactor.now);
            armTimer(deadlines.at(Deadline.HEADER));
        }
        return at;
    }

    private int readBody(byte[] bytes, int offset, int end) throws RequestException {
        RequestBody decoder = inbound.body();
        int at = decoder.feed(bytes, offset, end);
        return bodyBytesTaken(decoder, at - offset) ? end : at;
    }

    /**
     * {@code n} bytes of the body were taken (fed, or read straight into the handler's stream): counted, against the
     * rate, the window; then the body's end or its refusal. Returns whether it was refused.
     */
    private boolean bodyBytesTaken(RequestBody decoder, int n) {
        if (bodyIntake.taken(n)) {
            pauseReading();
        }
        switch (decoder.mode()) {
            case TOO_LARGE -> {
                if (state == Http1State.DISCARDING_BODY) {
                    answering.refuse(Refusal.DISCARD_LIMIT);
                } else {
                    answering.refuseTooLarge(decoder.limit(), false);
                }
                return true;
            }
            case COMPLETE -> answering.bodyComplete(decoder);
            default -> { } // more to come
        }
        return false;
    }

    // ---------------------------------------------------------------- what the exchanges' side asks (Answering)

    @Override
    public Http1State state() {
        return state;
    }

    @Override
    public String closeReason() {
        return closeReason;
    }

    /** Nothing more of the request is to be read: DISPATCHED, its answer awaited. */
    @Override
    public void dispatched() {
        moveTo(Http1State.DISPATCHED);
    }

    /**
     * The body begins ({@code reading}: READING_BODY, STREAMING_BODY or EXPECTING_CONTINUE): its timer runs, and its
     * rate unless the client waits for {@code 100 Continue}.
     */
    @Override
    public void bodyBegins(Http1State reading) {
        deadlines.restart(reactor.now);
        armTimer(deadlines.at(Deadline.BODY));
        moveTo(reading);
        if (reading != Http1State.EXPECTING_CONTINUE) {
            startRequestRate();
        }
    }

    /** The exchange is over (response sent, body read): back to IDLE, serving the next request if kept. */
    @Override
    public void finishExchange() {
        inbound.stopBodyRate();
        inFlight.ended();
        deadlines.restart(reactor.now);
        if (reactor.isDraining()) {
            moveTo(Http1State.DRAINING); // a response whose head went out before the stop began: close soon
            armTimer(deadlines.at(Deadline.DRAIN_IDLE));
        } else {
            moveTo(Http1State.IDLE);
        }
        resumeReading();
        if (inbound.hasLeftover()) {
            // Kept bytes mean that no serve() is on the stack (it holds them while it runs): serve them now.
            byte[] kept = inbound.takeLeftover();
            serve(kept, 0, kept.length);
        } else if (intake.ended() && !serving) {
            afterInputEnded(); // inside serve(), bytes of a next request may still be in its hands: it decides
        }
    }

    /** Moves to CLOSING: nothing more is read or served; closes (or lingers) once the output is written. */
    @Override
    public void closing(boolean clientMaySend) {
        if (!state.closing()) {
            moveTo(clientMaySend ? Http1State.CLOSING_TO_LINGER : Http1State.CLOSING);
        }
        updateInterest();
    }

    /** The response went out before the body was read: the rest is read and dropped, then the exchange finishes. */
    @Override
    public void discardRest() {
        moveTo(Http1State.DISCARDING_BODY);
        resumeReading();
    }

    /** {@code 100 Continue} went out: the client now owes the body, at the minimum rate. */
    @Override
    public void bodyOwed() {
        if (state == Http1State.EXPECTING_CONTINUE) {
            moveTo(Http1State.STREAMING_BODY);
            startRequestRate();
        }
    }

    /** Whether a refusal written now answers a {@code HEAD} request, and so has no body (the fuzz harness asks). */
    public boolean refusalAnswersHead() {
        return answering.refusalAnswersHead();
    }

    // ---------------------------------------------------------------- output

    /** Writes what is staged and queued; at the end of CLOSING, closes or lingers. Reactor: after each unit of work. */
    @Override
    public void flushOutput() {
        if (state == Http1State.CLOSED) {
            return;
        }
        long written;
        try {
            written = response.flush(inFlight.current());
        } catch (IOException e) {
            channelFailed(e, "write-error");
            return;
        }
        if (written > 0 && pipelinedMayGoOn()) {
            reactor.execute(this::servePipelined); // not from here: a flush may run inside another's staging
        }
        if (state == Http1State.HANDSHAKING) {
            updateInterest(); // the channel may still wait to write its flight
            return;
        }
        if (response.queued()) {
            armTimer(deadlines.stallAt(response.held().lastWriteProgress()));
            armTimer(response.startRate(reactor.now)); // bytes wait for the client: it must take them at the rate
        } else if (state.closing()) {
            response.stopRate();
            closeAfterLastResponse();
            return;
        } else {
            response.stopRate(); // nothing waits for the client
            response.letGoIfIdle(inFlight.current());
        }
        updateInterest();
    }

    /** Starts (or restarts) the request body's rate window and arms the timer for its end. */
    private void startRequestRate() {
        armTimer(bodyIntake.startRate(reactor.now));
    }

    /**
     * The last response is out. If the client may still be sending (a refused request, an unread body), close
     * only our side and discard its input for a while: closing with unread input makes the kernel send a reset
     * that can destroy the response before the client has read it.
     */
    private void closeAfterLastResponse() {
        if (state == Http1State.CLOSING && !inbound.hasLeftover()) {
            close("done");
            return;
        }
        try {
            channel.shutdownOutput();
        } catch (IOException e) {
            close("done");
            return;
        }
        moveTo(Http1State.LINGERING);
        lingering = new Lingering();
        inbound.dropLeftover();
        updateInterest();
        deadlines.restart(reactor.now);
        reactor.wheel.schedule(this, deadlines.at(Deadline.LINGER));
    }

    /** LINGERING: what the client sent is dropped; the client's end or the limit closes. */
    private void discardLingering() throws IOException {
        switch (lingering.drop(channel, reactor.readBuffer, telemetry)) {
            case ENDED -> close("done");
            case LIMIT -> close("linger-limit");
            case MORE -> { }
        }
    }

    // ---------------------------------------------------------------- flow control and interest

    private void pauseReading() {
        intake.pause();
        inbound.stopBodyRate(); // the handler holds things up, not the client
        updateInterest();
    }

    /** The handler took body bytes, or the exchange ended: reading goes on. */
    @Override
    public void resumeReading() {
        if (!state.reads() || !intake.resume()) {
            return;
        }
        deadlines.restart(reactor.now);
        if (state == Http1State.READING_BODY || state == Http1State.STREAMING_BODY || state == Http1State.DISCARDING_BODY) {
            startRequestRate();
        }
        updateInterest();
        if (channel.hasBufferedInput()) {
            reactor.execute(this::channelReady); // no readiness will come for bytes the channel already holds
        }
    }

    /** Sets the key's interest to what the state, flow control, the queue and the channel need; only on change. */
    private void updateInterest() {
        if (state == Http1State.CLOSED) {
            return;
        }
        interest.want(state == Http1State.LINGERING || (state.reads() && intake.open()), response.queued());
    }

    // ---------------------------------------------------------------- timers

    /** Schedules this connection's timer at {@code deadline} unless it is due earlier ({@link Long#MIN_VALUE}: none). */
    private void armTimer(long deadline) {
        if (deadline != Long.MIN_VALUE && state != Http1State.CLOSED
                && (!isScheduled() || deadline - this.deadline < 0)) {
            reactor.wheel.schedule(this, deadline);
        }
    }

    @Override
    protected void expire() {
        if (state == Http1State.CLOSED) {
            return;
        }
        Deadline fired = deadlines.due(state.deadline, progress, reactor.now);
        if (fired == null) {
            reactor.wheel.schedule(this, deadlines.next());
        } else {
            expired(fired);
        }
    }

    /** {@code deadline} passed: a timeout (counted, an event) answers its refusal or closes; the others close. */
    private void expired(Deadline deadline) {
        if (!deadline.isTimeout()) {
            close(deadline.closeReason());
            return;
        }
        telemetry.timedOut(deadline);
        closeReason = deadline.phase() + " timeout";
        if (deadline.refusal() != null && !response.queued()) {
            answering.refuse(deadline.refusal());
            return;
        }
        close(deadline.closeReason());
    }

    // ---------------------------------------------------------------- shutdown

    /**
     * Graceful stop: a connection with a request in flight closes after its response (which says
     * {@code Connection: close}); an idle one closes once it has had {@link Deadline#DRAIN_IDLE} for a request already
     * on its way — see {@link #expire}.
     */
    @Override
    public void drain() {
        deadlines.drain(reactor.drainStarted());
        if (state == Http1State.HANDSHAKING) {
            close("stop"); // no request can be on its way before the handshake is done
        } else if (state == Http1State.IDLE) {
            moveTo(Http1State.DRAINING);
            armTimer(deadlines.at(Deadline.DRAIN_IDLE));
        }
    }

    /** Closes the socket and releases everything this connection holds; idempotent. */
    @Override
    public void close(String reason) {
        if (state == Http1State.CLOSED) {
            return;
        }
        moveTo(Http1State.CLOSED);
        if (closeReason == null) {
            closeReason = reason;
        }
        reactor.wheel.cancel(this);
        reactor.releaseStaging(this);
        interest.cancel();
        channel.close();
        inFlight.connectionClosed(closeReason);
        telemetry.closing();
        inbound.release(shared);
        response.drop();
        reactor.closed(this);
        telemetry.closed(reason);
    }
}
