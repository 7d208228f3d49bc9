package dev.fleche.transport.internal.http2;

import dev.fleche.transport.HttpFields;
import dev.fleche.transport.ServerOptions;
import dev.fleche.transport.http1.ProtocolRule;
import dev.fleche.transport.http1.RequestHead;
import dev.fleche.transport.internal.channel.ConnectionChannel;
import dev.fleche.transport.internal.channel.Origin;
import dev.fleche.transport.internal.exchange.ConnectionDoor;
import dev.fleche.transport.internal.exchange.Exchange;
import dev.fleche.transport.internal.exchange.HttpDate;
import dev.fleche.transport.internal.exchange.ResponseHead;
import dev.fleche.transport.internal.loop.KeyInterest;
import dev.fleche.transport.internal.loop.Reactor;
import dev.fleche.transport.internal.loop.TimerNode;
import dev.fleche.transport.internal.loop.WriteQueue;
import dev.fleche.transport.internal.rules.Deadline;
import dev.fleche.transport.internal.rules.Deadlines;
import dev.fleche.transport.internal.rules.Refusal;
import dev.fleche.transport.internal.telemetry.Telemetry;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.SelectionKey;
import java.util.Arrays;
import java.util.Locale;
import java.util.function.Consumer;
import javax.net.ssl.SSLException;

/**
 * One HTTP/2 connection (RFC 9113), owned by one {@link Reactor}: the spine of a socket that an HTTP/1.1 connection
 * handed over (prior-knowledge preface, {@code Upgrade: h2c}, or ALPN {@code h2}). It holds the lifecycle as one
 * {@link Http2State} (and whether it reads frames, {@link Intake}) and makes every decision. Its parts have their own
 * state, return results or report what they found, and never name it: {@link Http2Inbound} (the client preface as far
 * as matched, and bytes kept for the next read), the {@link FrameReader} (frames and their frame-level checks),
 * {@link ClientFrames} (what each frame read does: budgets charged, SETTINGS, PING, WINDOW_UPDATE, RST_STREAM, GOAWAY,
 * and our SETTINGS), {@link StreamTable} (the streams, each an {@link H2Stream} with its {@link Exchange}, and the ids
 * seen), {@link StreamRequests} (header blocks and DATA made into streams and their bodies), {@link StreamResponses}
 * (the response side: the handler called, the exchanges' answers, the transport's own, the streams' body and
 * response-rate deadlines, a stream's local end or drop), {@link PeerSettings} (the client's SETTINGS, applied once per
 * frame), {@link FlowControl} (both windows, the streams', and the streams waiting for the connection),
 * {@link StreamOutput} (the output scheduler: response heads, and DATA as the windows and the budget allow),
 * {@link StreamTimers} (the streams' body timeouts and minimum rates), {@link Http2Budgets} (every flood and reset
 * budget), {@link GoAway} (our GOAWAY, once, and what is dropped after it), {@link Http2Framer} (frames out, with the
 * HPACK encoder), the {@link WriteQueue}, the {@link KeyInterest}, {@link Deadlines} (reading the output through
 * {@link OutputProgress}) and {@link Telemetry}. The parts that report back do so through their own {@code Listener},
 * which this connection implements: what changes its state (the preface ended, the client going away, a stream reset,
 * dropped or closed) stays here. Exchanges reach it only through its {@link ConnectionDoor}, which hops onto the loop
 * and calls it as the door's {@code Behind}. Every method runs on the reactor thread.
 *
 * <pre>
 *   PREFACE ─ client preface and its first SETTINGS ─▶ OPEN ─ drain, client GOAWAY ─▶ DRAINING (new streams
 *   (header timeout)                                    (idle timeout with no stream)    REFUSED; the last one ends:
 *                                                                                        GOAWAY NO_ERROR ─▶ CLOSING
 *                                                                                        ─ written ─▶ CLOSED)
 *   PREFACE | OPEN | DRAINING ─ connection error (GOAWAY code), idle timeout ─▶ GOING_AWAY (every stream dropped)
 *                             ─ written, or the grace (2 s) ─▶ CLOSED
 *   any ─ I/O error, client gone, stop, write stall of the socket ─▶ CLOSED
 *
 *   Intake (in the states that read): OPEN ─ queued output reaches the budget ─▶ HELD ─ drained to half ─▶ OPEN
 * </pre>
 */
public final class Http2Connection extends TimerNode
        implements Reactor.Attachment, ConnectionChannel.Listener, ConnectionDoor.Behind,
        StreamRequests.Listener, StreamResponses.Listener, ClientFrames.Listener {
    public final Reactor reactor;

    /**
     * Whether frames are read, in the states that read: {@code HELD} while the output queued for the client is at the
     * budget ({@code http2MaxQueuedOutputBytes}) — the backpressure HTTP/1.1 applies to a pipelining client: no
     * request parsed, no answer produced until the client takes what it was sent.
     */
    enum Intake { OPEN, HELD }


    final ConnectionChannel channel;
    final long id;
    /** The client's and our addresses (the socket's, or a PROXY header's), from the HTTP/1.1 connection. */
    private final Origin origin;
    private final ServerOptions options;
    private int slot = -1;
    private Http2State state = Http2State.PREFACE;
    private Intake intake = Intake.OPEN;
    /** A task to go on once the output drained (wake waiting streams, read again) is queued on the reactor. */
    private boolean drainTaskQueued;
    private final Deadlines deadlines;
    private final Telemetry telemetry;
    private final WriteQueue outbound;
    /** The one way up from this connection's exchanges (it hops onto the loop and calls this connection). */
    private final ConnectionDoor door;
    private final FrameReader reader;
    private final Http2Framer framer;
    /** The request side of the streams: header blocks and DATA made into streams and their bodies. */
    private final StreamRequests requests;
    /** The streams by id, and the ids seen. */
    private final StreamTable streams = new StreamTable();
    /** The selection key and the interest set on it. */
    private final KeyInterest interest;
    public volatile String closeReason;

    /** The client preface as far as matched, and bytes of a frame split across reads. */
    private final Http2Inbound inbound = new Http2Inbound();
    /** What the deadlines read of the output: whether it waits, when it last moved. */
    private final OutputProgress progress;
    /** Our GOAWAY (at most one) and what is dropped after it. */
    private final GoAway goAway;

    private final PeerSettings peerSettings = new PeerSettings();
    /** Both windows of the connection, the streams', and the streams waiting for the connection. */
    private final FlowControl flow;
    /** Every flood and reset budget, and the queued-output budget. */
    private final Http2Budgets budgets;
    /** The output scheduler: what the streams hold back, framed as the windows and the budget allow. */
    private final StreamOutput output;
    /** The streams' body timeouts and minimum rates. */
    private final StreamTimers timers;
    /** The response side of the streams: answers, the transport's own, the streams' deadlines, a stream's end. */
    private final StreamResponses responses;
    /** What each frame from the client does, once read. */
    private final ClientFrames frames;

    public Http2Connection(Reactor reactor, ConnectionChannel channel, long id, SelectionKey key, Origin origin,
            HttpDate date) {
        this.reactor = reactor;
        this.origin = origin;
        this.channel = channel;
        this.id = id;
        this.options = reactor.options;
        this.deadlines = new Deadlines(options, reactor.now);
        this.telemetry = Telemetry.of(reactor.counters, reactor.events, id, reactor.accessLog, channel, origin,
                options.nanoClock());
        this.outbound = new WriteQueue(reactor, channel, this);
        this.door = new ConnectionDoor(reactor, id, channel, origin, telemetry, this);
        this.reader = new FrameReader(options.http2MaxFrameBytes());
        this.framer = new Http2Framer(outbound, date);
        this.budgets = new Http2Budgets(options, reactor.now);
        this.flow = new FlowControl(options, reactor.now);
        this.output = new StreamOutput(framer, flow, budgets, outbound, telemetry, options);
        this.timers = new StreamTimers(options);
        this.requests = new StreamRequests(options, streams, flow, timers, peerSettings, door, telemetry, this);
        this.responses = new StreamResponses(options, streams, flow, output, timers, requests, peerSettings, framer,
                deadlines, telemetry, this);
        this.goAway = new GoAway(framer, streams);
        this.progress = new OutputProgress(outbound, streams, flow);
        this.frames = new ClientFrames(options, streams, requests, responses, flow, peerSettings, budgets, framer,
                telemetry, this);
        this.interest = new KeyInterest(channel, key);
    }

    /**
     * Starts serving: our SETTINGS go first ({@code before}, if any, goes ahead of them: an upgrade's {@code 101}),
     * then {@code bytes[offset, end)} (what the HTTP/1.1 connection read already) are served.
     */
    public void start(byte[] before, RequestHead upgraded, byte[] settings, byte[] bytes, int offset, int end) {
        if (before != null) {
            framer.raw(before);
        }
        frames.sendSettings();
        telemetry.http2Started();
        armTimer(deadlines.at(Deadline.HEADER));
        if (upgraded != null) {
            try {
                frames.upgraded(upgraded, ByteBuffer.wrap(settings));
            } catch (Http2Exception e) {
                connectionError(e);
            }
        }
        if (end > offset && state.reads()) {
            ByteBuffer in = ByteBuffer.wrap(Arrays.copyOfRange(bytes, offset, end));
            serve(in);
        }
        flushOutput();
    }

    private void moveTo(Http2State next) {
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
        throw new IllegalStateException("an HTTP/2 connection is handed a registered socket");
    }

    // ---------------------------------------------------------------- readiness

    @Override
    public void onReady(SelectionKey ready) {
        onReady(ready.isWritable(), ready.isReadable());
    }

    @Override
    public void channelReady() {
        onReady(true, true);
    }

    private void onReady(boolean writable, boolean readable) {
        try {
            if (writable) {
                flushOutput();
            }
            if (readable && readsFrames()) {
                onReadable();
            }
            if (state.closing()) {
                flushOutput(); // closes once what is queued is written (nothing may be staged: a client GOAWAY)
            }
            updateInterest();
        } catch (IOException | RuntimeException e) {
            failed(e);
        }
    }

    /**
     * Reading or writing failed: a TLS failure (bad records, a renegotiation) is the client's fault, a DEBUG event
     * without a stack trace; any other I/O error closes; anything else is our fault, logged with its stack trace.
     */
    private void failed(Exception e) {
        if (e instanceof SSLException) {
            telemetry.tlsFailed(state, e.getMessage());
            close("tls-error");
        } else if (e instanceof IOException) {
            close("io-error");
        } else {
            telemetry.failed((RuntimeException) e);
            close("internal-error");
        }
    }

    private void onReadable() throws IOException {
        ByteBuffer buffer = reactor.readBuffer;
        do {
            buffer.clear();
            boolean kept = inbound.restore(buffer);
            int n = channel.read(buffer);
            if (n < 0) {
                clientGone();
                return;
            }
            if (n == 0 && !kept) {
                return;
            }
            telemetry.read(n);
            deadlines.restart(reactor.now);
            buffer.flip();
            serve(buffer);
        } while (channel.hasBufferedInput() && readsFrames());
    }

    /** Whether frames are read now: the state reads and the output is not held at its budget. */
    private boolean readsFrames() {
        return state.reads() && intake == Intake.OPEN;
    }

    /** The client closed the socket: every stream in flight fails, the connection closes. */
    private void clientGone() {
        telemetry.disconnected();
        close("eof");
    }

    // ---------------------------------------------------------------- serving frames

    /**
     * Serves the frames in {@code in}; keeps a frame split across reads, and the rest when the queued output reaches
     * its budget (reading stops there until the client drains it). The only place frames are read.
     */
    private void serve(ByteBuffer in) {
        switch (inbound.preface(in)) {
            case WRONG -> {
                connectionError(Http2Exception.connection(Http2Error.PROTOCOL_ERROR, "invalid connection preface"));
                return;
            }
            case PARTIAL -> {
                return;
            }
            default -> { } // seen: frames follow
        }
        while (state.reads()) {
            if (budgets.outputFull(outbound.unsentBytes()) && !outputTakenNow()) {
                holdReading();
                break;
            }
            try {
                if (state == Http2State.PREFACE && in.remaining() >= Frames.HEADER_BYTES
                        && in.get(in.position() + 3) != Frames.SETTINGS) {
                    throw Http2Exception.connection(Http2Error.PROTOCOL_ERROR,
                            "the client preface must end with a SETTINGS frame (RFC 9113 3.4)");
                }
                if (!reader.read(in, frames)) {
                    break;
                }
                telemetry.http2Frame();
            } catch (Http2Exception e) {
                telemetry.http2Frame(); // (a frame answered with an error was handled too)
                if (e.isConnectionError()) {
                    connectionError(e);
                    return;
                }
                streamError(e);
            }
        }
        if (in.hasRemaining() && state.reads()) {
            inbound.keep(in);
        }
    }

    /** Writes what is staged and queued now; returns whether the output is below its budget after that. */
    private boolean outputTakenNow() {
        flushOutput();
        return state.reads() && !budgets.outputFull(outbound.unsentBytes());
    }

    /**
     * The output is at its budget: no more frames are read (the rest of this read is kept) until the client has
     * taken it down to half ({@link #outputDrained}); one that takes nothing is closed by the write-stall timeout.
     */
    private void holdReading() {
        if (!state.reads()) {
            return; // the flush closed it
        }
        intake = Intake.HELD;
        telemetry.outputHeld(outbound.unsentBytes());
        updateInterest();
    }

    // ---------------------------------------------------------------- what the client's frames change (ClientFrames)

    @Override
    public boolean prefaceEnded() {
        if (state != Http2State.PREFACE) {
            return false;
        }
        moveTo(Http2State.OPEN);
        deadlines.restart(reactor.now);
        armTimer(deadlines.at(Deadline.IDLE));
        return true;
    }

    @Override
    public void clientGoingAway() {
        if (state == Http2State.OPEN) {
            moveTo(Http2State.DRAINING); // the client opens no more streams: finish these, then close
            closeWhenDrained();
        }
    }

    // ---------------------------------------------------------------- what the request side reports (StreamRequests)

    @Override
    public StreamRequests.Admission admission() {
        return goAway.sent() ? StreamRequests.Admission.IGNORE
                : state == Http2State.DRAINING ? StreamRequests.Admission.REFUSE : StreamRequests.Admission.ACCEPT;
    }

    @Override
    public void refuseTooLarge(H2Stream s, long limit) {
        responses.refuseTooLarge(s, limit, false);
    }

    @Override
    public void sendWindowUpdate(int stream, int increment) {
        writeControl(13, out -> FrameWriter.windowUpdate(out, stream, increment));
    }

    // ---------------------------------------------------------------- errors

    /**
     * A stream error: RST_STREAM with its code (REFUSED_STREAM included: a refusal costs us a frame all the same);
     * the stream's exchange (if any) hears the client is gone.
     */
    private void streamError(Http2Exception e) {
        telemetry.streamReset(e.stream(), e.error().name() + " " + e.getMessage(), false);
        resetStream(e.stream(), e.error(), e.getMessage());
    }

    /**
     * Sends RST_STREAM on {@code stream}; one that answers the client's doing counts in the reset budget
     * ({@link Http2Budgets#countsSent}).
     */
    @Override
    public void resetStream(int stream, Http2Error error, String why) {
        if (state.closing() || state == Http2State.CLOSED) {
            return; // after our GOAWAY nothing more is sent; the streams are dropped already
        }
        writeControl(13, out -> FrameWriter.rstStream(out, stream, error));
        if (error != Http2Error.NO_ERROR) {
            telemetry.resetSent();
        }
        H2Stream s = streams.get(stream);
        if (s != null) {
            dropStream(s, "stream reset: " + error + " " + why);
        } else {
            streams.remember(stream);
        }
        if (Http2Budgets.countsSent(error, state == Http2State.DRAINING)) {
            countSent("RST_STREAM " + error);
        }
    }

    /**
     * A reset or a refusal we sent for the client's doing ({@code what}): counted in the reset budget, and past it
     * {@code GOAWAY ENHANCE_YOUR_CALM}.
     */
    @Override
    public void countSent(String what) {
        try {
            budgets.reset(reactor.now, what);
        } catch (Http2Exception e) {
            connectionError(e);
        }
    }

    /**
     * A connection error: GOAWAY with its code and message, every stream fails, close once written or after the
     * grace. A budget the client went beyond ({@link Http2Exception#rule()}) is also a refusal: counted and
     * access-logged under its rule, as one line.
     */
    private void connectionError(Http2Exception e) {
        if (state.closing() || state == Http2State.CLOSED) {
            return;
        }
        telemetry.http2Error(e.error().name(), e.getMessage());
        if (e.rule() != null) {
            telemetry.budgetTripped(Refusal.valueOf(e.rule()), e.getMessage(), reactor.now);
        }
        goAway.send(e.error(), GoAway.debug(e));
        closing("h2-" + e.error().name().toLowerCase(Locale.ROOT));
    }

    /**
     * Moves to GOING_AWAY: every stream still open fails; the connection closes once its output is written, or after
     * the grace ({@link Deadline#LINGER}) for a client that does not take it.
     */
    private void closing(String reason) {
        if (closeReason == null) {
            closeReason = reason;
        }
        for (H2Stream s : streams.snapshot()) {
            dropStream(s, "connection closing: " + reason);
        }
        if (!state.closing() && state != Http2State.CLOSED) {
            moveTo(Http2State.GOING_AWAY);
            deadlines.restart(reactor.now);
            armTimer(deadlines.at(Deadline.LINGER));
        }
        inbound.drop();
        updateInterest();
    }

    /** Forgets {@code s}: its queued bytes are dropped, its exchange hears that the client left. */
    @Override
    public void dropStream(H2Stream s, String why) {
        responses.drop(s, why);
        closeWhenDrained();
    }

    @Override
    public void dispatch(H2Stream s) {
        responses.dispatch(s, reactor.handler);
    }

    // ---------------------------------------------------------------- behind the door (ConnectionDoor), on the loop

    @Override
    public String closeReason() {
        return closeReason;
    }

    /** The stream's held-back bytes and the connection's queue: a writer waits on both. */
    @Override
    public long queuedBytes(int stream) {
        H2Stream s = streams.get(stream);
        return (s == null ? 0 : s.pendingBytes) + outbound.queuedBytes();
    }

    @Override
    public void respondOnLoop(int stream, int status, String reason, HttpFields fields, byte[] body) {
        if (answers() && responses.respond(stream, status, fields, body)) {
            flushIfLarge();
        }
    }

    @Override
    public void respondBufferOnLoop(int stream, int status, HttpFields fields, ByteBuffer body) {
        if (answers() && responses.respond(stream, status, fields, body)) {
            flushIfLarge();
        }
    }

    @Override
    public void streamPartOnLoop(int stream, ResponseHead head, byte[] data, int length, boolean last) {
        if (answers() && responses.streamPart(stream, head, data, length, last)) {
            flushIfLarge();
        }
    }

    @Override
    public void sendContinueOnLoop(int stream) {
        if (answers() && responses.sendContinue(stream)) {
            flushOutput();
        }
    }

    @Override
    public void readerCaughtUpOnLoop(int stream) {
        responses.readerCaughtUp(stream);
    }

    @Override
    public void limitBodyOnLoop(int stream, long limit) {
        responses.limitBody(stream, limit);
    }

    @Override
    public void refuseClaimedOnLoop(int stream, long limit) {
        responses.refuseClaimed(stream, limit);
    }

    @Override
    public void abortOnLoop(int stream) {
        telemetry.aborted();
        H2Stream s = streams.get(stream);
        if (s != null && s.localOpen()) {
            resetStream(stream, Http2Error.INTERNAL_ERROR, "the handler aborted its exchange");
            flushOutput();
        }
    }

    @Override
    public void departureWatched(int stream) {
        // HTTP/2 tells a departure with RST_STREAM or the connection's end; nothing to decide here.
    }

    /** Whether responses still go out: neither closing nor closed (then nothing more is sent). */
    private boolean answers() {
        return state != Http2State.CLOSED && !state.closing();
    }

    // ---------------------------------------------------------------- what the response side asks (StreamResponses)

    @Override
    public long now() {
        return reactor.now;
    }

    @Override
    public void rstFrame(int stream, Http2Error error) {
        writeControl(13, out -> FrameWriter.rstStream(out, stream, error));
    }

    @Override
    public void refuseAlone(int stream, ProtocolRule rule) {
        responses.refuseAlone(stream, rule);
    }

    @Override
    public void streamClosed(H2Stream s) {
        streams.closed(s);
        if (streams.isEmpty()) {
            deadlines.restart(reactor.now);
            armTimer(deadlines.at(Deadline.IDLE));
        }
        closeWhenDrained();
    }

    /** DRAINING with no stream left: GOAWAY NO_ERROR (unless sent), then close once written. */
    private void closeWhenDrained() {
        if (state == Http2State.DRAINING && streams.isEmpty()) {
            goAway.send(Http2Error.NO_ERROR, GoAway.NO_DEBUG);
            moveTo(Http2State.CLOSING);
            if (closeReason == null) {
                closeReason = "done";
            }
            updateInterest();
        }
    }

    private void flushIfLarge() {
        if (outbound.stagedBytes() >= WriteQueue.STAGING_FLUSH_BYTES) {
            flushOutput();
        }
    }

    /** Writes a control frame of {@code size} bytes that {@code writer} encodes. */
    @Override
    public void writeControl(int size, Consumer<ByteBuffer> writer) {
        if (state == Http2State.CLOSED) {
            return;
        }
        framer.control(size, writer);
    }

    // ---------------------------------------------------------------- output

    @Override
    public void flushOutput() {
        if (state == Http2State.CLOSED) {
            return;
        }
        long written;
        try {
            written = outbound.flush();
        } catch (IOException e) {
            close("write-error");
            return;
        }
        if (written > 0) {
            telemetry.written(written);
            for (H2Stream s : streams.all()) {
                s.exchange.outboundWritten();
            }
        }
        if (outbound.queued()) {
            armTimer(deadlines.stallAt(outbound.lastWriteProgress()));
        } else if (state == Http2State.GOING_AWAY) {
            reactor.execute(this::goneAway); // (not from here: the read buffer may be another connection's now)
        } else if (state.closing()) {
            close(closeReason == null ? "done" : closeReason);
            return;
        }
        if ((intake == Intake.HELD || flow.waitingForBudget()) && !drainTaskQueued
                && budgets.outputDrained(outbound.unsentBytes())) { // (held by the budget, not by the client's window)
            // Not from here: a flush may run inside another connection's staging (Reactor.stage). A task of ours.
            drainTaskQueued = true;
            reactor.execute(this::outputDrained);
        }
        updateInterest();
    }

    /** GOING_AWAY, our GOAWAY written: what the client sent meanwhile is dropped ({@link GoAway#discard}); close. */
    private void goneAway() {
        if (state != Http2State.GOING_AWAY) {
            return;
        }
        GoAway.discard(channel, reactor.readBuffer, telemetry);
        close(closeReason == null ? "done" : closeReason);
    }

    /**
     * The client took the output down to half its budget: the streams waiting for the connection send, and frames
     * are read again (what was kept first, then the socket).
     */
    private void outputDrained() {
        drainTaskQueued = false;
        if (state == Http2State.CLOSED) {
            return;
        }
        try {
            if (budgets.outputDrained(outbound.unsentBytes())) {
                responses.wakeWaiting();
                if (intake == Intake.HELD && state.reads()) {
                    intake = Intake.OPEN;
                    telemetry.outputResumed(outbound.unsentBytes());
                    if (inbound.hasKept() || channel.hasBufferedInput()) {
                        onReadable();
                    }
                }
            }
            flushOutput();
        } catch (IOException | RuntimeException e) {
            failed(e);
        }
    }

    private void updateInterest() {
        if (state == Http2State.CLOSED) {
            return;
        }
        interest.want(readsFrames(), outbound.queued());
    }

    // ---------------------------------------------------------------- timers

    /** Arms the connection's one timer at {@code deadline} unless it is due earlier ({@link Long#MIN_VALUE}: none). */
    @Override
    public void armTimer(long deadline) {
        if (deadline != Long.MIN_VALUE && state != Http2State.CLOSED && (!isScheduled() || deadline - this.deadline < 0)) {
            reactor.wheel.schedule(this, deadline);
        }
    }

    /**
     * The state's own deadline: the preface's (header timeout), idle with no stream, the grace after our GOAWAY
     * (GOING_AWAY: the linger time), else only the output's.
     */
    private Deadline phase() {
        return switch (state) {
            case PREFACE -> Deadline.HEADER;
            case OPEN -> streams.isEmpty() ? Deadline.IDLE : null;
            case GOING_AWAY -> Deadline.LINGER;
            default -> null;
        };
    }

    @Override
    protected void expire() {
        if (state == Http2State.CLOSED) {
            return;
        }
        long bodyDue = responses.expireBodies(reactor.now);
        if (state == Http2State.CLOSED) {
            return;
        }
        long rateDue = responses.expireResponseRates(reactor.now);
        bodyDue = rateDue - bodyDue < 0 ? rateDue : bodyDue;
        if (state == Http2State.CLOSED) {
            return;
        }
        Deadline fired = deadlines.due(phase(), progress, reactor.now);
        if (fired == null) {
            long next = deadlines.next();
            reactor.wheel.schedule(this, bodyDue - next < 0 ? bodyDue : next);
            return;
        }
        if (fired == Deadline.LINGER) {
            close("h2-grace"); // our GOAWAY was not taken within the grace
            return;
        }
        telemetry.timedOut(fired);
        if (fired == Deadline.WRITE_STALL && intake == Intake.HELD && outbound.queued()) {
            telemetry.budgetTripped(Refusal.HTTP2_OUTPUT_NOT_TAKEN, Refusal.HTTP2_OUTPUT_NOT_TAKEN.reason(options)
                    + " (" + outbound.unsentBytes() + " bytes)", reactor.now);
        }
        if (fired == Deadline.WRITE_STALL && !outbound.queued()) {
            responses.stallBlockedStreams(reactor.now); // the socket moves; streams wait on windows the client never opens
            reactor.wheel.schedule(this, reactor.now + Deadline.IDLE.nanos(options));
            flushOutput();
            return;
        }
        if (fired == Deadline.IDLE && state == Http2State.OPEN) {
            closeReason = "idle timeout";
            goAway.send(Http2Error.NO_ERROR, GoAway.NO_DEBUG);
            closing("idle timeout");
            flushOutput();
            return;
        }
        closeReason = fired.phase() + " timeout";
        close(fired.closeReason());
    }

    // ---------------------------------------------------------------- shutdown

    /**
     * Graceful stop: the streams in flight finish, a new one is refused ({@code REFUSED_STREAM}: safe to retry
     * elsewhere), then GOAWAY with the last stream and close (RFC 9113 6.8). The GOAWAY waits for the streams because
     * the JDK {@code HttpClient} of JDK 17 fails every open stream when it receives one, which would cut the
     * responses the stop means to let finish.
     */
    @Override
    public void drain() {
        deadlines.drain(reactor.drainStarted());
        if (state == Http2State.PREFACE) {
            close("stop");
            return;
        }
        if (state != Http2State.OPEN) {
            return;
        }
        moveTo(Http2State.DRAINING);
        closeWhenDrained();
        flushOutput();
    }

    @Override
    public void close(String reason) {
        if (state == Http2State.CLOSED) {
            return;
        }
        moveTo(Http2State.CLOSED);
        if (closeReason == null) {
            closeReason = reason;
        }
        reactor.wheel.cancel(this);
        reactor.releaseStaging(this);
        interest.cancel();
        channel.close();
        responses.connectionClosed("connection closed: " + closeReason);
        outbound.drop();
        telemetry.closing();
        reactor.closed(this);
        telemetry.closed(reason);
    }
}
