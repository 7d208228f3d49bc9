package dev.fleche.transport.internal.http1;

import dev.fleche.transport.ErrorRenderer;
import dev.fleche.transport.HttpFields;
import dev.fleche.transport.MinDataRate;
import dev.fleche.transport.http1.RequestHead;
import dev.fleche.transport.internal.channel.ConnectionChannel;
import dev.fleche.transport.internal.channel.FileRegion;
import dev.fleche.transport.internal.exchange.ResponseHead;
import dev.fleche.transport.internal.exchange.Responses;
import dev.fleche.transport.internal.loop.ByteSink;
import dev.fleche.transport.internal.loop.Reactor;
import dev.fleche.transport.internal.loop.WriteQueue;
import dev.fleche.transport.internal.rules.RateWindow;

import java.nio.ByteBuffer;

/**
 * The outbound part of an HTTP/1.1 connection: the connection's {@link WriteQueue}, into which it frames responses
 * (whole, streamed, {@code 100 Continue}, refusals, a head whose body is a {@link FileRegion}) with the reactor's
 * {@link ResponseEncoder}. It holds the framing of the response in flight (streamed, chunked, closing) and the
 * minimum response rate's window; the connection takes one when it has something to frame and lets it go once all is
 * written (an idle keep-alive connection holds none). It never decides the connection's state. Reactor thread only,
 * except {@link #queuedBytes()}, read by blocked writers.
 */
public final class Outbound extends WriteQueue {
    private final ResponseEncoder encoder;
    private final ErrorRenderer renderer;

    // the response in flight
    private boolean streamBody;
    private boolean streamChunked;
    private boolean streamCloses;
    /** The minimum response rate's window, made the first time bytes wait for the client (null until then). */
    private RateWindow rate;

    public Outbound(Reactor reactor, ConnectionChannel channel, Reactor.Attachment owner, ResponseEncoder encoder) {
        super(reactor, channel, owner);
        this.encoder = encoder;
        this.renderer = reactor.options.errorRenderer();
    }

    /** A new exchange starts: forgets the previous response's framing. */
    void newExchange() {
        streamBody = false;
        streamChunked = false;
        streamCloses = false;
    }

    // ---------------------------------------------------------------- framing

    /** Frames a whole response to {@code request}. */
    void whole(RequestHead request, int status, String reason, HttpFields fields, byte[] body, boolean close) {
        boolean isHead = isHead(request);
        encoder.encodeHead(stage(), status, reason, fields, body.length, false, close, keepAliveOn10(request),
                isHead);
        if (!isHead && Responses.bodyAllowed(status)) {
            raw(body, 0, body.length);
        }
    }

    /** Frames a whole response to {@code request}, its body the remaining bytes of {@code body} (queued as it is). */
    void buffer(RequestHead request, int status, HttpFields fields, ByteBuffer body, boolean close) {
        boolean isHead = isHead(request);
        encoder.encodeHead(stage(), status, null, fields, body.remaining(), false, close, keepAliveOn10(request),
                isHead);
        if (!isHead && Responses.bodyAllowed(status)) {
            raw(body);
        }
    }

    /** Frames the head of a streamed response; RFC 9112 6.1: no chunked coding towards an HTTP/1.0 client. */
    void streamHead(RequestHead request, ResponseHead head, boolean close) {
        boolean chunked = head.chunked() && request.minorVersion() != 0;
        boolean isHead = isHead(request);
        encoder.encodeHead(stage(), head.status(), head.reason(), head.fields(),
                head.contentLength(), chunked, close, keepAliveOn10(request), isHead);
        streamCloses = close;
        streamBody = !isHead && Responses.bodyAllowed(head.status());
        streamChunked = chunked && streamBody;
    }

    private static boolean isHead(RequestHead request) {
        return "HEAD".equals(request.method());
    }

    /** An HTTP/1.0 request that asked for keep-alive: the response says so. */
    private static boolean keepAliveOn10(RequestHead request) {
        return request.minorVersion() == 0 && request.keepAlive();
    }

    /** Frames a part of a streamed body (dropped when the response has no body, or its head was refused). */
    void streamData(byte[] data, int length) {
        if (length > 0 && streamBody) {
            if (streamChunked) {
                ByteSink sink = stage();
                sink.putHex(length);
                sink.put(ResponseEncoder.CRLF);
                raw(data, 0, length);
                stage().put(ResponseEncoder.CRLF);
            } else {
                raw(data, 0, length);
            }
        }
    }

    /** Ends a streamed body; returns whether the connection closes after it. */
    boolean streamEnd() {
        if (streamChunked) {
            stage().putAscii("0\r\n\r\n");
        }
        return streamCloses;
    }

    /**
     * Frames the head of a response whose body is {@code region} of a file, and queues the region behind it: the
     * file goes from its channel to the socket ({@link FileRegion}). Plain channels only (the connection decides).
     * A response to {@code HEAD} gets the head alone, and the region is closed.
     */
    void file(RequestHead request, int status, HttpFields fields, FileRegion region, boolean close) {
        boolean isHead = isHead(request);
        encoder.encodeHead(stage(), status, null, fields, region.remaining(), false, close,
                keepAliveOn10(request), isHead);
        if (isHead || !Responses.bodyAllowed(status) || region.done()) {
            region.close();
            return;
        }
        file(region);
    }

    /** Frames a refusal of the transport's own; the connection closes after it. */
    void refusal(int status, String reason, boolean head) {
        encoder.encodeRefusal(stage(), status, reason, renderer, null, head);
        streamCloses = true;
    }

    /** Frames {@code 100 Continue} (the connection asks once per exchange). */
    void sendContinue() {
        stage().put(ResponseEncoder.CONTINUE);
    }

    // ---------------------------------------------------------------- minimum data rate

    /** The rate window, made on first use; null when {@code min} is null (the rate is off). */
    RateWindow rateWindow(MinDataRate min) {
        return rate != null ? rate : (rate = RateWindow.of(min));
    }

    /** The rate window, or null when none was made. */
    RateWindow rate() {
        return rate;
    }
}
