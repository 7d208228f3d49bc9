package dev.fleche.transport.internal;

import dev.fleche.transport.ErrorRenderer;
import dev.fleche.transport.HttpExchange;
import dev.fleche.transport.HttpFields;
import dev.fleche.transport.http1.ChunkedDecoder;
import dev.fleche.transport.http1.RequestException;
import dev.fleche.transport.http1.RequestHead;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.util.Objects;
import java.util.concurrent.atomic.AtomicIntegerFieldUpdater;

/**
 * The transport's {@link HttpExchange}: the request head, the body as it arrives, and the response state.
 * Fields marked "reactor" are touched only by the connection's reactor thread; the response state is an atomic
 * so that {@link #respond} and the transport's own error answers race safely. What ties the exchange to its
 * connection and reactor (disconnect callbacks, abort, tasks and timers) is in {@link ExchangeLifecycle}.
 */
final class Exchange extends ExchangeLifecycle {
    private static final int NOT_STARTED = 0;
    private static final int STARTED = 1;
    private static final int WRITTEN = 2;

    private static final byte BODY_NONE = 0;
    private static final byte BODY_AGGREGATE = 1;
    private static final byte BODY_STREAM = 2;
    private static final byte BODY_DRAIN = 3;
    private static final byte BODY_DONE = 4;
    /** The body of every request without one: stateless, so one instance can be shared (closing it is a no-op). */
    private static final InputStream EMPTY = new InputStream() {
        @Override
        public int read() {
            return -1;
        }

        @Override
        public int read(byte[] bytes, int offset, int length) {
            java.util.Objects.checkFromIndexSize(offset, length, bytes.length);
            return length == 0 ? 0 : -1;
        }
    };

    private final RequestHead head;
    private final boolean isHead;
    private static final AtomicIntegerFieldUpdater<Exchange> RESPONSE_STATE =
            AtomicIntegerFieldUpdater.newUpdater(Exchange.class, "responseState");
    /** NOT_STARTED, STARTED or WRITTEN; a field updater spares an object per request. */
    private volatile int responseState;

    // body, reactor
    private byte bodyMode;
    private long bodyRemaining;
    private long bodyReceived;
    private ChunkedDecoder chunked;
    private byte[] aggregate;
    private int aggregateLength;
    private BodyInput input;
    private boolean tooLarge;
    // body, any thread
    private volatile boolean bodyReceivedWhole;
    private volatile InputStream bodyStream;
    private volatile HttpFields trailers;

    // response, reactor
    boolean continueSent;
    boolean streamClose;
    boolean streamBody;
    boolean streamChunked;
    // response, any thread
    private volatile ResponseOutput output;

    Exchange(Connection connection, RequestHead head) {
        super(connection);
        this.head = head;
        this.isHead = "HEAD".equals(head.method());
        if (!head.hasBody()) {
            bodyMode = BODY_NONE;
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

    // ---------------------------------------------------------------- request body (reactor)

    void aggregateBody() {
        bodyMode = BODY_AGGREGATE;
        bodyRemaining = head.contentLength();
        aggregate = new byte[(int) bodyRemaining];
    }

    void streamBody() {
        bodyMode = BODY_STREAM;
        Reactor reactor = connection.reactor;
        input = new BodyInput(this, reactor.options.inboundWindowBytes(), head.expectContinue());
        bodyStream = input;
        if (head.chunked()) {
            chunked = new ChunkedDecoder(reactor.options.maxRequestLineBytes(), reactor.options.maxHeaderBytes(),
                    reactor.options.maxHeaderCount());
        } else {
            bodyRemaining = head.contentLength();
        }
    }

    /** Whether body bytes of this request are still expected from the socket. */
    boolean receivingBody() {
        return bodyMode != BODY_NONE && bodyMode != BODY_DONE;
    }

    /** Consumes body bytes from {@code bytes[offset, end)}; returns the index after the last byte used. */
    int receiveBody(byte[] bytes, int offset, int end) throws RequestException {
        int at;
        if (chunked != null) {
            at = chunked.decode(bytes, offset, end, this::bodyData);
            if (chunked.isDone()) {
                trailers = chunked.trailers();
            }
        } else {
            int n = (int) Math.min(bodyRemaining, end - offset);
            bodyData(bytes, offset, n);
            bodyRemaining -= n;
            at = offset + n;
        }
        if (tooLarge) {
            if (bodyMode == BODY_DRAIN) {
                connection.close("drain-limit");
            } else {
                connection.reject(413, "request body larger than " + connection.reactor.options.maxBodyBytes()
                        + " bytes");
            }
            return end;
        }
        if ((chunked != null && chunked.isDone()) || (chunked == null && bodyRemaining == 0)) {
            bodyComplete();
        }
        return at;
    }

    private void bodyData(byte[] bytes, int offset, int length) {
        bodyReceived += length;
        Reactor reactor = connection.reactor;
        switch (bodyMode) {
            case BODY_AGGREGATE:
                System.arraycopy(bytes, offset, aggregate, aggregateLength, length);
                aggregateLength += length;
                break;
            case BODY_STREAM:
                if (bodyReceived > reactor.options.maxBodyBytes()) {
                    tooLarge = true;
                } else if (input.offer(bytes, offset, length)) {
                    connection.pauseReading();
                }
                break;
            case BODY_DRAIN:
                if (bodyReceived > reactor.options.maxDrainBytes()) {
                    tooLarge = true;
                }
                break;
            default:
                break;
        }
    }

    private void bodyComplete() {
        byte mode = bodyMode;
        bodyMode = BODY_DONE;
        bodyReceivedWhole = true;
        switch (mode) {
            case BODY_AGGREGATE:
                bodyStream = new ByteArrayInputStream(aggregate, 0, aggregateLength);
                aggregate = null;
                connection.dispatch(this);
                break;
            case BODY_STREAM:
                input.end();
                break;
            case BODY_DRAIN:
                connection.finishExchange();
                break;
            default:
                break;
        }
    }

    /** Whether the rest of the body can be read and discarded after the response to keep the connection. */
    boolean canDrain() {
        if (head.expectContinue() && !continueSent) {
            return false; // the client may not send it at all
        }
        long max = connection.reactor.options.maxDrainBytes();
        return chunked != null ? bodyReceived <= max : bodyReceived + bodyRemaining <= max;
    }

    /** The response is out while body bytes are still coming: discard them from now on. */
    void drainBody() {
        if (input != null) {
            input.end();
        }
        bodyMode = BODY_DRAIN;
    }

    void bodyFailed(IOException error) {
        if (input != null) {
            input.fail(error);
        }
    }

    // ---------------------------------------------------------------- response

    @Override
    public void respond(int status, HttpFields headers, byte[] body) {
        Objects.requireNonNull(headers, "headers");
        Objects.requireNonNull(body, "body");
        if (!RESPONSE_STATE.compareAndSet(this, NOT_STARTED, WRITTEN)) {
            throw new IllegalStateException("response already started");
        }
        if (connection.reactor.inLoop()) {
            connection.writeResponse(this, status, headers, body);
        } else {
            connection.reactor.execute(() -> connection.writeResponse(this, status, headers, body));
        }
    }

    @Override
    public OutputStream startResponse(int status, HttpFields headers, long contentLength) {
        Objects.requireNonNull(headers, "headers");
        if (contentLength < -1) {
            throw new IllegalArgumentException("contentLength must be >= -1, was " + contentLength);
        }
        if (!RESPONSE_STATE.compareAndSet(this, NOT_STARTED, STARTED)) {
            throw new IllegalStateException("response already started");
        }
        ResponseOutput out = new ResponseOutput(this, new ResponseOutput.Head(status, headers, contentLength),
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

    /** The handler failed: answer {@code status} when nothing was started, else abort the connection. */
    void failFromTransport(int status, String reason) {
        if (claimResponse()) {
            ErrorRenderer.Body body = ConnectionOutput.renderError(connection.reactor.options.errorRenderer(),
                    status, reason);
            HttpFields fields = new HttpFields(1).add("Content-Type", body.contentType());
            connection.writeResponse(this, status, fields, body.bytes());
        } else {
            connection.close("handler-error");
        }
    }

    /** Sent bytes left the outbound queue: wake a blocked writer when below the low watermark. */
    void outboundDrained() {
        ResponseOutput out = output;
        if (out != null) {
            out.drained();
        }
    }

    @Override
    void connectionLost(IOException error) {
        bodyFailed(error);
        ResponseOutput out = output;
        if (out != null) {
            out.drained();
        }
    }

    @Override
    public String toString() {
        return "Exchange[conn=" + connection.id + " " + head.method() + " " + head.target() + "]";
    }
}
