package dev.fleche.transport.internal;

import dev.fleche.transport.http1.RequestException;
import dev.fleche.transport.http1.RequestHead;
import dev.fleche.transport.http1.RequestHeadParser;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.SelectionKey;
import java.nio.channels.SocketChannel;

/**
 * The input side of a {@link Connection}: reads the socket into the reactor's read buffer, parses request heads
 * (resumable at any byte, with a parser borrowed from the reactor while a head is incomplete), hands body bytes to
 * the exchange in flight, and keeps, bounded, the bytes it cannot use yet (a head split across reads, or a
 * pipelined request waiting for the current response), parsing them once that exchange is finished. It pauses and
 * resumes reading for flow control, and after the last response discards what the client still sends (lingering
 * close). Every method runs on the reactor thread.
 */
abstract class ConnectionInput extends ConnectionOutput {
    private static final int MAX_LEFTOVER = 32 * 1024;
    /** Lingering close (RFC 9112 9.6): how long and how much unread input to discard after the last response. */
    private static final long LINGER_NANOS = 2_000_000_000L;
    private static final long LINGER_BYTES = 1024 * 1024;

    private byte[] leftover;
    private int leftoverLength;
    private RequestHeadParser parser;
    private long lingerBytes;
    // also used by Connection: its timeouts read them, starting an exchange ends readingHead
    boolean readPaused;
    boolean readingHead;
    long headStart;
    long lastActivity;

    ConnectionInput(Reactor reactor, SocketChannel channel, long id) {
        super(reactor, channel, id);
        this.lastActivity = reactor.now;
    }

    /** A request head is complete: starts its exchange. */
    abstract void startExchange(RequestHead head);

    /** The socket is readable: reads, then parses and flushes what that produced (or discards, lingering). */
    void read() throws IOException {
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
        if (!outputQueued()) {
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
                armTimer(headStart + reactor.options.headerTimeout().toNanos());
            }
        }
        return at;
    }

    @Override
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

    // ---------------------------------------------------------------- flow control

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

    // ---------------------------------------------------------------- lingering close

    /**
     * The last response is out. If the client may still be sending (a rejected request, an unread body), close
     * only our side and discard its input for a while: closing with unread input makes the kernel send a reset
     * that can destroy the response before the client has read it.
     */
    @Override
    void closeAfterLastResponse() {
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

    /** On close: gives the parser back to the reactor and drops the kept bytes. */
    void releaseInput() {
        if (parser != null) {
            reactor.returnParser(parser);
            parser = null;
        }
        leftover = null;
    }
}
