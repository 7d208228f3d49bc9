package dev.fleche.transport.internal.http1;

import dev.fleche.transport.ServerOptions;
import dev.fleche.transport.http1.ChunkedDecoder;
import dev.fleche.transport.http1.RequestHead;
import dev.fleche.transport.internal.channel.ConnectionChannel;
import dev.fleche.transport.internal.exchange.BodyInput;
import dev.fleche.transport.internal.exchange.ConnectionDoor;
import dev.fleche.transport.internal.exchange.Exchange;
import dev.fleche.transport.internal.rules.RateWindow;
import dev.fleche.transport.internal.telemetry.Telemetry;

import java.io.IOException;
import java.nio.ByteBuffer;

/**
 * The request body in flight, as an HTTP/1.1 connection takes it in; its decoder is the {@link RequestBody} of
 * {@link Inbound}. How a body begins ({@link #begin}: refused at once when its {@code Content-Length} is over the
 * limit, gathered whole when small, else streamed to the handler through a {@link BodyInput}, after
 * {@code 100 Continue} when the client waits for it), the bytes it takes (counted, against the minimum request-body
 * rate, into the handler's window; read straight into the handler's stream when they can be), the rate's window
 * started, and the tighter limit a handler that buffers the body asks for. It returns what happened; the connection
 * moves its state, pauses reading, refuses and dispatches. Never names the connection; reactor thread only.
 */
final class BodyIntake {
    /** How a body begins: what the connection's next state is. */
    enum Start {
        /** Its {@code Content-Length} is over the limit: refused before a byte of it is read. */
        TOO_LARGE,
        /** Small, with a {@code Content-Length}: gathered whole, then the handler is called (READING_BODY). */
        GATHERED,
        /** Streamed to the handler as it arrives (STREAMING_BODY). */
        STREAMED,
        /** Streamed once {@code 100 Continue} is sent: the client waits for it (EXPECTING_CONTINUE). */
        EXPECTING_CONTINUE
    }

    private final ServerOptions options;
    private final Inbound inbound;
    private final ConnectionDoor door;
    private final Telemetry telemetry;

    BodyIntake(ServerOptions options, Inbound inbound, ConnectionDoor door, Telemetry telemetry) {
        this.options = options;
        this.inbound = inbound;
        this.door = door;
        this.telemetry = telemetry;
    }

    /** The head of {@code ex} announced a body: how it begins (the decoder is set up for it unless TOO_LARGE). */
    Start begin(Exchange ex) {
        RequestHead head = ex.head();
        long length = head.contentLength();
        if (length > options.bodyLimit()) {
            return Start.TOO_LARGE;
        }
        RequestBody body = inbound.body();
        if (!head.chunked() && length <= options.bodyAggregationBytes() && !head.expectContinue()) {
            body.aggregate((int) length);
            return Start.GATHERED;
        }
        BodyInput input = new BodyInput(door, ex.stream(), ex::bodyOverLimit, options.inboundWindowBytes(),
                head.expectContinue());
        ChunkedDecoder chunked = head.chunked() ? new ChunkedDecoder(options.maxRequestLineBytes(),
                options.maxHeaderBytes(), options.maxHeaderCount()) : null;
        body.stream(input, chunked, head.contentLength(), options.bodyLimit());
        if (chunked == null) {
            input.expect(head.contentLength());
        }
        ex.bodyStreaming(input);
        return head.expectContinue() ? Start.EXPECTING_CONTINUE : Start.STREAMED;
    }

    /**
     * Starts (or restarts) the body's minimum-rate window at {@code now} (the client owes body bytes); returns when it
     * is due, or {@link Long#MIN_VALUE} when no rate is set.
     */
    long startRate(long now) {
        RateWindow rate = inbound.body().rateWindow(options.minRequestBodyRate());
        if (rate == null) {
            return Long.MIN_VALUE;
        }
        rate.start(now);
        return rate.due();
    }

    /**
     * Reads from {@code channel} straight into {@code target}, the handler's stream (no copy by the transport);
     * returns the bytes read, counted as read and given to the stream ({@code -1}: the client's end).
     */
    int readDirect(ConnectionChannel channel, ByteBuffer target) throws IOException {
        int n = channel.read(target);
        if (n > 0) {
            telemetry.read(n);
            inbound.body().directFilled(target, n);
        }
        return n;
    }

    /**
     * {@code n} bytes of the body were taken (fed, or read straight into the handler's stream): counted and against
     * the rate. Returns whether they filled the handler's window (reading pauses); the decoder's
     * {@link RequestBody#mode} then says whether the body is complete or too large.
     */
    boolean taken(int n) {
        RequestBody body = inbound.body();
        telemetry.bodyBytes(n);
        RateWindow.add(body.rate(), n);
        return body.takeWindowFull();
    }

    /**
     * The handler buffers the streamed body: it gets the tighter {@code limit}; returns whether what is known of it
     * already goes beyond (then it is refused now).
     */
    boolean lowerLimit(long limit) {
        RequestBody body = inbound.body();
        body.lower(limit);
        return !body.fits(limit);
    }
}
