package dev.fleche.transport.internal.http1;

import dev.fleche.transport.internal.rules.RateWindow;
import dev.fleche.transport.http1.RequestException;
import dev.fleche.transport.http1.RequestHead;
import dev.fleche.transport.http1.RequestHeadParser;

import java.nio.ByteBuffer;
import java.util.Arrays;

/**
 * The inbound part of an HTTP/1.1 connection: the bytes it has read but cannot use yet, the request-head parser
 * while a head is incomplete (borrowed from the reactor's pool, {@link Http1Shared}), and the request-body decoder. It decides
 * nothing: the connection feeds it and acts on what it returns. Reactor thread only.
 *
 * <p>Leftover bytes are a head split across reads or a pipelined request waiting for the response in flight. They
 * are kept here only between reads: while the connection serves bytes they are in its hands, not here — so a
 * response completed while leftover bytes are kept was completed outside the serving loop, and may serve them.
 */
final class Inbound {
    /** Kept bytes beyond this pause reading until the exchange in flight is over. */
    static final int MAX_LEFTOVER = 32 * 1024;

    /** Bytes kept for later, exactly as long as they are; or null. */
    private byte[] leftover;
    private RequestHeadParser parser;
    private RequestBody body;

    /** Puts the kept bytes at the start of {@code buffer}; returns how many. */
    int restore(ByteBuffer buffer) {
        byte[] kept = leftover;
        if (kept == null) {
            return 0;
        }
        buffer.put(kept);
        leftover = null;
        return kept.length;
    }

    boolean hasLeftover() {
        return leftover != null;
    }

    /** The kept bytes, which this part forgets. */
    byte[] takeLeftover() {
        byte[] kept = leftover;
        leftover = null;
        return kept;
    }

    /** Keeps a copy of {@code bytes[from, end)}; returns whether that is as much as may be kept (pause reading). */
    boolean keep(byte[] bytes, int from, int end) {
        leftover = Arrays.copyOfRange(bytes, from, end);
        return end - from >= MAX_LEFTOVER;
    }

    void dropLeftover() {
        leftover = null;
    }

    /** Parses head bytes from {@code bytes[offset, end)}; returns the index after the last byte used. */
    int parseHead(Http1Shared shared, byte[] bytes, int offset, int end) throws RequestException {
        if (parser == null) {
            parser = shared.borrowParser();
        }
        return parser.parse(bytes, offset, end);
    }

    /** The head once complete (the parser then goes back to the pool), else null. */
    RequestHead completedHead(Http1Shared shared) {
        RequestHeadParser current = parser;
        if (current == null || !current.isComplete()) {
            return null;
        }
        RequestHead head = current.take();
        shared.returnParser(current);
        parser = null;
        return head;
    }

    /** Whether bytes of a head (beyond leading empty lines) have been parsed. */
    boolean headInProgress() {
        return parser != null && parser.inProgress();
    }

    /** The body decoder, made on first use. */
    RequestBody body() {
        RequestBody decoder = body;
        if (decoder == null) {
            decoder = new RequestBody();
            body = decoder;
        }
        return decoder;
    }

    /** The request body's rate window, or null (no body decoder yet, or no window made). */
    RateWindow bodyRate() {
        return body == null ? null : body.rate();
    }

    /** Stops the request body's rate window, if there is one. */
    void stopBodyRate() {
        if (body != null) {
            RateWindow.stop(body.rate());
        }
    }

    /** On close: gives the parser back and drops what is kept. */
    void release(Http1Shared shared) {
        if (parser != null) {
            shared.returnParser(parser);
            parser = null;
        }
        if (body != null) {
            body.clear();
        }
        dropLeftover();
    }
}
