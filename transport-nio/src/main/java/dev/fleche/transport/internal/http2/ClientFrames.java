package dev.fleche.transport.internal.http2;

import dev.fleche.transport.ServerOptions;
import dev.fleche.transport.http1.RequestHead;
import dev.fleche.transport.internal.telemetry.Telemetry;

import java.nio.ByteBuffer;
import java.util.function.Consumer;

/**
 * What each frame from the client does, once the {@link FrameReader} checked it as a frame: the flood budgets charged
 * ({@link Http2Budgets}: empty DATA, PRIORITY, SETTINGS after the first, SETTINGS ACK, PING, unknown types, and the
 * client's resets); HEADERS, CONTINUATION and DATA handed to the {@link StreamRequests}; the client's SETTINGS
 * recorded and applied once per frame ({@link PeerSettings}, a new initial window changing every stream's), and
 * acknowledged; a PING answered; a WINDOW_UPDATE given to the {@link FlowControl} and the streams it opens pumped
 * ({@link StreamResponses}); an RST_STREAM dropping its stream; a GOAWAY told. It also writes our SETTINGS, the first
 * frames out, and applies an upgrade's {@code HTTP2-Settings}. Its state is the parts'; what changes the connection's
 * state (the preface ended, the client going away, a stream dropped) and writing a control frame it asks of its
 * {@link Listener}. Never names the connection; reactor thread only.
 */
final class ClientFrames implements FrameReader.Listener {
    /** What the connection decides for the client's frames. */
    interface Listener {
        /** The reactor's time now. */
        long now();

        /** The client's SETTINGS arrived: true when they end its preface (the connection opens), else false. */
        boolean prefaceEnded();

        /** The client sent GOAWAY: it opens no more streams. */
        void clientGoingAway();

        /** {@code s} is forgotten: its queued bytes dropped, its exchange told the client left ({@code why}). */
        void dropStream(H2Stream s, String why);

        /** Writes a control frame of {@code size} bytes that {@code writer} encodes (nothing once closed). */
        void writeControl(int size, Consumer<ByteBuffer> writer);
    }

    private final ServerOptions options;
    private final StreamTable streams;
    private final StreamRequests requests;
    private final StreamResponses responses;
    private final FlowControl flow;
    private final PeerSettings peerSettings;
    private final Http2Budgets budgets;
    private final Http2Framer framer;
    private final Telemetry telemetry;
    private final Listener listener;

    ClientFrames(ServerOptions options, StreamTable streams, StreamRequests requests, StreamResponses responses,
            FlowControl flow, PeerSettings peerSettings, Http2Budgets budgets, Http2Framer framer,
            Telemetry telemetry, Listener listener) {
        this.options = options;
        this.streams = streams;
        this.requests = requests;
        this.responses = responses;
        this.flow = flow;
        this.peerSettings = peerSettings;
        this.budgets = budgets;
        this.framer = framer;
        this.telemetry = telemetry;
        this.listener = listener;
    }

    /**
     * The request of an {@code Upgrade: h2c} becomes stream 1, half-closed (remote) (RFC 9113 3.2 in RFC 7540),
     * after the client's {@code HTTP2-Settings} are applied.
     */
    void upgraded(RequestHead head, ByteBuffer settings) throws Http2Exception {
        while (settings.remaining() >= 6) {
            int identifier = settings.getShort() & 0xFFFF;
            long value = settings.getInt() & 0xFFFF_FFFFL;
            FrameReader.checkSetting(identifier, value);
            peerSettings.entry(identifier, value);
        }
        peerSettings.end(framer); // no stream is open yet
        requests.upgraded(head, listener.now());
    }

    /** Our SETTINGS, and the connection window's first increment: the first frames we send. */
    void sendSettings() {
        long[] pairs = {
            Frames.SETTINGS_MAX_CONCURRENT_STREAMS, options.http2MaxConcurrentStreams(),
            Frames.SETTINGS_INITIAL_WINDOW_SIZE, options.http2InitialWindowBytes(),
            Frames.SETTINGS_MAX_FRAME_SIZE, options.http2MaxFrameBytes(),
            Frames.SETTINGS_MAX_HEADER_LIST_SIZE, options.maxHeaderBytes(),
            Frames.SETTINGS_HEADER_TABLE_SIZE, options.http2HeaderTableBytes(),
            Frames.SETTINGS_ENABLE_PUSH, 0,
        };
        listener.writeControl(Frames.HEADER_BYTES + pairs.length * 3, out -> FrameWriter.settings(out, pairs));
        listener.writeControl(13, out -> FrameWriter.windowUpdate(out, 0, FlowControl.initialIncrement()));
    }


    @Override
    public void data(int stream, ByteBuffer payload, int flowLength, boolean endStream) throws Http2Exception {
        if (flowLength == 0 && !endStream) {
            budgets.controlFrame(listener.now(), "empty DATA");
        }
        requests.data(stream, payload, flowLength, endStream, listener.now());
    }

    @Override
    public void headers(int stream, ByteBuffer fragment, boolean endStream, boolean endHeaders)
            throws Http2Exception {
        requests.headers(stream, fragment, endStream, endHeaders, listener.now());
    }

    @Override
    public void continuation(int stream, ByteBuffer fragment, boolean endHeaders) throws Http2Exception {
        requests.continuation(fragment, endHeaders, listener.now());
    }

    @Override
    public void priority(int stream) throws Http2Exception {
        budgets.controlFrame(listener.now(), "PRIORITY");
    }

    @Override
    public void unknown(int type, int stream) throws Http2Exception {
        budgets.controlFrame(listener.now(), "unknown frame");
    }

    @Override
    public void rstStream(int stream, int errorCode) throws Http2Exception {
        if (streams.idle(stream)) {
            throw Http2Exception.connection(Http2Error.PROTOCOL_ERROR, "RST_STREAM on idle stream " + stream);
        }
        budgets.reset(listener.now(), "RST_STREAM from the client (rapid reset)");
        H2Stream s = streams.get(stream);
        if (s != null) {
            telemetry.streamReset(stream, Http2Error.describe(errorCode), true);
            listener.dropStream(s, "stream reset by the client: " + Http2Error.describe(errorCode));
        }
    }

    /** One entry of a SETTINGS frame: recorded, the last value of a parameter winning; applied at the frame's end. */
    @Override
    public void setting(int identifier, long value) {
        peerSettings.entry(identifier, value);
    }

    @Override
    public void settingsEnd() throws Http2Exception {
        if (!listener.prefaceEnded()) {
            budgets.controlFrame(listener.now(), "SETTINGS");
        }
        listener.writeControl(9, FrameWriter::settingsAck);
        long delta = peerSettings.end(framer);
        if (delta != 0) {
            initialWindowChanged(delta);
        }
    }

    /**
     * RFC 9113 6.9.2: a new {@code SETTINGS_INITIAL_WINDOW_SIZE} changes every open stream's send window by
     * {@code delta}, once per frame; a stream whose window opened sends what it holds back.
     */
    private void initialWindowChanged(long delta) throws Http2Exception {
        for (H2Stream s : streams.all()) { // (a stream that ends while pumped leaves the map: allowed here)
            telemetry.http2StreamWindowChanged();
            flow.initialWindowChanged(s, delta);
            if (delta > 0 && s.blocked() && !s.waitsForConnection) {
                responses.pump(s);
            }
        }
    }

    @Override
    public void settingsAck() throws Http2Exception {
        budgets.controlFrame(listener.now(), "SETTINGS ACK");
    }

    @Override
    public void ping(long opaque, boolean ack) throws Http2Exception {
        budgets.controlFrame(listener.now(), "PING");
        if (!ack) {
            listener.writeControl(17, out -> FrameWriter.ping(out, opaque, true));
        }
    }

    @Override
    public void goAway(int lastStream, int errorCode) {
        telemetry.goAwayReceived(lastStream, Http2Error.describe(errorCode));
        listener.clientGoingAway();
    }

    @Override
    public void windowUpdate(int stream, int increment) throws Http2Exception {
        if (stream == 0) {
            flow.connectionUpdate(increment, listener.now());
            responses.wakeWaiting(); // only the streams waiting for the connection
            return;
        }
        H2Stream s = streams.get(stream);
        if (s == null) {
            flow.otherUpdate(listener.now());
            if (streams.idle(stream)) {
                throw Http2Exception.connection(Http2Error.PROTOCOL_ERROR, "WINDOW_UPDATE on idle stream " + stream);
            }
            return; // a closed stream: ignored
        }
        flow.streamUpdate(s, increment, listener.now());
        if (!s.waitsForConnection) {
            responses.pump(s); // (one waiting for the connection goes when the connection can send)
        }
    }
}
