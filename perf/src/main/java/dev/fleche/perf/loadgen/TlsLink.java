package dev.fleche.perf.loadgen;

import javax.net.ssl.SSLEngine;
import javax.net.ssl.SSLEngineResult;
import javax.net.ssl.SSLEngineResult.HandshakeStatus;
import javax.net.ssl.SSLException;
import javax.net.ssl.SSLSession;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.SocketChannel;

/**
 * TLS over one non-blocking client connection: an {@link SSLEngine} between the connection's plaintext (requests
 * out, responses in) and its socket. Used by one thread at a time (a {@link Worker}'s, or a {@link Transfer}'s).
 *
 * <pre>
 *   HANDSHAKE --(engine reports FINISHED: full or resumed, see {@link #resumed()})--> OPEN
 *   HANDSHAKE / OPEN --(close_notify received, or the socket's end)--> CLOSED
 * </pre>
 *
 * Plaintext handed to {@link #write} while the handshake runs waits in the caller's buffer and goes out once it
 * finished. Memory: ciphertext is read into and wrapped in the thread's {@link Buffers}; a connection keeps bytes
 * of its own only while they are in flight (a partial record read, a record the socket did not take), so an idle
 * connection holds nothing but its engine.
 *
 * <p>Resumed or full: after the handshake the session is marked with {@link #MARK}; the JDK carries a session's
 * bound values into the sessions that resume it (TLS 1.2 reuses the session itself, TLS 1.3 copies them into the
 * session made from the pre-shared key), so a session that already carries the mark was resumed.
 */
final class TlsLink {
    /** The session value that marks a session this generator has handshaken before. */
    static final String MARK = "dev.fleche.perf.loadgen.seen";

    enum Phase { HANDSHAKE, OPEN, CLOSED }

    /** Ciphertext scratch space, one per thread, shared by all of its connections. */
    static final class Buffers {
        final ByteBuffer in = ByteBuffer.allocateDirect(128 * 1024);
        final ByteBuffer out = ByteBuffer.allocateDirect(64 * 1024);
    }

    private static final ByteBuffer EMPTY = ByteBuffer.allocate(0);

    private final SSLEngine engine;
    private final Buffers buffers;
    private Phase phase = Phase.HANDSHAKE;
    /** Ciphertext read but not unwrapped yet (a partial record, or records the plaintext buffer had no room for). */
    private ByteBuffer heldIn;
    /** Ciphertext wrapped but not taken by the socket yet. */
    private ByteBuffer heldOut;
    /** Whether {@link #heldIn} holds whole records left for lack of room: read again without waiting. */
    private boolean moreBuffered;
    private boolean handshakeNews;
    private boolean resumed;

    TlsLink(SSLEngine engine, Buffers buffers) throws SSLException {
        this.engine = engine;
        this.buffers = buffers;
        engine.beginHandshake();
    }

    Phase phase() {
        return phase;
    }

    /** Whether the finished handshake resumed an earlier session. */
    boolean resumed() {
        return resumed;
    }

    /** The negotiated protocol and cipher suite, e.g. {@code TLSv1.3 TLS_AES_256_GCM_SHA384}. */
    String describe() {
        SSLSession s = engine.getSession();
        return s.getProtocol() + " " + s.getCipherSuite();
    }

    /** True once after the handshake finished (the caller counts it). */
    boolean takeHandshakeNews() {
        boolean news = handshakeNews;
        handshakeNews = false;
        return news;
    }

    /** Whether records already read wait to be unwrapped: call {@link #read} again before selecting. */
    boolean moreBuffered() {
        return moreBuffered;
    }

    /**
     * Reads what the socket has and unwraps it into {@code app} (answering the handshake on the way); returns the
     * plaintext bytes added, or -1 at the end (the socket's, or the server's {@code close_notify}).
     */
    int read(SocketChannel ch, ByteBuffer app) throws IOException {
        ByteBuffer in = buffers.in;
        in.clear();
        if (heldIn != null) {
            in.put(heldIn);
            heldIn = null;
        }
        int n = in.hasRemaining() ? ch.read(in) : 0;
        in.flip();
        int before = app.position();
        moreBuffered = false;
        unwrap(ch, in, app);
        if (in.hasRemaining()) {
            heldIn = ByteBuffer.allocate(in.remaining()).put(in).flip();
        }
        int produced = app.position() - before;
        if (produced == 0 && (phase == Phase.CLOSED || n < 0)) {
            phase = Phase.CLOSED;
            return -1;
        }
        return produced;
    }

    private void unwrap(SocketChannel ch, ByteBuffer in, ByteBuffer app) throws IOException {
        while (in.hasRemaining() && phase != Phase.CLOSED) {
            SSLEngineResult r = engine.unwrap(in, app);
            switch (r.getStatus()) {
                case BUFFER_UNDERFLOW -> {
                    return; // a partial record: held until more arrives
                }
                case BUFFER_OVERFLOW -> {
                    moreBuffered = true; // no room left in app: the caller takes what it has and reads again
                    return;
                }
                case CLOSED -> {
                    phase = Phase.CLOSED;
                    return;
                }
                case OK -> handshakeStep(ch, r.getHandshakeStatus());
            }
        }
    }

    /** After an unwrap during the handshake: run its tasks, send its answer, note its end. */
    private void handshakeStep(SocketChannel ch, HandshakeStatus status) throws IOException {
        if (status == HandshakeStatus.FINISHED) {
            finished();
            return;
        }
        if (status == HandshakeStatus.NEED_TASK) {
            runTasks();
            status = engine.getHandshakeStatus();
        }
        if (status == HandshakeStatus.NEED_WRAP) {
            write(ch, EMPTY);
        }
    }

    /**
     * Wraps and writes {@code app} (nothing of it while the handshake runs, whose own records go first); returns
     * true when nothing is left to write for now (everything went out, or the handshake waits for the server),
     * false when the socket took less than was ready (the caller waits for it to be writable).
     */
    boolean write(SocketChannel ch, ByteBuffer app) throws IOException {
        if (heldOut != null) {
            ch.write(heldOut);
            if (heldOut.hasRemaining()) {
                return false;
            }
            heldOut = null;
        }
        while (phase != Phase.CLOSED) {
            HandshakeStatus hs = engine.getHandshakeStatus();
            if (hs == HandshakeStatus.NEED_TASK) {
                runTasks();
                continue;
            }
            boolean handshaking = phase == Phase.HANDSHAKE || hs == HandshakeStatus.NEED_WRAP;
            if (handshaking && hs != HandshakeStatus.NEED_WRAP) {
                return true; // the server's turn
            }
            if (!handshaking && !app.hasRemaining()) {
                return true;
            }
            ByteBuffer out = buffers.out;
            out.clear();
            SSLEngineResult r = engine.wrap(handshaking ? EMPTY : app, out);
            out.flip();
            if (out.hasRemaining()) {
                ch.write(out);
                if (out.hasRemaining()) {
                    heldOut = ByteBuffer.allocate(out.remaining()).put(out).flip();
                    if (r.getHandshakeStatus() == HandshakeStatus.FINISHED) {
                        finished();
                    }
                    return false;
                }
            }
            if (r.getStatus() == SSLEngineResult.Status.CLOSED) {
                phase = Phase.CLOSED;
                return true;
            }
            if (r.getHandshakeStatus() == HandshakeStatus.FINISHED) {
                finished();
            }
        }
        return true;
    }

    /** Whether wrapped bytes wait for the socket. */
    boolean hasHeldOutput() {
        return heldOut != null;
    }

    /** Sends {@code close_notify} if the socket takes it at once (best effort: the connection is being closed). */
    void close(SocketChannel ch) {
        if (phase != Phase.OPEN) {
            phase = Phase.CLOSED;
            return;
        }
        phase = Phase.CLOSED;
        engine.closeOutbound();
        try {
            ByteBuffer out = buffers.out;
            out.clear();
            engine.wrap(EMPTY, out);
            out.flip();
            ch.write(out);
        } catch (IOException ignored) {
            // closing anyway
        }
    }

    private void finished() {
        if (phase != Phase.HANDSHAKE) {
            return;
        }
        phase = Phase.OPEN;
        SSLSession session = engine.getSession();
        resumed = session.getValue(MARK) != null;
        session.putValue(MARK, Boolean.TRUE);
        handshakeNews = true;
    }

    private void runTasks() {
        for (Runnable task; (task = engine.getDelegatedTask()) != null; ) {
            task.run();
        }
    }
}
