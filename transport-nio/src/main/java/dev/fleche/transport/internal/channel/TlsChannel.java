package dev.fleche.transport.internal.channel;

import dev.fleche.transport.TlsInfo;
import dev.fleche.transport.TlsOptions;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.ClosedChannelException;
import java.nio.channels.SelectionKey;
import java.nio.channels.SocketChannel;
import java.time.Instant;
import java.util.concurrent.Executor;
import javax.net.ssl.SSLEngine;
import javax.net.ssl.SSLEngineResult;
import javax.net.ssl.SSLEngineResult.HandshakeStatus;
import javax.net.ssl.SSLException;
import javax.net.ssl.SSLHandshakeException;
import javax.net.ssl.SSLParameters;
import javax.net.ssl.SSLSession;

/**
 * TLS over a non-blocking socket, server side: an {@link SSLEngine} between the connection's application bytes and
 * the socket's records. Every method runs on the owning reactor; the engine's delegated tasks run on the
 * {@code tasks} executor ({@link DelegatedTasks}, a part it owns) and the channel resumes on the reactor (through
 * {@code reactor}), then calls {@link Listener#channelReady()}. What the first handshake settled is read by
 * {@link SettledSession}.
 *
 * <pre>
 *                     NEED_TASK                 task done, on the reactor
 *   HANDSHAKE ─────────────────────▶ TASK ────────────────────────────────▶ HANDSHAKE
 *     │    │ first byte is a letter: plain HTTP
 *     │    └──────────────────────▶ REFUSING (raw 400 queued) ──flushed, FIN──▶ REFUSED ──close()──▶ CLOSED
 *     │ engine NOT_HANDSHAKING
 *     ▼
 *   OPEN ◀──── TLS 1.3 KeyUpdate (back through HANDSHAKE/TASK); a TLS 1.2 renegotiation fails the channel
 *     │ shutdownOutput(), or the peer's close_notify (answered)
 *     ▼
 *   CLOSING (close_notify queued) ──flushed, FIN──▶ SHUT (input still readable) ──close()──▶ CLOSED
 * </pre>
 *
 * <p><b>Buffers.</b> Three, each borrowed from the reactor's {@link PacketBufferPool} only while it holds bytes and
 * given back the moment it is empty: {@code netIn} (records read but not yet decrypted: a partial record, or
 * records behind the one being read), {@code netOut} (records the socket has not taken yet) and {@code appIn}
 * (plaintext decrypted for a reader whose buffer was too small for a whole record). Decryption goes straight into
 * the reader's buffer when it has room for a record, so on the usual path {@code appIn} is never taken. A write of
 * more than a record's worth takes a wide {@code netOut} (four records, written at once). An idle connection holds
 * none of them.
 *
 * <p><b>Failures.</b> The engine's {@link SSLException} (bad records, failed handshake, ALPN mismatch) leaves
 * {@link #read}/{@link #flush}/{@link #write} after the channel queued the engine's alert and tried once to send it;
 * bytes that are not TLS at all fail at once, before the engine parses them, with an {@link SSLHandshakeException}
 * naming the first byte. A TLS 1.2 renegotiation fails with {@link RenegotiationRefused}. A plain HTTP request
 * is answered with a plaintext {@code 400}: see {@link PlaintextRequestException}. None of these are the server's
 * fault: the connection reports them as a {@code DEBUG} event, without a stack trace.
 */
public final class TlsChannel implements ConnectionChannel {

    /** The phases of the diagram above. */
    enum Phase { HANDSHAKE, TASK, OPEN, CLOSING, SHUT, REFUSING, REFUSED, CLOSED }

    private static final ByteBuffer EMPTY = ByteBuffer.allocate(0);
    /** TLS record header: content type (1), version (2), length (2). */
    private static final int RECORD_HEADER_BYTES = 5;
    /** Close: at most this many wraps to produce alerts and {@code close_notify}. */
    private static final int MAX_CLOSING_WRAPS = 4;

    private final SocketChannel socket;
    private final SSLEngine engine;
    private final PacketBufferPool pool;
    private final Executor reactor;
    private final Listener listener;
    /** The engine's delegated tasks: run off the reactor, then {@link #tasksDone} on it. */
    private final DelegatedTasks delegated;

    private Phase phase = Phase.HANDSHAKE;
    /** Whether the first bytes were checked to be a TLS handshake record (and not plain HTTP or garbage). */
    private boolean firstBytesChecked;
    private TlsInfo info;
    private ByteBuffer netIn;
    private ByteBuffer netOut;
    private ByteBuffer appIn;

    /**
     * @param socket   a connected socket in non-blocking mode, owned by the channel from now on
     * @param engine   a server-mode engine, from {@link #serverEngine}
     * @param pool     the reactor's record buffers
     * @param tasks    runs delegated tasks off the reactor
     * @param reactor  runs a task on the owning reactor (queue and wake it)
     * @param listener told on the reactor when a delegated task finished
     */
    public TlsChannel(SocketChannel socket, SSLEngine engine, PacketBufferPool pool, Executor tasks, Executor reactor,
               Listener listener) throws SSLException {
        this.socket = socket;
        this.engine = engine;
        this.pool = pool;
        this.reactor = reactor;
        this.listener = listener;
        this.delegated = new DelegatedTasks(engine, tasks, reactor, this::tasksDone);
        engine.beginHandshake();
    }

    /**
     * A server-mode engine configured by {@code options}: protocols, cipher suites, client auth, ALPN ({@code h2}
     * before {@code http/1.1} when {@code http2}).
     */
    public static SSLEngine serverEngine(TlsOptions options, boolean http2) {
        SSLEngine engine = options.sslContext().createSSLEngine();
        engine.setUseClientMode(false);
        SSLParameters parameters = engine.getSSLParameters();
        parameters.setProtocols(options.protocols().toArray(String[]::new));
        if (!options.cipherSuites().isEmpty()) {
            parameters.setCipherSuites(options.cipherSuites().toArray(String[]::new));
        }
        parameters.setApplicationProtocols(http2 ? new String[] {TlsOptions.ALPN_H2, TlsOptions.ALPN_HTTP_1_1}
                : new String[] {TlsOptions.ALPN_HTTP_1_1});
        switch (options.clientAuth()) {
            case NEED -> parameters.setNeedClientAuth(true);
            case WANT -> parameters.setWantClientAuth(true);
            case NONE -> parameters.setNeedClientAuth(false);
        }
        engine.setSSLParameters(parameters);
        return engine;
    }

    /**
     * Bytes read from the socket before this channel existed (past a PROXY protocol header): the first records, which
     * the handshake reads before the socket's. Called once, before any read.
     */
    public void received(byte[] early) {
        netIn = pool.ready(netIn, Math.max(early.length, engine.getSession().getPacketBufferSize()));
        if (netIn.capacity() < early.length) {
            netIn = pool.grow(netIn, early.length);
        }
        netIn.compact();
        netIn.put(early);
        netIn.flip();
    }

    // ---------------------------------------------------------------- what the connection sees

    /** Whether the first handshake is still in progress (the connection's handshake timeout runs meanwhile). */
    @Override
    public boolean isHandshaking() {
        return info == null && (phase == Phase.HANDSHAKE || phase == Phase.TASK);
    }

    /** What the handshake settled, or {@code null} before it completed. */
    @Override
    public TlsInfo tlsInfo() {
        return info;
    }

    /** How many record buffers the channel holds now (for tests: none when idle). */
    int buffersHeld() {
        return (netIn == null ? 0 : 1) + (netOut == null ? 0 : 1) + (appIn == null ? 0 : 1);
    }

    /** The current phase (for tests and events). */
    Phase phase() {
        return phase;
    }

    @Override
    public SSLSession tlsSession() {
        return info == null ? null : engine.getSession();
    }

    @Override
    public int read(ByteBuffer dst) throws IOException {
        switch (phase) {
            case HANDSHAKE:
                if (pending(appIn)) {
                    return drainAppIn(dst); // decrypted before a TLS 1.3 KeyUpdate: deliverable now
                }
                if (!handshake()) {
                    return 0;
                }
                return phase == Phase.OPEN ? readRecords(dst) : 0;
            case TASK:
                return pending(appIn) ? drainAppIn(dst) : 0;
            case OPEN:
            case CLOSING:
            case SHUT:
                return readRecords(dst);
            case REFUSING:
            case REFUSED:
                return socket.read(dst);
            case CLOSED:
                return -1;
            default:
                throw new AssertionError(phase);
        }
    }

    @Override
    public int write(ByteBuffer src) throws IOException {
        switch (phase) {
            case HANDSHAKE:
            case TASK:
                return 0;
            case OPEN:
                return (int) writeRecords(new ByteBuffer[] {src}, 0, 1);
            default:
                throw new ClosedChannelException();
        }
    }

    /** As {@link #write(ByteBuffer)}; each record is filled from as many of {@code srcs} as it holds. */
    @Override
    public long write(ByteBuffer[] srcs, int offset, int length) throws IOException {
        switch (phase) {
            case HANDSHAKE:
            case TASK:
                return 0;
            case OPEN:
                return writeRecords(srcs, offset, length);
            default:
                throw new ClosedChannelException();
        }
    }

    @Override
    public boolean flush() throws IOException {
        switch (phase) {
            case HANDSHAKE:
                if (flushNet() && handshake() && hasBufferedInput()) {
                    // records that came with the last flight wait in netIn: no readiness will announce them
                    reactor.execute(this::readyIfOpen);
                }
                break;
            case CLOSING:
                if (flushNet()) {
                    socket.shutdownOutput();
                    phase = Phase.SHUT;
                }
                break;
            case REFUSING:
                if (flushNet()) {
                    socket.shutdownOutput();
                    phase = Phase.REFUSED;
                }
                break;
            case CLOSED:
                return true;
            default:
                flushNet();
        }
        return !pending(netOut);
    }

    @Override
    public int interestOps(int wanted) {
        int write = pending(netOut) ? SelectionKey.OP_WRITE : 0;
        switch (phase) {
            case HANDSHAKE:
                return write | (engine.getHandshakeStatus() == HandshakeStatus.NEED_UNWRAP ? SelectionKey.OP_READ : 0);
            case TASK:
                return write;
            case OPEN:
                return wanted | write;
            case CLOSING:
            case SHUT:
            case REFUSING:
            case REFUSED:
                return (wanted & SelectionKey.OP_READ) | write;
            case CLOSED:
                return 0;
            default:
                throw new AssertionError(phase);
        }
    }

    @Override
    public boolean hasBufferedInput() {
        return pending(appIn) || (phase == Phase.OPEN || phase == Phase.CLOSING || phase == Phase.SHUT)
                && wholeRecordBuffered();
    }

    @Override
    public void shutdownOutput() throws IOException {
        switch (phase) {
            case HANDSHAKE:
            case TASK:
            case OPEN:
                engine.closeOutbound();
                wrapClosing();
                phase = Phase.CLOSING;
                flush();
                break;
            default:
                break;
        }
    }

    @Override
    public void close() {
        if (phase == Phase.CLOSED) {
            return;
        }
        if (phase == Phase.HANDSHAKE || phase == Phase.TASK || phase == Phase.OPEN) {
            engine.closeOutbound();
            try {
                wrapClosing();
            } catch (IOException | RuntimeException e) {
                // best effort: the socket closes anyway
            }
        }
        try {
            if (pending(netOut)) {
                socket.write(netOut);
            }
        } catch (IOException e) {
            // best effort
        }
        try {
            socket.close();
        } catch (IOException e) {
            // nothing left to do
        }
        phase = Phase.CLOSED;
        netIn = pool.release(netIn);
        netOut = pool.release(netOut);
        appIn = pool.release(appIn);
    }

    // ---------------------------------------------------------------- handshake

    /**
     * Drives the handshake as far as the socket allows: wraps and sends, reads and unwraps, hands tasks off.
     *
     * @return whether it finished ({@link Phase#OPEN}); {@code false} when it waits for the socket or a task
     */
    private boolean handshake() throws IOException {
        try {
            while (true) {
                if (!flushNet()) {
                    return false;
                }
                HandshakeStatus status = engine.getHandshakeStatus();
                switch (status) {
                    case NEED_WRAP:
                        wrapHandshake();
                        break;
                    case NEED_UNWRAP:
                    case NEED_UNWRAP_AGAIN:
                        if (!unwrapHandshake()) {
                            return false;
                        }
                        break;
                    case NEED_TASK:
                        phase = Phase.TASK;
                        delegated.start();
                        return false;
                    case FINISHED:
                    case NOT_HANDSHAKING:
                        handshakeDone();
                        return true;
                    default:
                        throw new AssertionError(status);
                }
            }
        } catch (SSLException e) {
            throw sendAlert(e);
        }
    }

    private void wrapHandshake() throws IOException {
        SSLEngineResult result = wrap(EMPTY);
        if (result.getStatus() == SSLEngineResult.Status.CLOSED && !pending(netOut)) {
            throw new SSLHandshakeException("the engine closed during the handshake");
        }
        if (result.bytesProduced() == 0 && engine.getHandshakeStatus() == HandshakeStatus.NEED_WRAP) {
            throw new SSLHandshakeException("the engine asked to wrap and produced nothing");
        }
    }

    /** @return whether a record was unwrapped; {@code false} when the socket has no more bytes for now */
    private boolean unwrapHandshake() throws IOException {
        if (!wholeRecordBuffered()) {
            int n = fill();
            if (n < 0) {
                throw new SSLHandshakeException("the peer closed the connection during the handshake");
            }
        }
        // the first bytes, whether read here or given before (received: past a PROXY header), are checked once
        if (!firstBytesChecked && !checkFirstBytes()) {
            return false;
        }
        if (!wholeRecordBuffered()) {
            return false;
        }
        appIn = pool.ready(appIn, engine.getSession().getApplicationBufferSize());
        appIn.compact();
        SSLEngineResult result;
        try {
            result = engine.unwrap(netIn, appIn);
        } finally {
            appIn.flip();
            netIn = pool.releaseIfEmpty(netIn);
            appIn = pool.releaseIfEmpty(appIn);
        }
        switch (result.getStatus()) {
            case OK:
                return true;
            case BUFFER_UNDERFLOW:
                throw new SSLHandshakeException("malformed record: its length says more than the engine accepts");
            case BUFFER_OVERFLOW:
                // the engine's application buffer size grew, or plaintext held leaves too little room
                if (appIn != null) {
                    appIn = pool.grow(appIn, appIn.remaining() + engine.getSession().getApplicationBufferSize());
                }
                return true;
            case CLOSED:
                throw new SSLHandshakeException("the peer closed the TLS session during the handshake");
            default:
                throw new AssertionError(result.getStatus());
        }
    }

    /**
     * Checks what the client sent first: a TLS handshake record goes on; an ASCII letter (a request method) is plain
     * HTTP, answered with a plaintext 400; anything else is not TLS.
     *
     * @return whether the bytes are TLS; {@code false} when too few arrived to tell
     */
    private boolean checkFirstBytes() throws IOException {
        if (!pending(netIn)) {
            return false;
        }
        int first = netIn.get(netIn.position()) & 0xFF;
        if (first == 0x16) {
            if (netIn.remaining() < 2) {
                return false;
            }
            int major = netIn.get(netIn.position() + 1) & 0xFF;
            if (major == 0x03) {
                firstBytesChecked = true;
                return true;
            }
        } else if (first >= 'A' && first <= 'Z' || first >= 'a' && first <= 'z') {
            refusePlaintext();
            throw new PlaintextRequestException();
        }
        throw new SSLHandshakeException(String.format("not a TLS handshake record: first byte 0x%02x", first));
    }

    private void refusePlaintext() throws IOException {
        netIn = pool.release(netIn);
        appIn = pool.release(appIn);
        netOut = pool.release(netOut);
        netOut = ByteBuffer.wrap(PlaintextRequestException.response(Instant.now()));
        phase = Phase.REFUSING;
        flush();
    }

    /** On the reactor: the delegated tasks ran (a failure in them surfaces at the engine's next wrap or unwrap). */
    private void tasksDone() {
        if (phase == Phase.TASK) {
            phase = Phase.HANDSHAKE;
            listener.channelReady();
        }
    }

    private void readyIfOpen() {
        if (phase == Phase.OPEN) {
            listener.channelReady();
        }
    }

    private void handshakeDone() {
        phase = Phase.OPEN;
        boolean first = info == null;
        if (first) {
            info = SettledSession.describe(engine);
        }
        appIn = pool.releaseIfEmpty(appIn);
        netIn = pool.releaseIfEmpty(netIn);
        netOut = pool.releaseIfEmpty(netOut);
        if (first) {
            listener.handshakeDone(); // a TLS 1.3 key update ends a handshake too: told once, the first
        }
    }

    /** After the first handshake: a handshake message is a TLS 1.3 key update (allowed) or a renegotiation. */
    private void checkPostHandshake(HandshakeStatus status) throws SSLException {
        if (status == HandshakeStatus.NOT_HANDSHAKING || status == HandshakeStatus.FINISHED) {
            return;
        }
        if (!"TLSv1.3".equals(engine.getSession().getProtocol())) {
            throw new RenegotiationRefused();
        }
        phase = Phase.HANDSHAKE;
    }

    /** A client asked to renegotiate (TLS 1.2): refused, the connection fails. */
    static final class RenegotiationRefused extends SSLException {
        private static final long serialVersionUID = 1L;

        RenegotiationRefused() {
            super("client-initiated renegotiation refused");
        }
    }

    // ---------------------------------------------------------------- application data

    /** Decrypts records into {@code dst} until it has no room for a record or no whole record is buffered. */
    private int readRecords(ByteBuffer dst) throws IOException {
        if (pending(appIn)) {
            return drainAppIn(dst);
        }
        if (engine.isInboundDone()) {
            return -1;
        }
        try {
            int total = 0;
            boolean viaAppIn = false;
            while (true) {
                if (pending(appIn) || !dst.hasRemaining()) {
                    return total; // the reader takes the plaintext held before more is decrypted
                }
                if (!wholeRecordBuffered()) {
                    if (total > 0) {
                        return total;
                    }
                    int n = fill();
                    if (n < 0) {
                        return endOfStream();
                    }
                    if (!wholeRecordBuffered()) {
                        return 0;
                    }
                }
                int appBytes = engine.getSession().getApplicationBufferSize();
                boolean direct = dst.remaining() >= appBytes && !viaAppIn;
                if (!direct && total > 0) {
                    return total;
                }
                SSLEngineResult result = unwrap(direct ? dst : null, appBytes);
                netIn = pool.releaseIfEmpty(netIn);
                switch (result.getStatus()) {
                    case CLOSED:
                        closeNotifyReceived();
                        return total > 0 ? total : -1;
                    case BUFFER_UNDERFLOW:
                        throw new SSLException("malformed record: its length says more than the engine accepts");
                    case BUFFER_OVERFLOW:
                        viaAppIn = true;
                        continue;
                    case OK:
                        if (result.bytesConsumed() == 0 && result.bytesProduced() == 0) {
                            return total; // the engine waits for something else (a wrap): no spinning here
                        }
                        total += direct ? result.bytesProduced() : drainAppIn(dst);
                        break;
                    default:
                        throw new AssertionError(result.getStatus());
                }
                if (phase == Phase.OPEN) {
                    checkPostHandshake(result.getHandshakeStatus());
                }
                if (phase == Phase.HANDSHAKE && !handshake()) {
                    return total;
                }
            }
        } catch (SSLException e) {
            throw sendAlert(e);
        }
    }

    /** Unwraps one record into {@code dst}, or into {@code appIn} when {@code dst} is null. */
    private SSLEngineResult unwrap(ByteBuffer dst, int appBytes) throws SSLException {
        if (dst != null) {
            return engine.unwrap(netIn, dst);
        }
        appIn = pool.ready(appIn, appBytes);
        appIn.compact();
        try {
            SSLEngineResult result = engine.unwrap(netIn, appIn);
            if (result.getStatus() == SSLEngineResult.Status.BUFFER_OVERFLOW) {
                throw new SSLException("record larger than the application buffer size " + appBytes);
            }
            return result;
        } finally {
            appIn.flip();
        }
    }

    private int drainAppIn(ByteBuffer dst) {
        int n = Math.min(dst.remaining(), appIn.remaining());
        int limit = appIn.limit();
        appIn.limit(appIn.position() + n);
        dst.put(appIn);
        appIn.limit(limit);
        appIn = pool.releaseIfEmpty(appIn);
        return n;
    }

    /** The peer's {@code close_notify}: answered with ours, and the reader sees the end of the stream. */
    private void closeNotifyReceived() {
        netIn = pool.release(netIn);
        if (phase != Phase.OPEN) {
            return;
        }
        try {
            shutdownOutput();
        } catch (IOException e) {
            // the peer closed its socket right after its close_notify: nothing more can reach it
            netOut = pool.release(netOut);
            phase = Phase.SHUT;
        }
    }

    /**
     * TCP FIN without {@code close_notify} (many HTTP clients skip it): the reader sees -1 as after a
     * {@code close_notify}. The engine is not told ({@code closeInbound} would fail it with an alert), so a response
     * to a client that only half-closed can still be written; HTTP's own framing detects a truncated message.
     */
    private int endOfStream() {
        netIn = pool.release(netIn);
        return -1;
    }

    /**
     * Encrypts {@code srcs} into records and writes them while the socket takes them. A body of more than one record
     * is wrapped into a wide buffer and written {@value PacketBufferPool#WIDE_RECORDS} records at a time: a quarter of
     * the system calls, and of the wake-ups of the peer that reads them.
     */
    private long writeRecords(ByteBuffer[] srcs, int offset, int length) throws IOException {
        if (!flushNet()) {
            return 0;
        }
        long taken = 0;
        long left = remaining(srcs, offset, length);
        try {
            while (left > taken && phase == Phase.OPEN) {
                if (netOut == null && left - taken > engine.getSession().getApplicationBufferSize()) {
                    netOut = pool.takeWide().limit(0);
                }
                SSLEngineResult result = wrap(srcs, offset, length);
                taken += result.bytesConsumed();
                if (result.getStatus() == SSLEngineResult.Status.CLOSED) {
                    throw new ClosedChannelException();
                }
                checkPostHandshake(result.getHandshakeStatus());
                if (phase == Phase.HANDSHAKE) {
                    handshake();
                }
                if (phase == Phase.OPEN && roomForRecord(netOut) && result.bytesConsumed() > 0) {
                    continue; // a wide buffer with room: one more record before the socket is asked
                }
                if (!flushNet()) {
                    return taken;
                }
            }
            flushNet();
        } catch (SSLException e) {
            throw sendAlert(e);
        }
        return taken;
    }

    /** Whether {@code buffer} (in read mode) has room behind its bytes for one more record. */
    private boolean roomForRecord(ByteBuffer buffer) {
        return buffer != null && buffer.capacity() - buffer.remaining() >= engine.getSession().getPacketBufferSize();
    }

    // ---------------------------------------------------------------- records and buffers

    /** Wraps {@code src} into {@code netOut}, growing it when the engine asks for more room than it has. */
    private SSLEngineResult wrap(ByteBuffer src) throws SSLException {
        return wrap(new ByteBuffer[] {src}, 0, 1);
    }

    /** Wraps the next record from {@code srcs[offset, offset + length)} into {@code netOut}, as {@link #wrap(ByteBuffer)}. */
    private SSLEngineResult wrap(ByteBuffer[] srcs, int offset, int length) throws SSLException {
        int packetBytes = engine.getSession().getPacketBufferSize();
        netOut = pool.ready(netOut, packetBytes);
        while (true) {
            PacketBufferPool.toAppend(netOut);
            SSLEngineResult result;
            try {
                result = engine.wrap(srcs, offset, length, netOut);
            } finally {
                netOut.flip();
            }
            if (result.getStatus() != SSLEngineResult.Status.BUFFER_OVERFLOW) {
                netOut = pool.releaseIfEmpty(netOut);
                return result;
            }
            netOut = pool.grow(netOut, netOut.remaining() + packetBytes);
        }
    }

    /** Produces the engine's last records (alert, {@code close_notify}) into {@code netOut}. */
    private void wrapClosing() throws SSLException {
        for (int i = 0; i < MAX_CLOSING_WRAPS && !engine.isOutboundDone(); i++) {
            SSLEngineResult result = wrap(EMPTY);
            if (result.getStatus() == SSLEngineResult.Status.CLOSED
                    || result.getHandshakeStatus() == HandshakeStatus.NEED_TASK
                    || result.getHandshakeStatus() == HandshakeStatus.NEED_UNWRAP) {
                return;
            }
        }
    }

    /** After an engine failure: queue its alert and try once to send it; the connection closes next. */
    private SSLException sendAlert(SSLException failure) {
        try {
            engine.closeOutbound();
            wrapClosing();
            flushNet();
        } catch (IOException | RuntimeException e) {
            failure.addSuppressed(e);
        }
        return failure;
    }

    /** Reads from the socket into {@code netIn}. */
    private int fill() throws IOException {
        int packetBytes = engine.getSession().getPacketBufferSize();
        netIn = pool.ready(netIn, packetBytes);
        if (netIn.remaining() == netIn.capacity()) {
            netIn = pool.grow(netIn, netIn.capacity() + packetBytes);
        }
        netIn.compact();
        int n;
        try {
            n = socket.read(netIn);
        } finally {
            netIn.flip();
        }
        netIn = pool.releaseIfEmpty(netIn);
        return n;
    }

    /** Writes {@code netOut} to the socket; @return whether nothing is left to write. */
    private boolean flushNet() throws IOException {
        if (!pending(netOut)) {
            return true;
        }
        socket.write(netOut);
        netOut = pool.releaseIfEmpty(netOut);
        return netOut == null;
    }

    /** Whether {@code netIn} starts with a whole record (the engine would not answer {@code BUFFER_UNDERFLOW}). */
    private boolean wholeRecordBuffered() {
        if (netIn == null || netIn.remaining() < RECORD_HEADER_BYTES) {
            return false;
        }
        int p = netIn.position();
        int recordBytes = RECORD_HEADER_BYTES + ((netIn.get(p + 3) & 0xFF) << 8 | (netIn.get(p + 4) & 0xFF));
        // a record longer than the engine takes goes to the engine whole-or-not, which refuses it
        return netIn.remaining() >= recordBytes || recordBytes > engine.getSession().getPacketBufferSize();
    }

    private static long remaining(ByteBuffer[] buffers, int offset, int length) {
        long n = 0;
        for (int i = offset; i < offset + length; i++) {
            n += buffers[i].remaining();
        }
        return n;
    }

    private static boolean pending(ByteBuffer buffer) {
        return buffer != null && buffer.hasRemaining();
    }

}
