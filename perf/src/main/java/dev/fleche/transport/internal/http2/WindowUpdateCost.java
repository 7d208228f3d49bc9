package dev.fleche.transport.internal.http2;

import dev.fleche.transport.internal.Protocols;
import dev.fleche.transport.internal.http1.Http1Connection;
import dev.fleche.transport.internal.http1.Http1Shared;
import dev.fleche.transport.internal.channel.ConnectionChannel;
import dev.fleche.transport.internal.channel.Origin;
import dev.fleche.transport.internal.telemetry.Counters;
import dev.fleche.transport.internal.loop.Reactor;
import dev.fleche.transport.HttpFields;
import dev.fleche.transport.ServerOptions;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.SelectableChannel;
import java.nio.channels.SelectionKey;
import java.nio.channels.Selector;
import java.nio.channels.SocketChannel;
import java.util.ArrayDeque;
import java.util.Arrays;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * What a {@code WINDOW_UPDATE} on stream 0 costs Fleche's HTTP/2 connection while responses wait (issue 36), per
 * frame, in time and in work: one {@link Http2Connection} driven on the calling thread (its reactor never started, as
 * {@code ConnectionFuzzTest} drives one) over an in-memory channel, 128 streams open whose 1 MiB answers wait, then
 * batches of 1,000 {@code WINDOW_UPDATE(0, 1)} frames as the client writes them, each batch one read. It prints the
 * median nanoseconds per frame over the measured rounds and the streams pumped per frame (the reactor's counter).
 * Its twin for Netty's codec, same scenario and same rounds, is {@code perf/peers/netty-h2}'s
 * {@code NettyWindowUpdateCost}; perf/README.md ("WINDOW_UPDATE cost") has the commands. In the transport's
 * package (it reaches package-private parts) but in the perf module, as {@link TransportEncoding} is.
 *
 * <pre>
 *   java -cp perf/target/fleche-perf.jar dev.fleche.transport.internal.WindowUpdateCost [own-window|connection-window]
 * </pre>
 * {@code own-window} (the default): the client's initial stream window is 0, so every answer waits on its own
 * window and a connection update lets none of them move. {@code connection-window}: the streams' windows are wide and
 * the connection's is spent, so every update of one byte lets one waiting stream send one byte.
 */
public final class WindowUpdateCost {
    private static final int STREAMS = 128;
    private static final int FRAMES_PER_BATCH = 1000;
    private static final int BATCHES_PER_ROUND = 100;
    private static final int WARMUP_ROUNDS = 30;
    private static final int ROUNDS = 15;
    /** Every answer (one array): large enough that none ends within the updates of a run. */
    private static final byte[] ANSWER = new byte[1 << 20];

    private WindowUpdateCost() {
    }

    public static void main(String[] args) throws IOException {
        boolean connectionWindow = args.length > 0 && args[0].equals("connection-window");
        Bench bench = new Bench(connectionWindow);
        byte[] batch = batch();
        for (int round = 0; round < WARMUP_ROUNDS; round++) {
            bench.round(batch);
        }
        double[] nanos = new double[ROUNDS];
        long pumpedBefore = bench.reactor.counters().http2StreamsPumped;
        for (int round = 0; round < ROUNDS; round++) {
            nanos[round] = bench.round(batch);
        }
        long frames = (long) ROUNDS * BATCHES_PER_ROUND * FRAMES_PER_BATCH;
        double pumped = (double) (bench.reactor.counters().http2StreamsPumped - pumpedBefore) / frames;
        Arrays.sort(nanos);
        Counters counters = bench.reactor.counters();
        System.out.printf("fleche WINDOW_UPDATE(0) %s: %.1f ns/frame (median of %d rounds of %,d frames; min %.1f,"
                + " max %.1f), %.3f streams pumped/frame; %,d frames handled, %d requests, connection %s%n",
                connectionWindow ? "connection-window" : "own-window", nanos[ROUNDS / 2], ROUNDS,
                BATCHES_PER_ROUND * FRAMES_PER_BATCH, nanos[0], nanos[ROUNDS - 1], pumped, counters.http2Frames,
                counters.requests, bench.connection.closeReason == null ? "open" : "closed: "
                        + bench.connection.closeReason);
    }

    /** {@code FRAMES_PER_BATCH} frames {@code WINDOW_UPDATE(0, 1)}, as one write of the client. */
    private static byte[] batch() {
        ByteBuffer out = ByteBuffer.allocate(FRAMES_PER_BATCH * 13);
        for (int i = 0; i < FRAMES_PER_BATCH; i++) {
            out.put(frame(0x8, 0, 0, ByteBuffer.allocate(4).putInt(1).array()));
        }
        return out.array();
    }

    static byte[] frame(int type, int flags, int stream, byte[] payload) {
        ByteBuffer b = ByteBuffer.allocate(9 + payload.length);
        b.put((byte) (payload.length >>> 16)).put((byte) (payload.length >>> 8)).put((byte) payload.length)
                .put((byte) type).put((byte) flags).putInt(stream).put(payload);
        return b.array();
    }

    /** The connection, its reactor and the in-memory channel, set up with {@link #STREAMS} answers waiting. */
    private static final class Bench {
        final MemoryChannel channel = new MemoryChannel();
        final MemoryKey key;
        final Reactor reactor;
        final Http2Connection connection;

        Bench(boolean connectionWindow) throws IOException {
            ServerOptions options = ServerOptions.builder().address("127.0.0.1", 0).reactors(1).build();
            Http1Shared shared = Protocols.http1(options);
            reactor = new Reactor(options, exchange -> exchange.respond(200, new HttpFields(), ANSWER),
                    new AtomicInteger(), null, null, Protocols.connections(options, shared));
            reactor.channelFactory = (socket, listener) -> channel;
            reactor.driveFromCallingThread();
            key = new MemoryKey(SocketChannel.open());
            Http1Connection first = new Http1Connection(reactor, null, 1, Origin.of(null), null, shared);
            first.opened(key);
            ByteBuffer start = ByteBuffer.allocate(64 * 1024);
            start.put("PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n".getBytes(java.nio.charset.StandardCharsets.US_ASCII));
            int window = connectionWindow ? Integer.MAX_VALUE : 0; // SETTINGS_INITIAL_WINDOW_SIZE
            start.put(frame(0x4, 0, 0, ByteBuffer.allocate(6).putShort((short) 0x4).putInt(window).array()));
            start.put(frame(0x4, 0x1, 0, new byte[0]));
            byte[] get = {(byte) 0x82, (byte) 0x86, (byte) 0x84, 0x01, 0x09, 'l', 'o', 'c', 'a', 'l', 'h', 'o', 's',
                't'};
            for (int i = 0; i < STREAMS; i++) {
                start.put(frame(0x1, 0x5, 2 * i + 1, get)); // GET / with END_STREAM
            }
            channel.input(Arrays.copyOf(start.array(), start.position()));
            deliver(first);
            connection = (Http2Connection) key.attachment();
        }

        /** One round of batches; returns its nanoseconds per frame. */
        double round(byte[] batch) {
            long start = System.nanoTime();
            for (int i = 0; i < BATCHES_PER_ROUND; i++) {
                channel.input(batch);
                deliver(connection);
            }
            return (double) (System.nanoTime() - start) / (BATCHES_PER_ROUND * FRAMES_PER_BATCH);
        }

        /** One readiness event for what the channel holds, then the rest of the reactor's turn. */
        void deliver(Reactor.Attachment spine) {
            spine.onReady(key.ready(SelectionKey.OP_READ | SelectionKey.OP_WRITE));
            reactor.finishTurn();
        }
    }

    /** A channel in memory: reads what was put in, one write at a time; writes take everything and drop it. */
    private static final class MemoryChannel implements ConnectionChannel {
        private final ArrayDeque<byte[]> input = new ArrayDeque<>();

        void input(byte[] bytes) {
            input.add(bytes);
        }

        @Override
        public int read(ByteBuffer dst) {
            byte[] next = input.poll();
            if (next == null) {
                return 0;
            }
            dst.put(next);
            return next.length;
        }

        @Override
        public int write(ByteBuffer src) {
            int n = src.remaining();
            src.position(src.limit());
            return n;
        }

        @Override public boolean flush() { return true; }
        @Override public int interestOps(int wanted) { return wanted; }
        @Override public boolean hasBufferedInput() { return false; }
        @Override public void shutdownOutput() { }
        @Override public void close() { }
        @Override public boolean isHandshaking() { return false; }
        @Override public javax.net.ssl.SSLSession tlsSession() { return null; }
        @Override public dev.fleche.transport.TlsInfo tlsInfo() { return null; }
    }

    /** A key with no selector: keeps the interest set, carries the readiness given. */
    private static final class MemoryKey extends SelectionKey {
        private final SelectableChannel channel;
        private int interest = OP_READ;
        private int ready;

        MemoryKey(SelectableChannel channel) {
            this.channel = channel;
        }

        MemoryKey ready(int ops) {
            ready = ops;
            return this;
        }

        @Override public SelectableChannel channel() { return channel; }
        @Override public Selector selector() { return null; }
        @Override public boolean isValid() { return true; }
        @Override public void cancel() { }
        @Override public int interestOps() { return interest; }
        @Override public SelectionKey interestOps(int ops) { interest = ops; return this; }
        @Override public int readyOps() { return ready; }
    }
}
