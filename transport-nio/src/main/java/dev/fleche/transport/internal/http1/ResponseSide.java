package dev.fleche.transport.internal.http1;

import dev.fleche.transport.HttpFields;
import dev.fleche.transport.RequestBodyException;
import dev.fleche.transport.ServerOptions;
import dev.fleche.transport.internal.channel.ConnectionChannel;
import dev.fleche.transport.internal.channel.FileRegion;
import dev.fleche.transport.internal.exchange.Exchange;
import dev.fleche.transport.internal.exchange.ResponseHead;
import dev.fleche.transport.internal.loop.Reactor;
import dev.fleche.transport.internal.rules.RateWindow;
import dev.fleche.transport.internal.rules.Refusal;
import dev.fleche.transport.internal.telemetry.Telemetry;

import java.io.IOException;
import java.nio.ByteBuffer;

/**
 * The response side of an HTTP/1.1 connection, only while there is one: the {@link Outbound} taken when a response,
 * {@code 100 Continue} or refusal is framed (or the channel holds bytes of its own), let go once it is written with no
 * exchange in flight — an idle keep-alive connection holds none (~48 bytes less each); what it holds (staged, queued,
 * pending, against the high-water mark), its writes (what left counted, against its minimum response rate) and that
 * rate. It frames the handler's heads and, when one is invalid (a field value with CR or LF: the handler's fault), a
 * {@code 500} in its place, dropping only the partial head; and the transport's refusals. Whether a response closes the
 * connection, and what follows it, is the connection's: this part returns whether the handler's head went out. Never
 * names the connection; reactor thread only, except {@link #queuedBytes()}.
 *
 * <pre>
 *   none ─ out() ─▶ held ─ written, no exchange in flight (letGoIfIdle) ─▶ none
 *                   held ─ drop() (closed), forget() (the socket went to HTTP/2) ─▶ none
 * </pre>
 */
final class ResponseSide {
    private final Reactor reactor;
    private final ConnectionChannel channel;
    private final Reactor.Attachment owner;
    private final ResponseEncoder encoder;
    private final ServerOptions options;
    private final Telemetry telemetry;
    /** The response side while there is one, else null (read on writers' threads by {@link #queuedBytes()}). */
    private Outbound outbound;

    ResponseSide(Reactor reactor, ConnectionChannel channel, Reactor.Attachment owner, ResponseEncoder encoder,
            Telemetry telemetry) {
        this.reactor = reactor;
        this.channel = channel;
        this.owner = owner;
        this.encoder = encoder;
        this.options = reactor.options;
        this.telemetry = telemetry;
    }

    /** The response side, taken when something is to be framed. */
    Outbound out() {
        Outbound out = outbound;
        if (out == null) {
            out = new Outbound(reactor, channel, owner, encoder);
            outbound = out;
        }
        return out;
    }

    /** The response side if one is held, else null. */
    Outbound held() {
        return outbound;
    }

    /**
     * Lets the response side go once everything is written and no exchange is in flight ({@code inFlight}): the next
     * response takes a new one; its framing starts fresh anyway.
     */
    void letGoIfIdle(Exchange inFlight) {
        if (inFlight == null && outbound != null && !outbound.pending()) {
            outbound = null;
        }
    }

    /** Response bytes produced and not yet taken by the socket. */
    long bytes() {
        Outbound out = outbound;
        return out == null ? 0 : out.unsentBytes();
    }

    /** Whether the bytes waiting for the client are at {@code outboundHighWaterBytes}: a pipelined request waits. */
    boolean atHighWater() {
        return bytes() >= options.outboundHighWaterBytes();
    }

    /** Whether the client took the bytes waiting for it down to half the mark: a held pipelined request goes on. */
    boolean drainedToHalf() {
        return bytes() <= options.outboundHighWaterBytes() / 2;
    }

    /** Whether response bytes wait in the queue or in the channel. */
    boolean queued() {
        Outbound out = outbound;
        return out != null && out.queued();
    }

    /** Whether response bytes wait anywhere: staged, queued or in the channel. */
    boolean pending() {
        Outbound out = outbound;
        return out != null && out.pending();
    }

    /** Nothing waits for the client: the minimum response rate stops. */
    void stopRate() {
        Outbound out = outbound;
        if (out != null) {
            RateWindow.stop(out.rate());
        }
    }

    /** The minimum response rate's window, or null. */
    RateWindow rate() {
        Outbound out = outbound;
        return out == null ? null : out.rate();
    }

    /**
     * Bytes waited for the client: its minimum response rate runs from {@code now}, unless it runs already; returns
     * when the window is due, or {@link Long#MIN_VALUE} when it runs already or no rate is set.
     */
    long startRate(long now) {
        RateWindow rate = outbound.rateWindow(options.minResponseRate());
        if (rate == null || rate.running()) {
            return Long.MIN_VALUE;
        }
        rate.start(now);
        return rate.due();
    }

    /**
     * Writes what is staged and queued, and what the channel holds of its own (TLS records): with none of those sent
     * in full, a response side is taken so that the connection asks for {@code OP_WRITE}. Returns the response bytes
     * written, counted ({@link #written}) for {@code inFlight}, the exchange in flight (if any).
     */
    long flush(Exchange inFlight) throws IOException {
        Outbound out = outbound;
        if (out == null && !channel.flush()) {
            out = out(); // the channel could not send bytes of its own: ask for OP_WRITE
        }
        long written = out == null ? 0 : out.flush();
        if (written > 0) {
            written(written, inFlight);
        }
        return written;
    }

    /**
     * {@code n} response bytes left for the client: counted, against the response rate, and a writer blocked on
     * {@code inFlight}, the exchange in flight (if any), may go on.
     */
    private void written(long n, Exchange inFlight) {
        telemetry.written(n);
        RateWindow.add(outbound.rate(), n); // bytes left: the response side is there
        if (inFlight != null) {
            inFlight.outboundWritten();
        }
    }

    /** Queued response bytes of this connection, for writers waiting on any thread. */
    long queuedBytes() {
        Outbound out = outbound; // read on writers' threads: a stale or absent one means nothing queued for them
        return out == null ? 0 : out.queuedBytes();
    }

    /** The socket went to HTTP/2 (nothing was framed yet): let go, nothing dropped. */
    void forget() {
        outbound = null;
    }

    /** The connection closed: what is held is dropped. */
    void drop() {
        if (outbound != null) {
            outbound.drop();
            outbound = null;
        }
    }

    // ---------------------------------------------------------------- framing the transport's refusals

    /**
     * Frames the transport's refusal ({@code status}, {@code reason}, {@code rule}) in answer to {@code current}, the
     * exchange in flight (null before one began). Its body's reads fail with the refusal, its response claimed for it
     * first (unless {@code claimed} already): a handler woken by the failure could otherwise answer first (e.g.
     * {@code 500}), and the client would see a close instead of this status. Returns false when the handler's own
     * answer had begun: nothing is framed, and the connection closes.
     */
    boolean refusal(Exchange current, int status, String reason, String rule, boolean claimed) {
        if (current != null) {
            boolean ours = claimed || current.claimResponse() || current.refusalClaimed();
            current.bodyRefused(new RequestBodyException(status, rule, reason));
            if (!ours) {
                return false;
            }
        }
        telemetry.refusalFraming(rule, status, bytes());
        out().refusal(status, reason, current != null && current.isHead());
        telemetry.responded(status);
        telemetry.responseFramed(bytes());
        return true;
    }

    // ---------------------------------------------------------------- framing the handler's heads

    /**
     * Frames a whole response of {@code ex}; false when its head was invalid and a {@code 500} went in its place
     * (the connection closes after it).
     */
    boolean whole(Exchange ex, int status, String reason, HttpFields fields, byte[] body, boolean close) {
        int mark = out().mark();
        try {
            out().whole(ex.head(), status, reason, fields, body, close);
        } catch (IllegalArgumentException e) {
            invalidHead(ex, mark, e);
            return false;
        }
        telemetry.responded(status);
        return true;
    }

    /** Frames the whole response of {@code ex}, its body the remaining bytes of {@code body}; false as {@link #whole}. */
    boolean buffer(Exchange ex, int status, HttpFields fields, ByteBuffer body, boolean close) {
        int mark = out().mark();
        try {
            out().buffer(ex.head(), status, fields, body, close);
        } catch (IllegalArgumentException e) {
            invalidHead(ex, mark, e);
            return false;
        }
        telemetry.responded(status);
        return true;
    }

    /** Frames the whole response of {@code ex}, its body {@code region}; false as {@link #whole} (region closed). */
    boolean file(Exchange ex, int status, HttpFields fields, FileRegion region, boolean close) {
        int mark = out().mark();
        try {
            out().file(ex.head(), status, fields, region, close);
        } catch (IllegalArgumentException e) {
            region.close();
            invalidHead(ex, mark, e);
            return false;
        }
        telemetry.responded(status);
        return true;
    }

    /** Frames the head of a streamed response of {@code ex}; false as {@link #whole} (later parts find no body). */
    boolean streamHead(Exchange ex, ResponseHead head, boolean close) {
        int mark = out().mark();
        try {
            out().streamHead(ex.head(), head, close);
        } catch (IllegalArgumentException e) {
            invalidHead(ex, mark, e);
            return false;
        }
        telemetry.responded(head.status());
        return true;
    }

    /**
     * The handler's response head is invalid (e.g. a field value with CR or LF): {@code 500} in its place. Only the
     * partial head is dropped; bytes staged before {@code mark} (an earlier pipelined response) stay.
     */
    private void invalidHead(Exchange ex, int mark, IllegalArgumentException e) {
        telemetry.handlerFailed(e);
        Outbound out = out();
        out.truncate(mark);
        Refusal refusal = Refusal.INVALID_RESPONSE_HEAD;
        telemetry.refusalFraming(refusal.name(), refusal.status(), bytes());
        out.refusal(refusal.status(), refusal.reason(options), ex.isHead());
        telemetry.responded(refusal.status());
    }
}
