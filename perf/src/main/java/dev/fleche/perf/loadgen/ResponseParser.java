package dev.fleche.perf.loadgen;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;

/**
 * A resumable parser for HTTP/1.1 responses, one after the other on a connection, that checks each body against
 * an expected one as it streams past (nothing is buffered but the current head line), counts its bytes, and hands
 * {@code text/event-stream} bodies to an {@link EventStreamDecoder}.
 *
 * <pre>
 *   STATUS_LINE --> HEADER_LINE* --empty line--+--> BODY_LENGTH --------------------------+--> (complete) STATUS_LINE
 *                                              +--> CHUNK_SIZE --> CHUNK_DATA --> CHUNK_END-+
 *                                              |        ^-----------------------------'     |
 *                                              |        '--size 0--> TRAILER_LINE* ---------+
 *                                              +--> BODY_UNTIL_CLOSE --eof--> (complete)
 *   any violation --> FAILED
 * </pre>
 *
 * Lines are bounded by {@link #MAX_LINE}; a longer one fails the parse. Not thread-safe: one per connection.
 */
final class ResponseParser {
    static final int MAX_LINE = 16 * 1024;

    private enum State { STATUS_LINE, HEADER_LINE, BODY_LENGTH, CHUNK_SIZE, CHUNK_DATA, CHUNK_END, TRAILER_LINE,
        BODY_UNTIL_CLOSE, FAILED }

    private final byte[] expectedBody;
    private final byte[] line = new byte[MAX_LINE];
    private int lineLength;
    private State state = State.STATUS_LINE;

    private int status;
    private long remaining;
    private boolean chunked;
    private boolean hasLength;
    private boolean close;
    private boolean eventStream;
    private boolean headReceived;
    private long bodyBytes;
    private boolean bodyMatches;
    private String failure;
    private final EventStreamDecoder events = new EventStreamDecoder();

    /** @param expectedBody the body every response must have, or null to accept any */
    ResponseParser(byte[] expectedBody) {
        this.expectedBody = expectedBody;
    }

    /**
     * Consumes bytes from {@code in} until one response is complete (returns true, {@code in} positioned right
     * after it) or {@code in} is exhausted (returns false). On a protocol violation returns false with
     * {@link #failed()} set.
     */
    boolean feed(ByteBuffer in) {
        while (in.hasRemaining() && state != State.FAILED) {
            switch (state) {
                case STATUS_LINE, HEADER_LINE, CHUNK_SIZE, CHUNK_END, TRAILER_LINE -> {
                    if (readLine(in) && onLine()) {
                        return true;
                    }
                }
                case BODY_LENGTH -> {
                    int n = (int) Math.min(remaining, in.remaining());
                    body(in, n);
                    remaining -= n;
                    if (remaining == 0) {
                        return complete();
                    }
                }
                case CHUNK_DATA -> {
                    int n = (int) Math.min(remaining, in.remaining());
                    body(in, n);
                    remaining -= n;
                    if (remaining == 0) {
                        state = State.CHUNK_END;
                    }
                }
                case BODY_UNTIL_CLOSE -> body(in, in.remaining());
                default -> throw new IllegalStateException(state.name());
            }
        }
        return false;
    }

    /** The connection ended: completes a body delimited by the close; returns whether a response completed. */
    boolean endOfInput() {
        if (state == State.BODY_UNTIL_CLOSE) {
            return complete();
        }
        return false;
    }

    /** Whether a response is partly received (a close now loses it). */
    boolean inProgress() {
        return state != State.STATUS_LINE || lineLength > 0;
    }

    boolean failed() {
        return state == State.FAILED;
    }

    String failure() {
        return failure;
    }

    /** The status of the response just completed (or in progress). */
    int status() {
        return status;
    }

    /** Whether the completed response's body equals the expected one (always true without one). */
    boolean bodyMatches() {
        return expectedBody == null || (bodyMatches && bodyBytes == expectedBody.length);
    }

    /** Whether the completed response asked to close the connection. */
    boolean closeRequested() {
        return close;
    }

    /** Whether the head of the response in progress (or just completed) has been received. */
    boolean headReceived() {
        return headReceived;
    }

    /** The body bytes of the response in progress (or just completed), after de-chunking. */
    long bodyLength() {
        return bodyBytes;
    }

    boolean isEventStream() {
        return eventStream;
    }

    /** The events of {@code text/event-stream} bodies. */
    EventStreamDecoder events() {
        return events;
    }

    private boolean readLine(ByteBuffer in) {
        while (in.hasRemaining()) {
            byte b = in.get();
            if (b == '\n') {
                if (lineLength > 0 && line[lineLength - 1] == '\r') {
                    lineLength--;
                }
                return true;
            }
            if (lineLength == MAX_LINE) {
                fail("line longer than " + MAX_LINE + " bytes in " + state);
                return false;
            }
            line[lineLength++] = b;
        }
        return false;
    }

    /** Handles the line in {@link #line}; returns whether a response completed. */
    private boolean onLine() {
        int n = lineLength;
        lineLength = 0;
        switch (state) {
            case STATUS_LINE -> statusLine(n);
            case HEADER_LINE -> {
                if (n == 0) {
                    return endOfHead();
                }
                headerLine(n);
            }
            case CHUNK_SIZE -> chunkSize(n);
            case CHUNK_END -> {
                if (n != 0) {
                    fail("chunk data longer than its size");
                } else {
                    state = State.CHUNK_SIZE;
                }
            }
            case TRAILER_LINE -> {
                if (n == 0) {
                    return complete();
                }
            }
            default -> throw new IllegalStateException(state.name());
        }
        return false;
    }

    private void statusLine(int n) {
        if (n == 0) {
            return; // tolerate a stray empty line between responses
        }
        // HTTP/1.x SSS reason
        if (n < 12 || line[0] != 'H' || line[8] != ' ') {
            fail("bad status line: " + new String(line, 0, Math.min(n, 80), StandardCharsets.ISO_8859_1));
            return;
        }
        status = (line[9] - '0') * 100 + (line[10] - '0') * 10 + (line[11] - '0');
        boolean http10 = line[7] == '0';
        close = http10;
        headReceived = false;
        chunked = false;
        hasLength = false;
        eventStream = false;
        remaining = 0;
        bodyBytes = 0;
        bodyMatches = true;
        state = State.HEADER_LINE;
    }

    private void headerLine(int n) {
        int colon = indexOf(line, n, (byte) ':');
        if (colon <= 0) {
            fail("bad header line");
            return;
        }
        int v = colon + 1;
        while (v < n && (line[v] == ' ' || line[v] == '\t')) {
            v++;
        }
        int end = n;
        while (end > v && (line[end - 1] == ' ' || line[end - 1] == '\t')) {
            end--;
        }
        if (nameIs(colon, "content-length")) {
            long value = 0;
            for (int i = v; i < end; i++) {
                int d = line[i] - '0';
                if (d < 0 || d > 9 || value > Long.MAX_VALUE / 16) {
                    fail("bad Content-Length");
                    return;
                }
                value = value * 10 + d;
            }
            remaining = value;
            hasLength = true;
        } else if (nameIs(colon, "transfer-encoding")) {
            chunked = containsIgnoreCase(v, end, "chunked");
        } else if (nameIs(colon, "connection")) {
            if (containsIgnoreCase(v, end, "close")) {
                close = true;
            } else if (containsIgnoreCase(v, end, "keep-alive")) {
                close = false;
            }
        } else if (nameIs(colon, "content-type")) {
            eventStream = containsIgnoreCase(v, end, "text/event-stream");
        }
    }

    private boolean endOfHead() {
        if (status < 200 && status >= 100) {
            state = State.STATUS_LINE; // interim response (100 Continue): the final one follows
            return false;
        }
        headReceived = true;
        if (eventStream) {
            events.startBody();
        }
        if (status == 204 || status == 304) {
            return complete();
        }
        if (chunked) {
            state = State.CHUNK_SIZE;
        } else if (hasLength) {
            if (remaining == 0) {
                return complete();
            }
            state = State.BODY_LENGTH;
        } else {
            state = State.BODY_UNTIL_CLOSE;
            close = true;
        }
        return false;
    }

    private void chunkSize(int n) {
        long size = 0;
        int i = 0;
        for (; i < n; i++) {
            int d = Character.digit(line[i], 16);
            if (d < 0) {
                break;
            }
            if (size > (Long.MAX_VALUE >> 4)) {
                fail("chunk size too large");
                return;
            }
            size = size * 16 + d;
        }
        if (i == 0) {
            fail("bad chunk size line");
            return;
        }
        if (size == 0) {
            state = State.TRAILER_LINE;
        } else {
            remaining = size;
            state = State.CHUNK_DATA;
        }
    }

    private void body(ByteBuffer in, int n) {
        int pos = in.position();
        if (expectedBody != null && bodyMatches) {
            for (int i = 0; i < n; i++) {
                long at = bodyBytes + i;
                if (at >= expectedBody.length || in.get(pos + i) != expectedBody[(int) at]) {
                    bodyMatches = false;
                    break;
                }
            }
        }
        if (eventStream) {
            events.feed(in, pos, n);
        }
        bodyBytes += n;
        in.position(pos + n);
    }

    private boolean complete() {
        state = State.STATUS_LINE;
        return true;
    }

    private void fail(String why) {
        failure = why;
        state = State.FAILED;
    }

    private boolean nameIs(int length, String lowerName) {
        if (length != lowerName.length()) {
            return false;
        }
        for (int i = 0; i < length; i++) {
            if ((line[i] | 0x20) != lowerName.charAt(i) && line[i] != lowerName.charAt(i)) {
                return false;
            }
        }
        return true;
    }

    private boolean containsIgnoreCase(int from, int to, String lower) {
        int m = lower.length();
        outer:
        for (int i = from; i + m <= to; i++) {
            for (int j = 0; j < m; j++) {
                int c = line[i + j];
                if (c >= 'A' && c <= 'Z') {
                    c += 32;
                }
                if (c != lower.charAt(j)) {
                    continue outer;
                }
            }
            return true;
        }
        return false;
    }

    private static int indexOf(byte[] bytes, int length, byte b) {
        for (int i = 0; i < length; i++) {
            if (bytes[i] == b) {
                return i;
            }
        }
        return -1;
    }
}
