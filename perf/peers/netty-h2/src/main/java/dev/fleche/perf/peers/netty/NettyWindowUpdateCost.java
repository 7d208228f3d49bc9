package dev.fleche.perf.peers.netty;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.embedded.EmbeddedChannel;
import io.netty.handler.codec.http2.AbstractHttp2ConnectionHandlerBuilder;
import io.netty.handler.codec.http2.DefaultHttp2Headers;
import io.netty.handler.codec.http2.Http2ConnectionDecoder;
import io.netty.handler.codec.http2.Http2ConnectionEncoder;
import io.netty.handler.codec.http2.Http2ConnectionHandler;
import io.netty.handler.codec.http2.Http2FrameAdapter;
import io.netty.handler.codec.http2.Http2Headers;
import io.netty.handler.codec.http2.Http2Settings;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * What a {@code WINDOW_UPDATE} on stream 0 costs Netty 4.2's HTTP/2 codec while responses wait, per frame: the twin of
 * Fleche's {@code dev.fleche.transport.internal.http2.WindowUpdateCost} (perf module), same scenario, same bytes, same
 * rounds, to compare the two on one machine (issue 36 asks for Fleche within 2x of Netty). The connection is the
 * {@link NettyH2Peer}'s shape (an {@link Http2ConnectionHandler} whose frame listener answers on the event loop) in an
 * {@link EmbeddedChannel}: 128 streams open whose 1 MiB answers wait, then batches of 1,000
 * {@code WINDOW_UPDATE(0, 1)} frames, each batch one read. Prints the median nanoseconds per frame over the measured
 * rounds.
 *
 * <pre>
 *   java -cp perf/peers/netty-h2/target/netty-h2-peer.jar dev.fleche.perf.peers.netty.NettyWindowUpdateCost \
 *       [own-window|connection-window]
 * </pre>
 * {@code own-window} (the default): the client's initial stream window is 0, every answer waits on its own window.
 * {@code connection-window}: the streams' windows are wide and the connection's is spent, so every update of one
 * byte lets a waiting stream send one byte.
 */
public final class NettyWindowUpdateCost {
    private static final int STREAMS = 128;
    private static final int FRAMES_PER_BATCH = 1000;
    private static final int BATCHES_PER_ROUND = 100;
    private static final int WARMUP_ROUNDS = 30;
    private static final int ROUNDS = 15;
    /** Every answer (one array): large enough that none ends within the updates of a run. */
    private static final byte[] ANSWER = new byte[1 << 20];

    private NettyWindowUpdateCost() {
    }

    public static void main(String[] args) {
        boolean connectionWindow = args.length > 0 && args[0].equals("connection-window");
        Answering handler = new Builder().build();
        EmbeddedChannel channel = new EmbeddedChannel(handler);
        drain(channel);
        channel.writeInbound(Unpooled.wrappedBuffer(start(connectionWindow)));
        drain(channel);
        byte[] batch = batch();
        for (int round = 0; round < WARMUP_ROUNDS; round++) {
            round(channel, batch);
        }
        double[] nanos = new double[ROUNDS];
        for (int round = 0; round < ROUNDS; round++) {
            nanos[round] = round(channel, batch);
        }
        Arrays.sort(nanos);
        System.out.printf("netty WINDOW_UPDATE(0) %s: %.1f ns/frame (median of %d rounds of %,d frames; min %.1f,"
                + " max %.1f), %d streams open, connection %s%n",
                connectionWindow ? "connection-window" : "own-window", nanos[ROUNDS / 2], ROUNDS,
                BATCHES_PER_ROUND * FRAMES_PER_BATCH, nanos[0], nanos[ROUNDS - 1],
                handler.connection().numActiveStreams(), channel.isOpen() ? "open" : "closed");
    }

    private static double round(EmbeddedChannel channel, byte[] batch) {
        long start = System.nanoTime();
        for (int i = 0; i < BATCHES_PER_ROUND; i++) {
            channel.writeInbound(Unpooled.wrappedBuffer(batch));
            drain(channel);
        }
        return (double) (System.nanoTime() - start) / (BATCHES_PER_ROUND * FRAMES_PER_BATCH);
    }

    /** What the server wrote is dropped, as a socket would take it. */
    private static void drain(EmbeddedChannel channel) {
        Object out;
        while ((out = channel.readOutbound()) != null) {
            if (out instanceof ByteBuf buf) {
                buf.release();
            }
        }
    }

    /** The client's preface, SETTINGS (its initial stream window), the ack of the server's, 128 GETs. */
    private static byte[] start(boolean connectionWindow) {
        ByteBuffer start = ByteBuffer.allocate(64 * 1024);
        start.put("PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n".getBytes(StandardCharsets.US_ASCII));
        int window = connectionWindow ? Integer.MAX_VALUE : 0;
        start.put(frame(0x4, 0, 0, ByteBuffer.allocate(6).putShort((short) 0x4).putInt(window).array()));
        start.put(frame(0x4, 0x1, 0, new byte[0]));
        byte[] get = {(byte) 0x82, (byte) 0x86, (byte) 0x84, 0x01, 0x09, 'l', 'o', 'c', 'a', 'l', 'h', 'o', 's', 't'};
        for (int i = 0; i < STREAMS; i++) {
            start.put(frame(0x1, 0x5, 2 * i + 1, get));
        }
        return Arrays.copyOf(start.array(), start.position());
    }

    private static byte[] batch() {
        ByteBuffer out = ByteBuffer.allocate(FRAMES_PER_BATCH * 13);
        for (int i = 0; i < FRAMES_PER_BATCH; i++) {
            out.put(frame(0x8, 0, 0, ByteBuffer.allocate(4).putInt(1).array()));
        }
        return out.array();
    }

    private static byte[] frame(int type, int flags, int stream, byte[] payload) {
        ByteBuffer b = ByteBuffer.allocate(9 + payload.length);
        b.put((byte) (payload.length >>> 16)).put((byte) (payload.length >>> 8)).put((byte) payload.length)
                .put((byte) type).put((byte) flags).putInt(stream).put(payload);
        return b.array();
    }

    private static final class Builder extends AbstractHttp2ConnectionHandlerBuilder<Answering, Builder> {
        Builder() {
            initialSettings(Http2Settings.defaultSettings().maxConcurrentStreams(STREAMS)); // Fleche's 128
        }

        @Override
        public Answering build() {
            return super.build();
        }

        @Override
        protected Answering build(Http2ConnectionDecoder decoder, Http2ConnectionEncoder encoder,
                                  Http2Settings initialSettings) {
            Answering handler = new Answering(decoder, encoder, initialSettings);
            frameListener(handler.listener);
            return handler;
        }
    }

    /** Answers each GET with a 1 MiB body, which waits for the windows. */
    private static final class Answering extends Http2ConnectionHandler {
        final Http2FrameAdapter listener = new Http2FrameAdapter() {
            @Override
            public void onHeadersRead(ChannelHandlerContext ctx, int streamId, Http2Headers headers, int padding,
                                      boolean endOfStream) {
                Http2Headers answer = new DefaultHttp2Headers().status("200").setInt("content-length", ANSWER.length);
                encoder().writeHeaders(ctx, streamId, answer, 0, false, ctx.voidPromise());
                encoder().writeData(ctx, streamId, Unpooled.wrappedBuffer(ANSWER), 0, true, ctx.voidPromise());
            }

            @Override
            public void onHeadersRead(ChannelHandlerContext ctx, int streamId, Http2Headers headers,
                                      int streamDependency, short weight, boolean exclusive, int padding,
                                      boolean endOfStream) {
                onHeadersRead(ctx, streamId, headers, padding, endOfStream);
            }
        };

        Answering(Http2ConnectionDecoder decoder, Http2ConnectionEncoder encoder, Http2Settings settings) {
            super(decoder, encoder, settings);
        }
    }
}
