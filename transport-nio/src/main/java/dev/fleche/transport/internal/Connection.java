package dev.fleche.transport.internal;

import dev.fleche.transport.ErrorRenderer;
import dev.fleche.transport.HttpFields;
import dev.fleche.transport.http1.RequestException;
import dev.fleche.transport.http1.RequestHead;
import dev.fleche.transport.http1.RequestHeadParser;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.SelectionKey;
import java.nio.channels.SocketChannel;
import java.nio.charset.StandardCharsets;
import java.util.ArrayDeque;

/**
 * One client connection, owned by one {@link Reactor}: reads and parses requests, dispatches them one at a time,
 * writes responses in order, and enforces the connection's timeouts. Every method runs on the reactor thread.
 *
 * <pre>
 *            ┌──────────────────── response complete, keep-alive ─────────────────────┐
 *            ▼                                                                        │
 *        [IDLE] ── first byte ─▶ [HEAD] ── head parsed ─▶ [BODY] ─▶ [DISPATCHED] ──────┤
 *          │                       │   (aggregated or streamed)       │               │ unread body:
 *     idle timeout            parse error / limit /             client EOF/RST        │ [DRAIN] up to a
 *          │                  header timeout                      │               │ limit, else close
 *          ▼                       ▼                                ▼               │
 *       [CLOSED] ◀── error response, then close ◀──────── abort exchange ◀──────────────┘
 * </pre>
 *
 * Bytes that arrive for the next request while one is in flight (pipelining) are kept, bounded, and parsed once
 * the current response is complete; so responses always leave in request order. The connection is its own
 * timer node: one deadline, whichever phase applies (idle, head, body, write stall), checked lazily.
 */
final class Connection extends TimerNode {
    private static final int MAX_LEFTOVER = 32 * 1024;
    /** Lingering close (RFC 9112 9.6): how long and how much unread input to discard after the last response. */
    private static final long LINGER_NANOS = 2_000_000_000L;
    private static final long LINGER_BYTES = 1024 * 1024;

    final Reactor reactor;
    final SocketChannel channel;
    final long id;
    SelectionKey key;
    int index = -1;

    private byte[] leftover;
    private int leftoverLength;
    private RequestHeadParser parser;
    private Exchange exchange;
    private boolean processing;
    private boolean readPaused;
    private boolean rejecting;
    private boolean closeWhenFlushed;
    private boolean lingering;
    private long lingerBytes;
    private boolean closed;
    private int interest = SelectionKey.OP_READ;
    private boolean readingHead;
    private long headStart;
    private long lastActivity;
    private long lastWriteProgress;

    private ArrayDeque<ByteBuffer> out;
    /** Bytes queued for the socket and not yet written; read by blocked writers on other threads. */
    volatile long outBytes;
    volatile String closeReason;

    Connection(Reactor reactor, SocketChannel channel, long id) {
        this.reactor = reactor;
        this.channel = channel;
        this.id = id;
        this.lastActivity = reactor.now;
    }

    void opened() {
        if (reactor.events.on()) {
            reactor.events.emit("open", id, "remote=" + channel.socket().getRemoteSocketAddress());
        }
        armTimer(lastActivity + nanos(reactor.options.idleTimeout()));
    }

    boolean isClosed() {
        return closed;
    }

    // ---------------------------------------------------------------- readiness

    void onReady(SelectionKey ready) {
        try {
            if (ready.isWritable()) {
                writeOut();
            }
            if (!closed && ready.isReadable()) {
                read();
            }
        } catch (IOException e) {
            close("io-error");
        } catch (RuntimeException e) {
            Events.warn("connection-error", id, e);
            close("internal-error");
        }
    }

    private void read() throws IOException {
        ByteBuffer buffer = reactor.readBuffer;
        buffer.clear();
        if (lingering) {
            discardInput(buffer);
            return;
        }
        if (leftover != null) {
            buffer.put(leftover, 0, leftoverLength);
            leftover = null;
            leftoverLength = 0;
        }
        int n = channel.read(buffer);
        if (n < 0) {
            onEof();
            return;
        }
        reactor.counters.bytesRead += n;
        lastActivity = reactor.now;
        process(buffer.array(), 0, buffer.position());
        flush();
    }

    private void onEof() {
        if (reactor.events.on()) {
            reactor.events.emit("disconnect", id, null);
        }
        setInterest(interest & ~SelectionKey.OP_READ);
        if (exchange != null) {
            exchange.clientGone("client closed the connection");
        }
        if (out == null || out.isEmpty()) {
            close("eof");
        } else {
            closeWhenFlushed = true;
        }
    }

    /** Parses and dispatches what {@code bytes[offset, end)} holds; keeps what cannot be used yet. */
    private void process(byte[] bytes, int offset, int end) {
        processing = true;
        int at = offset;
        try {
            while (at < end && !closed && !rejecting) {
                if (exchange == null) {
                    at = readHead(bytes, at, end);
                } else if (exchange.receivingBody()) {
                    at = exchange.receiveBody(bytes, at, end);
                } else {
                    break;
                }
            }
        } catch (RequestException e) {
            reject(e.status(), e.reason());
            return;
        } finally {
            processing = false;
        }
        keepLeftover(bytes, at, end);
    }

    private void keepLeftover(byte[] bytes, int from, int end) {
        int length = end - from;
        if (length <= 0 || closed || rejecting) {
            return;
        }
        leftover = java.util.Arrays.copyOfRange(bytes, from, end);
        leftoverLength = length;
        if (length >= MAX_LEFTOVER) {
            pauseReading(); // the in-flight exchange must finish before we read further
        }
    }

    private int readHead(byte[] bytes, int offset, int end) throws RequestException {
        if (parser == null) {
            parser = reactor.borrowParser();
        }
        int at = parser.parse(bytes, offset, end);
        if (parser.isComplete()) {
            RequestHead head = parser.take();
            reactor.returnParser(parser);
            parser = null;
            startExchange(head);
        } else if (parser.inProgress()) {
            if (!readingHead) {
                readingHead = true;
                headStart = reactor.now;
                armTimer(headStart + nanos(reactor.options.headerTimeout()));
            }
        }
        return at;
    }

    private void startExchange(RequestHead head) {
        readingHead = false;
        reactor.counters.requests++;
        Exchange started = new Exchange(this, head);
        exchange = started;
        if (reactor.events.on()) {
            reactor.events.emit("request", id, "method=" + head.method() + " target=" + head.target());
        }
        if (!head.hasBody()) {
            dispatch(started);
            return;
        }
        long length = head.contentLength();
        if (length > reactor.options.maxBodyBytes()) {
            reject(413, "request body larger than " + reactor.options.maxBodyBytes() + " bytes");
            return;
        }
        armTimer(reactor.now + nanos(reactor.options.bodyTimeout()));
        if (!head.chunked() && length <= reactor.options.bodyAggregationBytes() && !head.expectContinue()) {
            started.aggregateBody(); // dispatched once the body is complete
        } else {
            started.streamBody();
            dispatch(started);
        }
    }

    /** Calls the handler on this thread. */
    void dispatch(Exchange ex) {
        try {
            reactor.handler.handle(ex);
        } catch (Throwable t) {
            reactor.counters.handlerErrors++;
            Events.warn("handler-error", id, t);
            ex.failFromTransport(500, "internal server error");
        }
    }

    // ---------------------------------------------------------------- responses (reactor thread)

    /** Writes a complete response of {@code ex}. */
    void writeResponse(Exchange ex, int status, HttpFields fields, byte[] body) {
        if (closed || ex != exchange) {
            return;
        }
        boolean close = decideClose(ex);
        ByteSink sink = stage();
        int mark = sink.size();
        try {
            reactor.encoder.encodeHead(sink, status, fields, body.length, false, close, ex.keepAliveOn10(),
                    ex.isHead());
        } catch (IllegalArgumentException e) {
            refuseResponseHead(ex, sink, mark, e);
            return;
        }
        if (!ex.isHead() && ResponseEncoder.bodyAllowed(status)) {
            appendBody(body, 0, body.length);
        }
        responseComplete(ex, close);
    }

    /** Writes the next part of a streamed response of {@code ex}; {@code head} is non-null on the first part. */
    void writeStreamed(Exchange ex, ResponseOutput.Head head, byte[] data, int length, boolean last) {
        if (closed || ex != exchange) {
            return;
        }
        ByteSink sink = stage();
        if (head != null) {
            // RFC 9112 6.1: no chunked coding towards an HTTP/1.0 client; the close delimits the body instead.
            boolean chunked = head.chunked() && !ex.isHttp10();
            ex.streamClose = decideClose(ex) || (head.chunked() && !chunked);
            int mark = sink.size();
            try {
                reactor.encoder.encodeHead(sink, head.status(), head.fields(), head.contentLength(),
                        chunked, ex.streamClose, ex.keepAliveOn10(), ex.isHead());
            } catch (IllegalArgumentException e) {
                refuseResponseHead(ex, sink, mark, e); // later parts find streamBody false: dropped
                return;
            }
            ex.streamBody = !ex.isHead() && ResponseEncoder.bodyAllowed(head.status());
            ex.streamChunked = chunked && ex.streamBody;
        }
        if (length > 0 && ex.streamBody) {
            if (ex.streamChunked) {
                sink.putHex(length);
                sink.put(ResponseEncoder.CRLF);
                appendBody(data, 0, length);
                stage().put(ResponseEncoder.CRLF);
            } else {
                appendBody(data, 0, length);
            }
        }
        if (last) {
            if (ex.streamChunked) {
                stage().putAscii("0\r\n\r\n");
            }
            responseComplete(ex, ex.streamClose);
        } else if (!processing) {
            flush();
        }
    }

    /**
     * The handler's response head is invalid (e.g. a field value with CR or LF): answers {@code 500} in its place
     * and closes. Only the partial head is dropped; bytes staged before {@code mark} (an earlier pipelined
     * response) stay.
     */
    private void refuseResponseHead(Exchange ex, ByteSink sink, int mark, IllegalArgumentException e) {
        Events.warn("handler-error", id, e);
        reactor.counters.handlerErrors++;
        sink.truncate(mark);
        encodeError(sink, 500, "invalid response header", true);
        ex.streamClose = true;
        responseComplete(ex, true);
    }

    /** Sends {@code 100 Continue} for {@code ex} unless a final response was started. */
    void sendContinue(Exchange ex) {
        if (closed || ex != exchange || ex.isResponseStarted() || ex.continueSent) {
            return;
        }
        ex.continueSent = true;
        stage().put(ResponseEncoder.CONTINUE);
        flush();
    }

    private boolean decideClose(Exchange ex) {
        if (ex.closeRequested() || reactor.isDraining() || closeWhenFlushed) {
            return true;
        }
        return ex.receivingBody() && !ex.canDrain();
    }

    private void responseComplete(Exchange ex, boolean close) {
        ex.responseWritten();
        if (close) {
            closeWhenFlushed = true;
            setInterest(interest & ~SelectionKey.OP_READ);
        } else if (ex.receivingBody()) {
            ex.drainBody(); // finishExchange() runs when the rest of the body has been read
        } else {
            finishExchange();
        }
        if (!processing) {
            flush();
        }
    }

    /** The exchange is over (response sent, body consumed): go back to reading the next request. */
    void finishExchange() {
        exchange = null;
        lastActivity = reactor.now;
        if (readPaused) {
            resumeReading();
        }
        if (!processing && leftover != null) {
            byte[] pending = leftover;
            int length = leftoverLength;
            leftover = null;
            leftoverLength = 0;
            process(pending, 0, length);
        }
    }

    /** Answers a protocol error with a short text body and closes after it. */
    void reject(int status, String reason) {
        reactor.counters.protocolErrors++;
        sendErrorAndClose(status, reason);
    }

    private void sendErrorAndClose(int status, String reason) {
        if (reactor.events.on()) {
            reactor.events.emit("reject", id, "status=" + status + " reason=\"" + reason + "\"");
        }
        rejecting = true;
        setInterest(interest & ~SelectionKey.OP_READ);
        Exchange current = exchange;
        if (current != null) {
            // Claim the response before waking the body reader: a handler woken by the failure could otherwise
            // answer first (e.g. 500), and the client would see a close instead of this status.
            boolean claimed = current.claimResponse();
            current.bodyFailed(new IOException(reason));
            if (!claimed) {
                close("reject");
                return;
            }
        }
        encodeError(stage(), status, reason, true);
        closeWhenFlushed = true;
        if (!processing) {
            flush();
        }
    }

    private void encodeError(ByteSink sink, int status, String reason, boolean close) {
        ErrorRenderer.Body body = renderError(reactor.options.errorRenderer(), status, reason);
        HttpFields fields = new HttpFields(1).add("Content-Type", body.contentType());
        reactor.encoder.encodeHead(sink, status, fields, body.bytes().length, false, close, false, false);
        sink.put(body.bytes());
    }

    /** The configured renderer's body, or plain text when it fails (an error page must never fail). */
    static ErrorRenderer.Body renderError(ErrorRenderer renderer, int status, String reason) {
        try {
            return renderer.render(status, reason);
        } catch (RuntimeException e) {
            Events.warn("error-renderer-failed", -1, e);
            return ErrorRenderer.PLAIN_TEXT.render(status, reason);
        }
    }

    // ---------------------------------------------------------------- outbound

    /** The reactor's staging buffer, claimed for this connection (flushing another owner's bytes first). */
    ByteSink stage() {
        Connection owner = reactor.stagingOwner;
        if (owner != this) {
            if (owner != null) {
                owner.flush();
            }
            reactor.stagingOwner = this;
        }
        return reactor.staging;
    }

    private void appendBody(byte[] body, int offset, int length) {
        if (length <= 8192) {
            stage().put(body, offset, length);
            return;
        }
        moveStagingToQueue();
        enqueue(ByteBuffer.wrap(body, offset, length));
    }

    private void moveStagingToQueue() {
        if (reactor.stagingOwner == this) {
            ByteSink staging = reactor.staging;
            if (staging.size() > 0) {
                enqueue(ByteBuffer.wrap(staging.toByteArray()));
            }
            staging.clear();
            reactor.stagingOwner = null;
        }
    }

    private void enqueue(ByteBuffer buffer) {
        if (out == null) {
            out = new ArrayDeque<>(4);
        }
        if (out.isEmpty()) {
            lastWriteProgress = reactor.now; // the write-stall clock starts when bytes start waiting
        }
        out.add(buffer);
        outBytes += buffer.remaining();
    }

    /** Writes staged and queued bytes; whatever the socket does not take stays queued with OP_WRITE on. */
    void flush() {
        if (closed) {
            return;
        }
        if (reactor.stagingOwner == this) {
            ByteSink staging = reactor.staging;
            int size = staging.size();
            if (size > 0 && (out == null || out.isEmpty())) {
                ByteBuffer direct = ByteBuffer.wrap(staging.array(), 0, size);
                try {
                    int written = channel.write(direct);
                    wrote(written);
                } catch (IOException e) {
                    staging.clear();
                    reactor.stagingOwner = null;
                    close("write-error");
                    return;
                }
                if (direct.hasRemaining()) {
                    enqueue(ByteBuffer.wrap(java.util.Arrays.copyOfRange(staging.array(), direct.position(), size)));
                }
                staging.clear();
                reactor.stagingOwner = null;
            } else {
                moveStagingToQueue();
            }
        }
        try {
            writeOut();
        } catch (IOException e) {
            close("write-error");
        }
    }

    private void writeOut() throws IOException {
        ArrayDeque<ByteBuffer> queue = out;
        if (queue != null) {
            long total = 0;
            while (!queue.isEmpty()) {
                ByteBuffer head = queue.peek();
                int written = channel.write(head);
                total += written;
                if (head.hasRemaining()) {
                    break;
                }
                queue.poll();
            }
            if (total > 0) {
                outBytes -= total;
                wrote(total);
            }
            if (!queue.isEmpty()) {
                setInterest(interest | SelectionKey.OP_WRITE);
                armTimer(lastWriteProgress + nanos(reactor.options.writeStallTimeout()));
                return;
            }
        }
        setInterest(interest & ~SelectionKey.OP_WRITE);
        if (closeWhenFlushed && !lingering) {
            closeAfterLastResponse();
        }
    }

    /**
     * The last response is out. If the client may still be sending (a rejected request, an unread body), close
     * only our side and discard its input for a while: closing with unread input makes the kernel send a reset
     * that can destroy the response before the client has read it.
     */
    private void closeAfterLastResponse() {
        boolean inputPending = rejecting || leftover != null || (exchange != null && exchange.receivingBody());
        if (!inputPending) {
            close("done");
            return;
        }
        try {
            channel.shutdownOutput();
        } catch (IOException e) {
            close("done");
            return;
        }
        lingering = true;
        leftover = null;
        setInterest(SelectionKey.OP_READ);
        reactor.wheel.schedule(this, reactor.now + LINGER_NANOS);
    }

    private void discardInput(ByteBuffer buffer) throws IOException {
        int n = channel.read(buffer);
        if (n < 0) {
            close("done");
            return;
        }
        reactor.counters.bytesRead += n;
        lingerBytes += n;
        if (lingerBytes > LINGER_BYTES) {
            close("linger-limit");
        }
    }

    private void wrote(long bytes) {
        if (bytes > 0) {
            reactor.counters.bytesWritten += bytes;
            lastWriteProgress = reactor.now;
            Exchange current = exchange;
            if (current != null) {
                current.outboundDrained();
            }
        }
    }

    // ---------------------------------------------------------------- interest and flow control

    private void setInterest(int ops) {
        if (ops != interest && !closed) {
            interest = ops;
            key.interestOps(ops);
        }
    }

    void pauseReading() {
        readPaused = true;
        setInterest(interest & ~SelectionKey.OP_READ);
    }

    void resumeReading() {
        if (!readPaused || closed || rejecting || closeWhenFlushed) {
            return;
        }
        readPaused = false;
        lastActivity = reactor.now;
        setInterest(interest | SelectionKey.OP_READ);
    }

    // ---------------------------------------------------------------- timers

    private static long nanos(java.time.Duration d) {
        return d.toNanos();
    }

    /** Schedules this connection's timer at {@code deadline} unless it is already due earlier. */
    void armTimer(long deadline) {
        if (closed) {
            return;
        }
        if (!isScheduled() || deadline - this.deadline < 0) {
            reactor.wheel.schedule(this, deadline);
        }
    }

    @Override
    void expire() {
        if (closed) {
            return;
        }
        if (lingering) {
            close("linger-timeout");
            return;
        }
        long now = reactor.now;
        long recheck = now + nanos(reactor.options.idleTimeout());
        if (out != null && !out.isEmpty()) {
            long due = lastWriteProgress + nanos(reactor.options.writeStallTimeout());
            if (due - now <= 0) {
                timedOut("write-stall", 0, null);
                return;
            }
            recheck = Math.min(recheck, due);
        }
        if (exchange == null) {
            if (readingHead) {
                long due = headStart + nanos(reactor.options.headerTimeout());
                if (due - now <= 0) {
                    timedOut("header", 408, "request head not received in time");
                    return;
                }
                recheck = Math.min(recheck, due);
            } else {
                long due = lastActivity + nanos(reactor.options.idleTimeout());
                if (due - now <= 0) {
                    timedOut("idle", 0, null);
                    return;
                }
                recheck = Math.min(recheck, due);
            }
        } else if (exchange.receivingBody() && !readPaused) {
            long due = lastActivity + nanos(reactor.options.bodyTimeout());
            if (due - now <= 0) {
                timedOut("body", 408, "request body not received in time");
                return;
            }
            recheck = Math.min(recheck, due);
        }
        reactor.wheel.schedule(this, recheck);
    }

    private void timedOut(String phase, int status, String reason) {
        reactor.counters.timeouts++;
        if (reactor.events.on()) {
            reactor.events.emit("timeout", id, "phase=" + phase);
        }
        closeReason = phase + " timeout";
        if (status != 0 && (out == null || out.isEmpty())) {
            sendErrorAndClose(status, reason);
            return;
        }
        close(phase + "-timeout");
    }

    // ---------------------------------------------------------------- shutdown

    /** Graceful stop: close now if idle, else after the response in flight. */
    void drain() {
        if (exchange == null && (out == null || out.isEmpty())) {
            close("stop");
        }
    }

    /** Closes the socket and releases everything this connection holds; idempotent. */
    void close(String reason) {
        if (closed) {
            return;
        }
        closed = true;
        if (closeReason == null) {
            closeReason = reason;
        }
        reactor.wheel.cancel(this);
        if (reactor.stagingOwner == this) {
            reactor.staging.clear();
            reactor.stagingOwner = null;
        }
        key.cancel();
        try {
            channel.close();
        } catch (IOException ignored) {
            // closing anyway
        }
        Exchange current = exchange;
        if (current != null) {
            current.clientGone("connection closed: " + closeReason);
        }
        if (parser != null) {
            reactor.returnParser(parser);
            parser = null;
        }
        out = null;
        outBytes = 0;
        leftover = null;
        reactor.closed(this);
        if (reactor.events.on()) {
            reactor.events.emit("close", id, "reason=" + reason);
        }
    }
}
