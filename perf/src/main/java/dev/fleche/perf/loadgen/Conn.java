package dev.fleche.perf.loadgen;

import java.io.IOException;
import java.net.InetAddress;
import java.nio.ByteBuffer;
import java.nio.channels.SelectionKey;
import java.nio.channels.SocketChannel;

/**
 * One client connection, owned by one {@link Worker} thread: its channel, its response parser, the send times of
 * the requests in flight (a ring of {@code depth} entries: when each was due and when it went out) and, in the
 * open loop, the due times of requests that could not go out yet (the backlog).
 */
final class Conn {
    final int index;
    final InetAddress source;
    final ResponseParser parser;
    SocketChannel channel;
    SelectionKey key;
    /** TLS over {@link #channel} (null: plain HTTP); a new one for every connect. */
    TlsLink tls;
    /** TLS: connected, handshake not finished (the {@link Connector} counts these). */
    boolean handshaking;
    boolean connected;
    /** Requests sent on this connection, over its whole life (for the long-poll cycles and SSE). */
    int sent;
    int connectFailures;
    long connectStartNanos;
    /** When this connection may try to connect again (after a failure), in nanoTime. */
    long retryAtNanos;
    /** Whether this connection is finished with for good (IDLE/LONG_POLL/SSE failures, or the end). */
    boolean done;
    /** IDLE: whether its one response arrived. */
    boolean answered;
    /** SSE: whether the stream's head arrived (200, {@code text/event-stream}). */
    boolean subscribed;
    /** SSE: events received on the stream, and the number the last one carried. */
    long streamEvents;
    long lastEvent;

    private final long[] intended;
    private final long[] actual;
    private int head;
    private int inFlight;
    private ByteBuffer out;
    private long[] backlog = new long[4];
    private int backlogHead;
    private int backlogSize;

    Conn(int index, InetAddress source, int depth, int requestBytes, byte[] expectedBody) {
        this.index = index;
        this.source = source;
        this.parser = new ResponseParser(expectedBody);
        this.intended = new long[depth];
        this.actual = new long[depth];
        this.out = ByteBuffer.allocate(Math.max(1024, requestBytes * (depth + 1)));
    }

    int inFlight() {
        return inFlight;
    }

    /** The send time (actual) of the oldest request in flight. */
    long oldestActual() {
        return actual[head];
    }

    /** Queues {@code request}, due at {@code intendedNanos}, sent at {@code nowNanos}; {@link #flush()} writes it. */
    void enqueue(byte[] request, long intendedNanos, long nowNanos) {
        int slot = (head + inFlight) % intended.length;
        intended[slot] = intendedNanos;
        actual[slot] = nowNanos;
        inFlight++;
        sent++;
        if (out.remaining() < request.length) { // a server that does not read while requests pile up
            ByteBuffer bigger = ByteBuffer.allocate(out.capacity() * 2 + request.length);
            out.flip();
            bigger.put(out);
            out = bigger;
        }
        out.put(request);
    }

    private long lastActual;

    /** Completes the oldest request in flight; returns its due time; {@link #lastActual()} gives its send time. */
    long complete() {
        long due = intended[head];
        lastActual = actual[head];
        head = (head + 1) % intended.length;
        inFlight--;
        return due;
    }

    long lastActual() {
        return lastActual;
    }

    /**
     * Writes what is queued (through TLS when on); returns true when nothing more can go out for now (else
     * OP_WRITE is needed).
     */
    boolean flush() throws IOException {
        if (out.position() == 0 && (tls == null || !tls.hasHeldOutput())) {
            return true;
        }
        out.flip();
        boolean all;
        if (tls != null) {
            all = tls.write(channel, out);
        } else {
            channel.write(out);
            all = !out.hasRemaining();
        }
        out.compact();
        return all;
    }

    /** Reads response bytes into {@code dst} (decrypted when TLS is on); -1 at the end of the connection. */
    int read(ByteBuffer dst) throws IOException {
        return tls == null ? channel.read(dst) : tls.read(channel, dst);
    }

    /** TLS: whether records already read wait to be decrypted (read again before waiting for the socket). */
    boolean moreBuffered() {
        return tls != null && tls.moreBuffered();
    }

    boolean hasPendingOutput() {
        return out.position() > 0 || tls != null && tls.hasHeldOutput();
    }

    void addBacklog(long due) {
        if (backlogSize == backlog.length) {
            long[] bigger = new long[backlog.length * 2];
            for (int i = 0; i < backlogSize; i++) {
                bigger[i] = backlog[(backlogHead + i) % backlog.length];
            }
            backlog = bigger;
            backlogHead = 0;
        }
        backlog[(backlogHead + backlogSize) % backlog.length] = due;
        backlogSize++;
    }

    int backlogSize() {
        return backlogSize;
    }

    long takeBacklog() {
        long due = backlog[backlogHead];
        backlogHead = (backlogHead + 1) % backlog.length;
        backlogSize--;
        return due;
    }

    /** Forgets the requests in flight and queued output (the connection is gone); returns how many were lost. */
    int reset() {
        int lost = inFlight;
        inFlight = 0;
        head = 0;
        out.clear();
        connected = false;
        channel = null;
        key = null;
        tls = null;
        return lost;
    }
}
