package dev.fleche.transport.internal;

import dev.fleche.transport.ErrorRenderer;
import dev.fleche.transport.HttpExchange;
import dev.fleche.transport.HttpFields;
import dev.fleche.transport.http1.RequestHead;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.util.Objects;
import java.util.concurrent.atomic.AtomicIntegerFieldUpdater;

/**
 * The transport's {@link HttpExchange}: the request head, the body stream as the connection delivers it, and the
 * response state. The connection owns the request body's decoding ({@link RequestBody}) and the response's framing
 * ({@link Outbound}); the exchange is the handler's view of them. The response state is an atomic so that
 * {@link #respond} and the transport's own refusals race safely. What ties the exchange to its connection and
 * reactor (disconnect callbacks, abort, tasks and timers) is in {@link ExchangeLifecycle}.
 */
final class Exchange extends ExchangeLifecycle {
    private static final int NOT_STARTED = 0;
    private static final int STARTED = 1;
    private static final int WRITTEN = 2;

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
    /** NOT_STARTED, STARTED or WRITTEN; a field updater spares an object per request. */
    private volatile int responseState;
    // body, written by the reactor, read by any thread
    private volatile boolean bodyReceivedWhole;
    private volatile InputStream bodyStream;
    private volatile HttpFields trailers;
    // response, any thread
    private volatile ResponseOutput output;

    Exchange(Connection connection, RequestHead head) {
        super(connection);
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

    /** The whole body has arrived: {@code aggregate} is it (null when streamed); {@code received} its trailers. */
    void bodyReceived(byte[] aggregate, HttpFields received) {
        if (received != null) {
            trailers = received;
        }
        if (aggregate != null) {
            bodyStream = new ByteArrayInputStream(aggregate);
        }
        bodyReceivedWhole = true;
    }

    /** Fails a streamed body's reader with {@code error} (a refusal, or the connection lost). */
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

    @Override
    void connectionLost(IOException error) {
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
}
