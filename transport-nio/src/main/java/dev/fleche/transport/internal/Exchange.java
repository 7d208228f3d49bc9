package dev.fleche.transport.internal;

import dev.fleche.transport.ErrorRenderer;
import dev.fleche.transport.HttpExchange;
import dev.fleche.transport.HttpFields;
import dev.fleche.transport.RequestBodyException;
import dev.fleche.transport.ServerOptions;
import dev.fleche.transport.Timeout;
import dev.fleche.transport.TlsInfo;
import dev.fleche.transport.http1.RequestHead;
import dev.fleche.transport.internal.accesslog.LogEntry;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicIntegerFieldUpdater;

/**
 * The transport's {@link HttpExchange}: the request head, the body stream as the connection delivers it, and the
 * response state. The connection owns the request body's decoding ({@link RequestBody}) and the response's framing
 * ({@link Outbound}); the exchange is the handler's view of them. The response state is an atomic so that
 * {@link #respond} and the transport's own refusals race safely. It also ties the handler to its connection and
 * reactor: the connection's identity and addresses, whether the client is still there and what runs when it
 * leaves, aborting, and running or scheduling tasks on the reactor. Fields marked "reactor" are touched only by the
 * connection's reactor thread.
 */
final class Exchange implements HttpExchange {
    private static final int NOT_STARTED = 0;
    private static final int STARTED = 1;
    private static final int WRITTEN = 2;
    /** Claimed by the handler's thread for the transport's {@code 413}, which the reactor is about to write. */
    private static final int REFUSING = 3;

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
    private static final AtomicIntegerFieldUpdater<Exchange> RESPONSE_STATE =
            AtomicIntegerFieldUpdater.newUpdater(Exchange.class, "responseState");

    private final RequestHead head;
    private final boolean isHead;
    /** NOT_STARTED, STARTED, WRITTEN or REFUSING; a field updater spares an object per request. */
    private volatile int responseState;
    // body, written by the reactor, read by any thread
    private volatile boolean bodyReceivedWhole;
    /** The size of the whole body once received (written before {@link #bodyReceivedWhole}). */
    private volatile long bodyBytes;
    /** Whether the handler said it buffers the body ({@link #expectBufferedBody()}); the handler's thread. */
    private volatile boolean bufferedBody;
    private volatile InputStream bodyStream;
    private volatile HttpFields trailers;
    // response, any thread
    private volatile ResponseOutput output;

    final Connection connection;
    /** This request's access-log entry (set by the connection when the server has an access log), else null. */
    LogEntry logEntry;
    // connection state, reactor
    private List<Runnable> disconnectCallbacks;
    private boolean responseWritten;
    // connection state, any thread
    private volatile boolean open = true;

    Exchange(Connection connection, RequestHead head) {
        this.connection = connection;
        this.head = head;
        this.isHead = "HEAD".equals(head.method());
        if (!head.hasBody()) {
            bodyReceivedWhole = true;
            bodyStream = EMPTY;
        }
    }

    // ---------------------------------------------------------------- request view

    @Override public String method() { return head.method(); }
    @Override public String target() { return head.target(); }
    @Override public String path() { return head.path(); }
    @Override public String query() { return head.query(); }
    @Override public String version() { return head.minorVersion() == 0 ? "HTTP/1.0" : "HTTP/1.1"; }
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
        ServerOptions options = connection.reactor.options;
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
            execute(() -> connection.limitBody(this, limit));
        }
        return limit;
    }

    /**
     * The handler's thread found more than {@code limit} bytes of a buffered body waiting: the response is claimed
     * here, so that the handler's answer to the failure cannot go out before the transport's {@code 413}.
     */
    void bodyOverLimit(long limit) {
        if (RESPONSE_STATE.compareAndSet(this, NOT_STARTED, REFUSING)) {
            execute(() -> connection.refuseClaimed(this, limit));
        }
    }

    /** Whether the response was claimed for a refusal the reactor has yet to write ({@link #bodyOverLimit}). */
    boolean refusalClaimed() {
        return responseState == REFUSING;
    }

    /** The size of the whole body, once {@link #isBodyReceived()}. */
    long bodyBytes() {
        return bodyBytes;
    }

    boolean isHead() {
        return isHead;
    }

    boolean closeRequested() {
        return !head.keepAlive();
    }

    boolean isHttp10() {
        return head.minorVersion() == 0;
    }

    boolean keepAliveOn10() {
        return head.minorVersion() == 0 && head.keepAlive();
    }

    boolean expectsContinue() {
        return head.expectContinue();
    }

    // ---------------------------------------------------------------- request body (set by the connection)

    /** The body is streamed to the handler through {@code input}. */
    void bodyStreaming(BodyInput input) {
        bodyStream = input;
    }

    /**
     * The whole body of {@code size} bytes has arrived: {@code aggregate} is it (null when streamed); {@code received}
     * its trailers.
     */
    void bodyReceived(byte[] aggregate, HttpFields received, long size) {
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
    void bodyRefused(RequestBodyException error) {
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
        ResponseEncoder.checkStatus(status);
        Objects.requireNonNull(headers, "headers");
        Objects.requireNonNull(body, "body");
        if (!RESPONSE_STATE.compareAndSet(this, NOT_STARTED, WRITTEN)) {
            throw new IllegalStateException("response already started");
        }
        if (connection.reactor.inLoop()) {
            connection.respond(this, status, reason, headers, body);
        } else {
            connection.reactor.execute(() -> connection.respond(this, status, reason, headers, body));
        }
    }

    @Override
    public OutputStream startResponse(int status, String reason, HttpFields headers, long contentLength) {
        ResponseEncoder.checkStatus(status);
        Objects.requireNonNull(headers, "headers");
        if (contentLength < -1) {
            throw new IllegalArgumentException("contentLength must be >= -1, was " + contentLength);
        }
        if (!RESPONSE_STATE.compareAndSet(this, NOT_STARTED, STARTED)) {
            throw new IllegalStateException("response already started");
        }
        ResponseOutput out = new ResponseOutput(this, new ResponseOutput.Head(status, reason, headers, contentLength),
                connection.reactor.options.outboundHighWaterBytes());
        output = out;
        return out;
    }

    @Override
    public boolean isResponseStarted() {
        return responseState != NOT_STARTED;
    }

    /** Claims the response for the transport itself (an error answer); false when the handler has one going. */
    boolean claimResponse() {
        return RESPONSE_STATE.compareAndSet(this, NOT_STARTED, WRITTEN);
    }

    /** The handler failed: answers the refusal when nothing was started, else closes the connection. */
    void failFromTransport(Refusal refusal) {
        if (claimResponse()) {
            Reactor reactor = connection.reactor;
            String reason = refusal.reason(reactor.options);
            ErrorRenderer.Body body = ResponseEncoder.renderError(reactor.options.errorRenderer(), refusal.status(),
                    reason);
            HttpFields fields = new HttpFields(1).add("Content-Type", body.contentType());
            connection.respond(this, refusal.status(), null, fields, body.bytes());
        } else {
            connection.close("handler-error");
        }
    }

    /** Sent bytes left the outbound queue: wake a blocked writer when below the low watermark. */
    void outboundWritten() {
        ResponseOutput out = output;
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
        ResponseOutput out = output;
        if (out != null) {
            out.wakeWriterIfDue();
        }
    }

    @Override
    public String toString() {
        return "Exchange[conn=" + connection.id + " " + head.method() + " " + head.target() + "]";
    }

    // ---------------------------------------------------------------- connection

    @Override public boolean isSecure() { return connection.channel.tlsInfo() != null; }
    /** Settled before the first request was read, never changed after: safe from any thread. */
    @Override public TlsInfo tls() { return connection.channel.tlsInfo(); }
    @Override public long connectionId() { return connection.id; }

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
        Socket socket = connection.socket().socket();
        return (InetSocketAddress) socket.getRemoteSocketAddress();
    }

    @Override
    public InetSocketAddress localAddress() {
        Socket socket = connection.socket().socket();
        return (InetSocketAddress) socket.getLocalSocketAddress();
    }

    // ---------------------------------------------------------------- connection state

    void responseWritten() {
        responseWritten = true;
        disconnectCallbacks = null;
    }

    @Override
    public void abort() {
        execute(() -> connection.abort(responseWritten));
    }

    @Override
    public boolean isOpen() {
        return open;
    }

    /** The client left or the connection closed: fail the body, wake writers, run disconnect callbacks. */
    void clientGone(String reason) {
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
            Events.warn("callback-error", connection.id, e);
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
                connection.departureWatched(this);
            }
        });
    }

    /** Reactor: whether callbacks wait to hear that the client left before the response was complete. */
    boolean watchesDeparture() {
        return disconnectCallbacks != null && !responseWritten;
    }

    // ---------------------------------------------------------------- reactor

    @Override
    public Timeout schedule(Runnable task, long delay, TimeUnit unit) {
        Objects.requireNonNull(task, "task");
        ScheduledTask scheduled = new ScheduledTask(connection.reactor, task);
        long nanos = unit.toNanos(delay);
        if (inReactor()) {
            scheduled.arm(connection.reactor.now + nanos);
        } else {
            long at = connection.reactor.options.nanoClock().getAsLong() + nanos;
            execute(() -> scheduled.arm(at));
        }
        return scheduled;
    }

    @Override
    public void execute(Runnable task) {
        connection.reactor.execute(task);
    }

    @Override
    public boolean inReactor() {
        return connection.reactor.inLoop();
    }
}
