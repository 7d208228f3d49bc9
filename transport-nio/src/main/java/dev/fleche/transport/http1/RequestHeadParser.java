package dev.fleche.transport.http1;

import java.util.Objects;

/**
 * A resumable parser for one HTTP/1.1 request head at a time: request line, header fields, final empty line.
 *
 * <pre>
 *            empty line (at most MAX_LEADING_EMPTY_LINES)
 *              +----+
 *              v    |
 *   reset --> REQUEST_LINE --request line--> HEADER_LINE --empty line--> COMPLETE --take()--> REQUEST_LINE
 *                                              ^       |
 *                                              +-field-+
 *   any violation --> FAILED (until reset)
 * </pre>
 *
 * <p>{@link #parse} takes whatever bytes have arrived and returns how far it got; it never blocks and never
 * reads past the head, so the body or a pipelined request stays in the caller's buffer. Lines are only ever
 * scanned up to their limit: the request line up to {@code maxRequestLineBytes} (CRLF excluded, else 414), the
 * header section up to {@code maxHeaderSectionBytes} (field lines with their CRLFs, else 431) and
 * {@code maxHeaderCount} fields (else 431). No string is built before its line is complete, and nothing is
 * copied unless a line is split between two calls.
 *
 * <p>Every violation throws a {@link RequestException} naming its {@link ProtocolRule}; the parser then stays
 * failed until {@link #reset()}. Not thread-safe: one parser per connection, used by its loop thread.
 */
public final class RequestHeadParser {

    /** The most empty lines tolerated before a request line (RFC 9112 2.2). */
    public static final int MAX_LEADING_EMPTY_LINES = 8;

    private enum State { REQUEST_LINE, HEADER_LINE, COMPLETE, FAILED }

    private final int maxRequestLineBytes;
    private final LineReader lines = new LineReader();
    private final FieldSection headers;
    private State state = State.REQUEST_LINE;
    private int emptyLines;
    private RequestLine requestLine;
    private RequestHead head;

    /**
     * @param maxRequestLineBytes the longest request line, CRLF excluded (at least 1)
     * @param maxHeaderSectionBytes the largest header section: its field lines with their CRLFs (at least 0)
     * @param maxHeaderCount the most header fields (at least 0)
     */
    public RequestHeadParser(int maxRequestLineBytes, int maxHeaderSectionBytes, int maxHeaderCount) {
        if (maxRequestLineBytes < 1 || maxHeaderSectionBytes < 0 || maxHeaderCount < 0) {
            throw new IllegalArgumentException("limits must be positive");
        }
        this.maxRequestLineBytes = maxRequestLineBytes;
        this.headers = new FieldSection(maxHeaderSectionBytes, maxHeaderCount,
                ProtocolRule.HEADER_SECTION_TOO_LARGE, ProtocolRule.TOO_MANY_HEADERS);
    }

    /**
     * Parses bytes {@code buf[offset, limit)}. When the head's final empty line is consumed,
     * {@link #isComplete()} turns true and parsing stops right after it; otherwise all input is consumed, a
     * partial line being kept internally.
     *
     * @return the index just past the last byte consumed
     * @throws RequestException on any violation; the parser is then failed until {@link #reset()}
     * @throws IllegalStateException if the parser has failed
     */
    public int parse(byte[] buf, int offset, int limit) throws RequestException {
        Objects.checkFromToIndex(offset, limit, buf.length);
        if (state == State.FAILED) {
            throw new IllegalStateException("parser failed; reset it first");
        }
        int pos = offset;
        try {
            while (pos < limit && state != State.COMPLETE) {
                pos = state == State.REQUEST_LINE
                        ? lines.read(buf, pos, limit, maxRequestLineBytes, ProtocolRule.REQUEST_LINE_TOO_LONG)
                        : lines.read(buf, pos, limit, headers.maxLineContent(), headers.tooLargeRule());
                if (lines.hasLine()) {
                    onLine(lines.array(), lines.start(), lines.end());
                }
            }
        } catch (RequestException e) {
            state = State.FAILED;
            throw e;
        }
        return pos;
    }

    private void onLine(byte[] b, int start, int end) throws RequestException {
        if (state == State.REQUEST_LINE) {
            if (start == end) {
                if (++emptyLines > MAX_LEADING_EMPTY_LINES) {
                    throw new RequestException(ProtocolRule.LEADING_EMPTY_LINES);
                }
                return;
            }
            requestLine = RequestLine.parse(b, start, end);
            state = State.HEADER_LINE;
            return;
        }
        if (start < end && headers.count() == 0 && HttpChars.isWhitespace(b[start])) {
            throw new RequestException(ProtocolRule.WHITESPACE_AFTER_START_LINE);
        }
        if (headers.accept(b, start, end)) {
            head = HeadInterpreter.interpret(requestLine, headers.take());
            state = State.COMPLETE;
        }
    }

    /** Whether a whole head has been parsed and awaits {@link #take()}. */
    public boolean isComplete() {
        return state == State.COMPLETE;
    }

    /**
     * Whether any byte of a request has been seen since the last reset, leading empty lines aside: tells an idle
     * connection from one in the middle of a head.
     */
    public boolean inProgress() {
        return state != State.REQUEST_LINE || lines.hasPendingContent();
    }

    /**
     * Returns the completed head and resets the parser for the next request.
     *
     * @throws IllegalStateException if no head is complete
     */
    public RequestHead take() {
        if (state != State.COMPLETE) {
            throw new IllegalStateException("no complete request head");
        }
        RequestHead taken = head;
        reset();
        return taken;
    }

    /** Forgets any partial or failed request and waits for a new one. */
    public void reset() {
        state = State.REQUEST_LINE;
        emptyLines = 0;
        requestLine = null;
        head = null;
        lines.reset();
        headers.reset();
    }
}
