package dev.fleche.transport.internal;

import dev.fleche.transport.ErrorRenderer;
import dev.fleche.transport.HttpFields;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.SelectionKey;
import java.nio.channels.SocketChannel;
import java.util.ArrayDeque;

/**
 * The output side of a {@link Connection}: frames responses (whole, streamed, {@code 100 Continue}, the transport's
 * own error answers) into the reactor's staging buffer, writes them to the socket in request order, and queues what
 * the socket does not take, with {@code OP_WRITE} on until it drains. After each response it decides whether the
 * connection stays open. Every method runs on the reactor thread.
 *
 * <p>A connection is one object built from three classes, one concern each: this one (responses out, and the state
 * all three share), {@link ConnectionInput} (requests in) and {@link Connection} (lifecycle and timeouts). Layers
 * rather than helper objects, so that a connection stays a single allocation and its I/O paths add no indirection.
 */
abstract class ConnectionOutput extends TimerNode {
    final Reactor reactor;
    final SocketChannel channel;
    final long id;
    SelectionKey key;
    int index = -1;

    // shared by the three layers
    /** The exchange in flight: its response is the next to be written, its body the next bytes to be read. */
    Exchange exchange;
    /** Whether {@code ConnectionInput.process} is on the stack: writes are then flushed once, at its end. */
    boolean processing;
    /** An error answer is on its way: nothing more is parsed, and the connection closes after it. */
    boolean rejecting;
    /** Close once the queued output has been written. */
    boolean closeWhenFlushed;
    /** Lingering close: our side is shut down, the client's input is discarded until EOF or a limit. */
    boolean lingering;
    boolean closed;
    int interest = SelectionKey.OP_READ;
    long lastWriteProgress;

    private ArrayDeque<ByteBuffer> out;
    /** Bytes queued for the socket and not yet written; read by blocked writers on other threads. */
    volatile long outBytes;
    volatile String closeReason;

    ConnectionOutput(Reactor reactor, SocketChannel channel, long id) {
        this.reactor = reactor;
        this.channel = channel;
        this.id = id;
    }

    /** Closes the socket and releases everything this connection holds; idempotent. */
    abstract void close(String reason);

    /** The exchange is over (response sent, body consumed): go back to reading the next request. */
    abstract void finishExchange();

    /** The last response is out and the connection must close: close, or linger first while input may follow. */
    abstract void closeAfterLastResponse();

    boolean isClosed() {
        return closed;
    }

    void setInterest(int ops) {
        if (ops != interest && !closed) {
            interest = ops;
            key.interestOps(ops);
        }
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

    /** Answers a protocol error with a short text body and closes after it. */
    void reject(int status, String reason) {
        reactor.counters.protocolErrors++;
        sendErrorAndClose(status, reason);
    }

    /** Answers {@code status} with an error body and closes after it (a rejected request, or a timeout). */
    void sendErrorAndClose(int status, String reason) {
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
        ConnectionOutput owner = reactor.stagingOwner;
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

    /** Whether bytes are queued that the socket has not taken yet. */
    boolean outputQueued() {
        return out != null && !out.isEmpty();
    }

    /** On close: forgets the queued bytes. */
    void dropQueuedOutput() {
        out = null;
        outBytes = 0;
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

    /** Writes what the socket takes of the queue; while bytes remain, OP_WRITE and the write-stall timer stay on. */
    void writeOut() throws IOException {
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
                armTimer(lastWriteProgress + reactor.options.writeStallTimeout().toNanos());
                return;
            }
        }
        setInterest(interest & ~SelectionKey.OP_WRITE);
        if (closeWhenFlushed && !lingering) {
            closeAfterLastResponse();
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
}
