package dev.fleche.transport.http1;

import java.util.Arrays;

/**
 * Finds CRLF-terminated lines in successive input buffers, with a bounded scan.
 *
 * <p>A line that lies wholly in one buffer is exposed in place, with no copy. Only a line split across calls is
 * gathered in a small byte array, grown as needed up to the line's limit; an array up to {@link #KEEP} bytes
 * is kept for the next split line, a larger one is dropped once its line is complete.
 *
 * <p>After {@link #read} reports a line ({@link #hasLine()}), {@link #array()}, {@link #start()} and
 * {@link #end()} give its content without the CRLF, valid until the next {@code read}.
 */
final class LineReader {

    static final int KEEP = 512;
    private static final int INITIAL = 64;

    private byte[] partial;
    private int partialLength;

    private byte[] line;
    private int lineStart;
    private int lineEnd;
    private boolean ready;

    /**
     * Reads from {@code buf[pos, limit)} towards the end of the current line.
     *
     * @param maxContent the most bytes the line may hold, CRLF excluded
     * @param tooLong the rule a longer line violates
     * @return the index past the consumed bytes: past the LF when a line completed, else {@code limit}
     */
    int read(byte[] buf, int pos, int limit, int maxContent, ProtocolRule tooLong) throws RequestException {
        ready = false;
        long window = (long) maxContent + 2 - partialLength;
        int end = (int) Math.min(limit, pos + window);
        for (int i = pos; i < end; i++) {
            if (buf[i] == HttpChars.LF) {
                complete(buf, pos, i);
                return i + 1;
            }
        }
        long taken = end - pos;
        if (taken >= window || (taken == window - 1 && taken > 0 && buf[end - 1] != HttpChars.CR)) {
            throw new RequestException(tooLong); // no room left, or room only for the LF but no CR before it
        }
        append(buf, pos, end);
        return end;
    }

    /** Whether the last {@link #read} completed a line. */
    boolean hasLine() {
        return ready;
    }

    byte[] array() {
        return line;
    }

    int start() {
        return lineStart;
    }

    int end() {
        return lineEnd;
    }

    /** Whether bytes of an unfinished line are held, other than a lone CR (the start of an empty line). */
    boolean hasPendingContent() {
        return partialLength > 1 || (partialLength == 1 && partial[0] != HttpChars.CR);
    }

    /** Forgets any partial line; keeps a small gathering array for reuse. */
    void reset() {
        partialLength = 0;
        ready = false;
        line = null;
        if (partial != null && partial.length > KEEP) {
            partial = null;
        }
    }

    private void complete(byte[] buf, int from, int lf) throws RequestException {
        if (partialLength == 0) {
            line = buf;
            lineStart = from;
            lineEnd = lf;
        } else {
            append(buf, from, lf);
            line = partial;
            lineStart = 0;
            lineEnd = partialLength;
            partialLength = 0;
            if (partial.length > KEEP) {
                partial = null;
            }
        }
        if (lineEnd == lineStart || line[lineEnd - 1] != HttpChars.CR) {
            throw new RequestException(ProtocolRule.BARE_LF);
        }
        lineEnd--;
        ready = true;
    }

    private void append(byte[] buf, int from, int to) {
        int needed = partialLength + (to - from);
        if (partial == null) {
            partial = new byte[Math.max(INITIAL, needed)];
        } else if (partial.length < needed) {
            partial = Arrays.copyOf(partial, Math.max(needed, partial.length * 2));
        }
        System.arraycopy(buf, from, partial, partialLength, to - from);
        partialLength = needed;
    }
}
