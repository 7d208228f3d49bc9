package dev.fleche.transport.internal.exchange;

import dev.fleche.transport.internal.telemetry.Events;
import dev.fleche.transport.internal.channel.FileRegion;
import dev.fleche.transport.internal.rules.Refusal;
import dev.fleche.transport.HttpExchange;
import dev.fleche.transport.HttpFields;
import dev.fleche.transport.ProxyInfo;
import dev.fleche.transport.RequestBodyException;
import dev.fleche.transport.ServerOptions;
import dev.fleche.transport.Timeout;
import dev.fleche.transport.TlsInfo;
import dev.fleche.transport.http1.RequestHead;
import dev.fleche.transport.internal.telemetry.accesslog.LogEntry;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.TimeUnit;

/**
 * The transport's {@link HttpExchange}: the request head, the body stream as the connection delivers it, and the
 * response {@link Claim}. It knows no protocol framing: the connection that made it decodes the body and frames the
 * response (HTTP/1.1: {@code RequestBody}, {@code Outbound}); the exchange is the handler's view of them, and
 * reaches its connection only through the {@link ConnectionDoor}, naming itself by its {@code stream} number. The
 * claim is an atomic so that {@link #respond} and the transport's own refusals race safely. Fields marked
 * "reactor" are touched only by the connection's loop thread.
 */
public final class Exchange implements HttpExchange {
    /**
     * Who answers: nobody yet, the handler (whole or streamed), or the transport's 413 that the handler's thread
     * claimed and the loop is about to write.
     *
     * <pre>
     *   OPEN ─respond / transport's answer─▶ WRITTEN
     *     ├──startResponse──▶ STARTED
     *     └──body over the buffered limit (handler's thread)──▶ REFUSING
     * </pre>
     */
    enum Claim { OPEN, STARTED, WRITTEN, REFUSING }

    /**
     * What writes a streamed response: told on the loop when bytes left (or the connection is lost), so that it can
     * go on ({@link ResponseOutput}'s blocked writer, a {@link PacedBody}'s next read).
     */
    interface ResponseWriter {
        /** Reactor: bytes of the connection left, or it closed; go on when due. Called often: must be cheap. */
        void wakeWriterIfDue();
    }

    /** The body of every request without one: stateless, so one instance can be shared (closing it is a no-op). */
    private static final InputStream EMPTY = new InputStream() {
        @Override
        public int read() {
            return -1;
        }

        @Override
        public int read(byte[] bytes, int offset, int length) {
            Objects.checkFromIndexSize(offset, length, bytes.length);
            return length == 0 ? 0 : -1;
        }
    };
    private static final VarHandle CLAIM;

    static {
        try {
            CLAIM = MethodHandles.lookup().findVarHandle(Exchange.class, "claim", Claim.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    private final ConnectionDoor door;
    /** This exchange's number on its connection, by which the door knows it. */
    private final int stream;
    private final RequestHead head;
    private final boolean isHead;
    /** Changed only by compare-and-set ({@link #CLAIM}: no object per request). */
    private volatile Claim claim;
    // body, written by the reactor, read by any thread
    private volatile boolean bodyReceivedWhole;
    /** The size of the whole body once received (written before {@link #bodyReceivedWhole}). */
    private volatile long bodyBytes;
    /** Whether the handler said it buffers the body ({@link #expectBufferedBody()}); the handler's thread. */
    private volatile boolean bufferedBody;
    private volatile InputStream bodyStream;
    private volatile HttpFields trailers;
    // response, any thread
    private volatile ResponseWriter output;

    /** This request's access-log entry (set by the connection when the server has an access log), else null. */
    public LogEntry logEntry;
    // connection state, reactor
    private List<Runnable> disconnectCallbacks;
    private boolean responseWritten;
    // connection state, any thread
    private volatile boolean open = true;

    public Exchange(ConnectionDoor door, int stream, RequestHead head) {
        this.door = door;
        this.stream = stream;
        this.head = head;
        CLAIM.set(this, Claim.OPEN); // a plain write: the exchange reaches other threads through the reactor's queues
        this.isHead = "HEAD".equals(head.method());
        if (!head.hasBody()) {
            bodyReceivedWhole = true;
            bodyStream = EMPTY;
        }
    }

    /** Whether the request is {@code HEAD}: its answers, refusals included, have no body. */
    public boolean isHead() {
        return isHead;
    }

    // ---------------------------------------------------------------- request view

    @Override public String method() { return head.method(); }
    @Override public String target() { return head.target(); }
    @Override public String path() { return head.path(); }
    @Override public String query() { return head.query(); }
    @Override public String version() {
        return head.majorVersion() == 2 ? "HTTP/2" : head.minorVersion() == 0 ? "HTTP/1.0" : "HTTP/1.1";
    }
    @Override public HttpFields headers() { return head.headers(); }
    @Override public String host() { return head.host(); }
    @Override public boolean hasBody() { return head.hasBody(); }
    @Override public long contentLength() { return head.chunked() ? -1 : head.contentLength(); }
    @Override public boolean isBodyReceived() { return bodyReceivedWhole; }
    @Override
    public HttpFields trailers() {
        HttpFields received = trailers;
        return received != null ? received : new HttpFields(0);
    }
    @Override
    public InputStream requestBody() {
        InputStream stream = bodyStream;
        if (stream == null) {
            throw new IllegalStateException("request body not available yet");
        }
        return stream;
    }

    @Override
    public long expectBufferedBody() throws RequestBodyException {
        ServerOptions options = door.options();
        long limit = options.bufferedBodyLimit();
        if (!head.hasBody() || bufferedBody) {
            return limit;
        }
        bufferedBody = true;
        if (limit >= options.bodyLimit()) {
            return limit; // the body's own limit is as tight already
        }
        long known = bodyReceivedWhole ? bodyBytes : head.chunked() ? 0 : head.contentLength();
        if (known > limit) {
            // Claimed here, before the handler learns of it, so that its answer to the exception cannot go out
            // first; the reactor writes the 413.
            bodyOverLimit(limit);
            throw Refusal.tooLargeException(limit);
        }
        if (!bodyReceivedWhole) {
            if (bodyStream instanceof BodyInput input) {
                input.limit(limit);
            }
            door.limitBody(stream, limit);
        }
        return limit;
    }

    /**
     * The handler's thread found more than {@code limit} bytes of a buffered body waiting: the response is claimed
     * here, so that the handler's answer to the failure cannot go out before the transport's {@code 413}.
     */
    public void bodyOverLimit(long limit) {
        if (CLAIM.compareAndSet(this, Claim.OPEN, Claim.REFUSING)) {
            door.refuseClaimed(stream, limit);
        }
    }

    /** Whether the response was claimed for a refusal the reactor has yet to write ({@link #bodyOverLimit}). */
    public boolean refusalClaimed() {
        return claim == Claim.REFUSING;
    }

    /** The size of the whole body, once {@link #isBodyReceived()}. */
    public long bodyBytes() {
        return bodyBytes;
    }

    /** This exchange's number on its connection. */
    public int stream() {
        return stream;
    }

    /** The request head (its framing facts are the connection's to read). */
    public RequestHead head() {
        return head;
    }

    /** The body stream when the body is streamed to the handler, else null. */
    public BodyInput bodyInput() {
        return bodyStream instanceof BodyInput input ? input : null;
    }

    // ---------------------------------------------------------------- request body (set by the connection)

    /** The body is streamed to the handler through {@code input}. */
    public void bodyStreaming(BodyInput input) {
        bodyStream = input;
    }

    /**
     * The whole body of {@code size} bytes has arrived: {@code aggregate} is it (null when streamed); {@code received}
     * its trailers.
     */
    public void bodyReceived(byte[] aggregate, HttpFields received, long size) {
        bodyBytes = size;
        if (received != null) {
            trailers = received;
        }
        if (aggregate != null) {
            bodyStream = new ByteArrayInputStream(aggregate);
        }
        bodyReceivedWhole = true;
    }

    /** The transport refused the body: a streamed body's reader drops what is queued and fails with {@code error}. */
    public void bodyRefused(RequestBodyException error) {
        if (bodyStream instanceof BodyInput input) {
            input.refuse(error);
        }
    }

    /** Fails a streamed body's reader with {@code error} (the connection lost) once it has read what arrived. */
    void bodyFailed(IOException error) {
        if (bodyStream instanceof BodyInput input) {
            input.fail(error);
        }
    }

    // ---------------------------------------------------------------- response

    @Override
    public void respond(int status, String reason, HttpFields headers, byte[] body) {
        Responses.checkStatus(status);
        Objects.requireNonNull(headers, "headers");
        Objects.requireNonNull(body, "body");
        if (!CLAIM.compareAndSet(this, Claim.OPEN, Claim.WRITTEN)) {
            throw new IllegalStateException("response already started");
        }
        door.respond(stream, status, reason, headers, body);
    }

    @Override
    public OutputStream startResponse(int status, String reason, HttpFields headers, long contentLength) {
        Responses.checkStatus(status);
        Objects.requireNonNull(headers, "headers");
        if (contentLength < -1) {
            throw new IllegalArgumentException("contentLength must be >= -1, was " + contentLength);
        }
        if (!CLAIM.compareAndSet(this, Claim.OPEN, Claim.STARTED)) {
            throw new IllegalStateException("response already started");
        }
        ResponseOutput out = new ResponseOutput(door, stream, this,
                new ResponseHead(status, reason, headers, contentLength), isHead);
        output = out;
        return out;
    }

    /**
     * Starts a response whose body {@code body} hands over itself (the head with its first part); false when a
     * response was started already.
     */
    boolean startPaced(PacedBody body) {
        if (!CLAIM.compareAndSet(this, Claim.OPEN, Claim.STARTED)) {
            return false;
        }
        output = body;
        return true;
    }

    /**
     * Sends a whole response whose body is {@code region} of a file, which goes to the socket past the heap; only
     * when {@link #takesFileRegions()}. The region is closed when it cannot be sent.
     *
     * @throws IllegalStateException when a response was started already
     */
    void respondFile(int status, HttpFields headers, FileRegion region) {
        Responses.checkStatus(status);
        if (!CLAIM.compareAndSet(this, Claim.OPEN, Claim.WRITTEN)) {
            region.close();
            throw new IllegalStateException("response already started");
        }
        door.respondFile(stream, status, headers, region);
    }

    /**
     * Sends a whole response whose body is the remaining bytes of {@code body}, a buffer that must never change (a
     * cached file's content: sent as it is, from a direct buffer without a copy into the heap); any protocol.
     *
     * @throws IllegalStateException when a response was started already
     */
    void respondBuffer(int status, HttpFields headers, ByteBuffer body) {
        Responses.checkStatus(status);
        Objects.requireNonNull(headers, "headers");
        if (!CLAIM.compareAndSet(this, Claim.OPEN, Claim.WRITTEN)) {
            throw new IllegalStateException("response already started");
        }
        door.respondBuffer(stream, status, headers, body.duplicate());
    }

    /** Whether {@link #respondFile} may be used: an HTTP/1.x connection on a plain socket. */
    boolean takesFileRegions() {
        return door.takesFileRegions();
    }

    /** The connection the exchange reaches its loop through (the body pacing needs its queue). */
    ConnectionDoor door() {
        return door;
    }

    @Override
    public boolean isResponseStarted() {
        return claim != Claim.OPEN;
    }

    /** Claims the response for the transport itself (an error answer); false when the handler has one going. */
    public boolean claimResponse() {
        return CLAIM.compareAndSet(this, Claim.OPEN, Claim.WRITTEN);
    }

    /** Sent bytes left the outbound queue: wake a blocked writer when below the low watermark. */
    public void outboundWritten() {
        ResponseWriter out = output;
        if (out != null) {
            out.wakeWriterIfDue();
        }
    }

    /**
     * The connection is lost: fails whatever waits on it (the body reader, a blocked response writer) with
     * {@code error}. Runs on the reactor, before the disconnect callbacks.
     */
    private void connectionLost(IOException error) {
        bodyFailed(error);
        ResponseWriter out = output;
        if (out != null) {
            out.wakeWriterIfDue();
        }
    }

    @Override
    public String toString() {
        return "Exchange[conn=" + door.connectionId() + " " + head.method() + " " + head.target() + "]";
    }

    // ---------------------------------------------------------------- connection

    @Override public boolean isSecure() { return door.tls() != null; }
    /** Settled before the first request was read, never changed after: safe from any thread. */
    @Override public TlsInfo tls() { return door.tls(); }
    @Override public long connectionId() { return door.connectionId(); }

    /** Fills the access-log entry; strings are immutable, and the entry is handed over after the response. */
    @Override
    public void accessLogFields(String clientAddress, String requestId, String traceId) {
        LogEntry entry = logEntry;
        if (entry == null) {
            return;
        }
        if (clientAddress != null) {
            entry.clientAddress = clientAddress;
        }
        if (requestId != null) {
            entry.requestId = requestId;
        }
        if (traceId != null) {
            entry.traceId = traceId;
        }
    }

    @Override
    public InetSocketAddress remoteAddress() {
        return door.remoteAddress();
    }

    @Override
    public InetSocketAddress localAddress() {
        return door.localAddress();
    }

    @Override
    public ProxyInfo proxy() {
        return door.proxy();
    }

    // ---------------------------------------------------------------- connection state

    /** Reactor: whether the response is complete (framed whole). */
    public boolean isResponseWritten() {
        return responseWritten;
    }

    public void responseWritten() {
        responseWritten = true;
        disconnectCallbacks = null;
    }

    @Override
    public void abort() {
        door.abort(stream);
    }

    @Override
    public boolean isOpen() {
        return open;
    }

    /** The client left or the connection closed: fail the body, wake writers, run disconnect callbacks. */
    public void clientGone(String reason) {
        if (!open) {
            return;
        }
        open = false;
        IOException error = new RequestBodyException(RequestBodyException.CLIENT_GONE, "client-gone", reason);
        connectionLost(error);
        List<Runnable> callbacks = disconnectCallbacks;
        disconnectCallbacks = null;
        if (callbacks != null && !responseWritten) {
            for (Runnable callback : callbacks) {
                runSafely(callback);
            }
        }
    }

    private void runSafely(Runnable callback) {
        try {
            callback.run();
        } catch (RuntimeException e) {
            Events.warn("callback-error", door.connectionId(), e);
        }
    }

    @Override
    public void onDisconnect(Runnable callback) {
        Objects.requireNonNull(callback, "callback");
        execute(() -> {
            if (!open) {
                runSafely(callback);
            } else if (!responseWritten) {
                if (disconnectCallbacks == null) {
                    disconnectCallbacks = new ArrayList<>(2);
                }
                disconnectCallbacks.add(callback);
                door.departureWatched(stream);
            }
        });
    }

    /** Reactor: whether callbacks wait to hear that the client left before the response was complete. */
    public boolean watchesDeparture() {
        return disconnectCallbacks != null && !responseWritten;
    }

    // ---------------------------------------------------------------- reactor

    @Override
    public Timeout schedule(Runnable task, long delay, TimeUnit unit) {
        Objects.requireNonNull(task, "task");
        return door.schedule(task, unit.toNanos(delay));
    }

    @Override
    public void execute(Runnable task) {
        door.execute(task);
    }

    @Override
    public boolean inReactor() {
        return door.inLoop();
    }
}
