package dev.fleche.transport.internal.http2;

import dev.fleche.transport.HttpFields;
import dev.fleche.transport.ServerOptions;
import dev.fleche.transport.http1.ProtocolRule;
import dev.fleche.transport.http1.RequestException;
import dev.fleche.transport.http1.RequestHead;
import dev.fleche.transport.internal.exchange.BodyInput;
import dev.fleche.transport.internal.exchange.ConnectionDoor;
import dev.fleche.transport.internal.exchange.Exchange;
import dev.fleche.transport.internal.http2.hpack.HpackDecoder;
import dev.fleche.transport.internal.http2.hpack.HpackException;
import dev.fleche.transport.internal.rules.RateWindow;
import dev.fleche.transport.internal.telemetry.Telemetry;

import java.nio.ByteBuffer;

/**
 * The request side of an HTTP/2 connection's streams: the client's HEADERS, CONTINUATION and DATA made into streams
 * and their bodies. A whole header block is decoded with the connection's HPACK decoder (always, to keep its table in
 * sync) and checked ({@link RequestFields}); a new stream's request becomes an {@link Exchange} whose body is none,
 * gathered whole ({@code bodyAggregationBytes}), or streamed to the handler ({@link BodyInput}); DATA is counted
 * against the windows ({@link FlowControl}), the {@code content-length} and the body limits, and delivered; trailers
 * end it. What only the connection may decide — calling the handler, refusing, resetting, a stream closed, a frame
 * to write, a timer to arm — it reports to its {@link Listener}, as the {@link FrameReader} reports frames. Never
 * names the connection; reactor thread only.
 *
 * <pre>
 *   HEADERS (+ CONTINUATION) ─ decoded, checked ─▶ new stream ─┬─ END_STREAM ────────────▶ dispatched
 *                                                              ├─ small content-length ─▶ gathered ─ END ─▶ dispatched
 *                                                              └─ else ─▶ dispatched, body streamed ─ END ─▶ ended
 *   on an open stream: trailers ─▶ the body ends;  DATA after the response ─▶ dropped, up to maxDiscardBytes
 * </pre>
 */
final class StreamRequests {
    /** What the connection decides for the streams' requests. */
    interface Listener {
        /** Whether a new stream is taken now (the connection's state decides). */
        Admission admission();

        /** The request of {@code s} is ready: its handler is called. */
        void dispatch(H2Stream s);

        /** A request refused by {@code rule} before it became a stream (its header list, its target). */
        void refuseAlone(int stream, ProtocolRule rule);

        /** The body of {@code s} is over {@code limit}. */
        void refuseTooLarge(H2Stream s, long limit);

        /** {@code stream} is reset with {@code error}. */
        void resetStream(int stream, Http2Error error, String why);

        /** {@code s} is closed both ways. */
        void streamClosed(H2Stream s);

        /** A WINDOW_UPDATE of {@code increment} on {@code stream} is to be written. */
        void sendWindowUpdate(int stream, int increment);

        /** The connection's timer must fire by {@code deadline} ({@link Long#MIN_VALUE}: no deadline). */
        void armTimer(long deadline);
    }

    /** Whether the connection takes a new stream: yes, ignores it (after its GOAWAY), or refuses it (stopping). */
    enum Admission { ACCEPT, IGNORE, REFUSE }

    private final ServerOptions options;
    private final StreamTable streams;
    private final FlowControl flow;
    private final StreamTimers timers;
    private final PeerSettings peerSettings;
    private final ConnectionDoor door;
    private final Telemetry telemetry;
    private final Listener listener;
    /** The header block in progress (HEADERS then CONTINUATIONs), bounded before decoding. */
    private final HeaderBlock block;
    private final HpackDecoder decoder;

    StreamRequests(ServerOptions options, StreamTable streams, FlowControl flow, StreamTimers timers,
            PeerSettings peerSettings, ConnectionDoor door, Telemetry telemetry, Listener listener) {
        this.options = options;
        this.streams = streams;
        this.flow = flow;
        this.timers = timers;
        this.peerSettings = peerSettings;
        this.door = door;
        this.telemetry = telemetry;
        this.listener = listener;
        this.block = new HeaderBlock(options.maxHeaderBytes() * 2, options.http2MaxContinuationFrames());
        this.decoder = new HpackDecoder(options.http2HeaderTableBytes(), options.maxHeaderBytes());
    }

    // ---------------------------------------------------------------- streams

    /**
     * The request of an {@code Upgrade: h2c} becomes stream 1, half-closed (remote) (RFC 9113 3.2 in RFC 7540); the
     * client's {@code HTTP2-Settings} were applied before.
     */
    void upgraded(RequestHead head, long now) throws Http2Exception {
        streams.opening(1);
        streams.processed(1);
        H2Stream s = new H2Stream(1, true, peerSettings.initialWindow(), flow.streamReceiveWindow());
        streams.open(s);
        s.exchange = new Exchange(door, 1, asHttp2(head));
        started(s, now);
        listener.dispatch(s);
    }

    /**
     * The upgraded HTTP/1.1 request as stream 1 sees it: HTTP/2, without the fields of the upgrade and of the
     * HTTP/1.1 connection (RFC 9113 8.2.2). It was checked as HTTP/1.1 already, so its target is valid.
     */
    private static RequestHead asHttp2(RequestHead head) {
        HttpFields fields = new HttpFields(head.headers().size());
        head.headers().forEach((name, value) -> {
            if (!name.equalsIgnoreCase("Connection") && !name.equalsIgnoreCase("Upgrade")
                    && !name.equalsIgnoreCase("HTTP2-Settings") && !name.equalsIgnoreCase("Keep-Alive")) {
                fields.add(name, value);
            }
        });
        try {
            return RequestHead.http2(head.method(), head.target(), head.host(), fields, -1, false, false);
        } catch (RequestException e) {
            return head; // an absolute-form target: served as it came
        }
    }

    /** A HEADERS frame: a header block begins. */
    void headers(int stream, ByteBuffer fragment, boolean endStream, boolean endHeaders, long now)
            throws Http2Exception {
        if ((stream & 1) == 0) {
            throw Http2Exception.connection(Http2Error.PROTOCOL_ERROR, "HEADERS on even stream " + stream);
        }
        block.begin(stream, endStream, fragment);
        if (endHeaders) {
            headerBlockDone(now);
        }
    }

    /** A CONTINUATION frame: the header block goes on. */
    void continuation(ByteBuffer fragment, boolean endHeaders, long now) throws Http2Exception {
        block.continuation(fragment);
        if (endHeaders) {
            headerBlockDone(now);
        }
    }

    /** A whole header block: decoded (always, to keep HPACK in sync), then a new stream or trailers. */
    private void headerBlockDone(long now) throws Http2Exception {
        int stream = block.stream();
        H2Stream open = streams.get(stream);
        boolean trailers = open != null;
        RequestFields fields = new RequestFields(trailers);
        boolean tooLarge = false;
        try {
            decoder.decode(block.encoded(), fields);
        } catch (HpackException e) {
            if (e.kind() == HpackException.Kind.COMPRESSION_ERROR) {
                throw Http2Exception.connection(Http2Error.COMPRESSION_ERROR, "HPACK: " + e.getMessage());
            }
            tooLarge = true;
        }
        block.decoded();
        if (trailers) {
            trailersReceived(open, fields, tooLarge);
        } else {
            newStream(stream, fields, tooLarge, now);
        }
    }

    private void trailersReceived(H2Stream s, RequestFields fields, boolean tooLarge) throws Http2Exception {
        if (!s.remoteOpen()) {
            throw Http2Exception.stream(s.id, Http2Error.STREAM_CLOSED, "HEADERS after END_STREAM on stream " + s.id);
        }
        if (!block.endStream()) {
            throw Http2Exception.stream(s.id, Http2Error.PROTOCOL_ERROR, "trailers without END_STREAM (RFC 9113 8.1)");
        }
        if (tooLarge) {
            throw Http2Exception.stream(s.id, Http2Error.PROTOCOL_ERROR, "trailers larger than the header limit");
        }
        fields.check(s.id);
        remoteEnded(s, fields.fields());
    }

    private void newStream(int stream, RequestFields fields, boolean tooLarge, long now) throws Http2Exception {
        streams.opening(stream);
        switch (listener.admission()) {
            case IGNORE -> {
                return; // after our GOAWAY: ignored (RFC 9113 6.8)
            }
            case REFUSE -> {
                streams.remember(stream);
                throw Http2Exception.stream(stream, Http2Error.REFUSED_STREAM, "the server is stopping");
            }
            case ACCEPT -> { }
        }
        if (streams.size() >= options.http2MaxConcurrentStreams()) {
            streams.remember(stream);
            throw Http2Exception.stream(stream, Http2Error.REFUSED_STREAM,
                    "more than " + options.http2MaxConcurrentStreams() + " concurrent streams");
        }
        streams.processed(stream); // acted on from here: served, answered or reset (not refused unprocessed)
        if (tooLarge) {
            listener.refuseAlone(stream, ProtocolRule.HEADER_SECTION_TOO_LARGE);
            return;
        }
        fields.check(stream);
        if (requestLineLength(fields.method(), fields.path()) > options.maxRequestLineBytes()) {
            // the same limit as HTTP/1.1's request line, so that a target refused there is refused here too
            listener.refuseAlone(stream, ProtocolRule.REQUEST_LINE_TOO_LONG);
            return;
        }
        long length = fields.contentLength();
        if (block.endStream() && length > 0) {
            throw Http2Exception.stream(stream, Http2Error.PROTOCOL_ERROR, "content-length without DATA");
        }
        String expect = fields.fields().get("expect");
        boolean expectContinue = !block.endStream() && expect != null && expect.equalsIgnoreCase("100-continue");
        RequestHead head;
        try {
            head = RequestHead.http2(fields.method(), fields.path(), fields.authority(), fields.fields(), length,
                    !block.endStream(), expectContinue);
        } catch (RequestException e) {
            throw Http2Exception.stream(stream, Http2Error.PROTOCOL_ERROR, "malformed :path or :authority: " + e.rule());
        }
        startExchange(stream, head, length, expectContinue, now);
    }

    /** Whether the client ended the stream with the header block last read (a whole request, or trailers). */
    boolean lastBlockEndedStream() {
        return block.endStream();
    }

    /** The length of the HTTP/1.1 request line this request would have had ({@code GET /path HTTP/1.1}). */
    private static long requestLineLength(String method, String path) {
        return (long) method.length() + 1 + path.length() + " HTTP/1.1".length();
    }

    private void startExchange(int stream, RequestHead head, long length, boolean expectContinue, long now) {
        H2Stream s = new H2Stream(stream, block.endStream(), peerSettings.initialWindow(), flow.streamReceiveWindow());
        s.expectedLength = length;
        long bodyDue = timers.bodyOwed(s, now);
        s.awaitingContinue = expectContinue;
        streams.open(s);
        if (!block.endStream()) {
            listener.armTimer(bodyDue);
            if (!expectContinue) {
                listener.armTimer(timers.startBodyRate(s, now));
            }
        }
        Exchange ex = new Exchange(door, stream, head);
        s.exchange = ex;
        started(s, now);
        if (block.endStream()) {
            listener.dispatch(s);
            return;
        }
        if (length > options.bodyLimit()) {
            listener.refuseTooLarge(s, options.bodyLimit());
            return;
        }
        if (length >= 0 && length <= options.bodyAggregationBytes() && !expectContinue) {
            s.aggregate = new byte[(int) length]; // dispatched once the body is whole
            return;
        }
        BodyInput input = new BodyInput(door, stream, ex::bodyOverLimit, options.inboundWindowBytes(), expectContinue);
        s.body = input;
        ex.bodyStreaming(input);
        listener.dispatch(s);
    }

    /** The request of {@code s} began at {@code now}: told, and its access-log entry (if any) begins. */
    private void started(H2Stream s, long now) {
        s.log = telemetry.streamStarted(s.exchange.head(), now);
        s.exchange.logEntry = s.log;
    }

    // ---------------------------------------------------------------- bodies

    /** A DATA frame of {@code flowLength} (padding counted) with {@code payload} on {@code stream}, at {@code now}. */
    void data(int stream, ByteBuffer payload, int flowLength, boolean endStream, long now) throws Http2Exception {
        int update = flow.received(flowLength); // the connection's window, refilled as frames arrive
        if (update > 0) {
            listener.sendWindowUpdate(0, update);
        }
        H2Stream s = streams.get(stream);
        if (s == null) {
            if (streams.idle(stream)) {
                throw Http2Exception.connection(Http2Error.PROTOCOL_ERROR, "DATA on idle stream " + stream);
            }
            throw Http2Exception.stream(stream, Http2Error.STREAM_CLOSED, "DATA on closed stream " + stream);
        }
        if (!s.remoteOpen()) {
            throw Http2Exception.stream(stream, Http2Error.STREAM_CLOSED, "DATA after END_STREAM on stream " + stream);
        }
        s.bodySince = now;
        RateWindow.add(s.bodyRate, payload.remaining());
        flow.received(s, flowLength);
        int length = payload.remaining();
        s.received += length;
        if (s.expectedLength >= 0 && s.received > s.expectedLength) {
            throw Http2Exception.stream(stream, Http2Error.PROTOCOL_ERROR, "DATA beyond the content-length");
        }
        telemetry.bodyBytes(length);
        if (s.log != null) {
            s.log.bytesIn += length;
        }
        if (!s.localOpen()) {
            discard(s, length, endStream);
            return;
        }
        if (s.received > Math.min(s.bodyLimit, options.bodyLimit())) {
            listener.refuseTooLarge(s, Math.min(s.bodyLimit, options.bodyLimit()));
            return;
        }
        deliver(s, payload, length);
        if (endStream) {
            remoteEnded(s, null);
        } else if (!s.readerPaused) {
            giveBack(s, false);
        }
    }

    /** Body bytes after the response is complete: dropped, the window given back, up to maxDiscardBytes. */
    private void discard(H2Stream s, int length, boolean endStream) throws Http2Exception {
        s.discarded += length;
        if (s.discarded > options.maxDiscardBytes()) {
            listener.resetStream(s.id, Http2Error.NO_ERROR, "request body beyond maxDiscardBytes after the response");
            return;
        }
        if (endStream) {
            remoteEnded(s, null);
        } else {
            giveBack(s, false);
        }
    }

    /** Hands body bytes to the exchange: into the aggregate, or offered to the streamed body. */
    private static void deliver(H2Stream s, ByteBuffer payload, int length) {
        if (length == 0) {
            return;
        }
        if (s.aggregate != null) {
            payload.get(s.aggregate, (int) (s.received - length), length);
        } else if (s.body != null) {
            byte[] array = payload.array();
            if (s.body.offer(array, payload.arrayOffset() + payload.position(), length)) {
                s.readerPaused = true; // credit waits until the handler took half of its window
            }
        }
    }

    /** Gives the window of {@code s} back with WINDOW_UPDATE once half of it is owed (or {@code now}). */
    void giveBack(H2Stream s, boolean now) {
        int owed = flow.giveBack(s, now);
        if (owed > 0) {
            listener.sendWindowUpdate(s.id, owed);
        }
    }

    /** The client ended its side of {@code s} (END_STREAM on DATA or trailers). */
    private void remoteEnded(H2Stream s, HttpFields trailers) throws Http2Exception {
        if (s.expectedLength >= 0 && s.received != s.expectedLength) {
            throw Http2Exception.stream(s.id, Http2Error.PROTOCOL_ERROR,
                    "body of " + s.received + " bytes, content-length " + s.expectedLength);
        }
        s.moveTo(s.state == H2Stream.State.OPEN ? H2Stream.State.HALF_CLOSED_REMOTE : H2Stream.State.CLOSED);
        Exchange ex = s.exchange;
        if (!s.localOpen()) {
            // the response is out already; the body was dropped
        } else if (s.aggregate != null) {
            ex.bodyReceived(s.aggregate, trailers, s.received);
            s.aggregate = null;
            listener.dispatch(s);
        } else {
            ex.bodyReceived(null, trailers, s.received); // before the reader can see the end
            if (s.body != null) {
                s.body.end();
            }
        }
        if (s.state == H2Stream.State.CLOSED) {
            listener.streamClosed(s);
        }
    }
}
