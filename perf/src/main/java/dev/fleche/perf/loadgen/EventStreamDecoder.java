package dev.fleche.perf.loadgen;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * Decodes a {@code text/event-stream} body as it streams past (fed by {@link ResponseParser}) into the events the
 * benchmark servers broadcast: one {@code data:} line per event carrying the event's number and the time the server
 * sent it, {@code <number> <microseconds since the epoch>}. Comment lines and other fields are ignored. An event
 * whose data is not exactly those two numbers, that has two data lines, or that has a line longer than
 * {@link #MAX_LINE}, is malformed: counted, and the first one kept for the error message.
 *
 * <pre>
 *   LINE --'\n'--> (an empty line ends the event: decoded, or malformed) LINE
 *     '--more than MAX_LINE bytes--> OVERLONG --'\n'--> (the event is malformed) LINE
 * </pre>
 *
 * Decoded events accumulate until {@link #clearDecoded()}; the caller takes them after every read, so at most one
 * read's worth is held. Not thread-safe: one per connection.
 */
final class EventStreamDecoder {
    static final int MAX_LINE = 256;

    private enum State { LINE, OVERLONG }

    private final byte[] line = new byte[MAX_LINE];
    private int length;
    private State state = State.LINE;

    // the event in progress
    private boolean hasData;
    private boolean malformedEvent;
    private long number;
    private long sentMicros;
    private String data;

    // {number, sentMicros} pairs decoded since the last clearDecoded()
    private long[] decoded = new long[64];
    private int count;
    private int malformed;
    private String lastMalformed;

    /** A new body starts: forgets a partial line and event (not what was decoded). */
    void startBody() {
        length = 0;
        state = State.LINE;
        endEvent();
    }

    /** Decodes {@code n} bytes of {@code in} from absolute index {@code from} (the buffer's position is not moved). */
    void feed(ByteBuffer in, int from, int n) {
        for (int i = from; i < from + n; i++) {
            byte b = in.get(i);
            if (b == '\n') {
                endLine();
            } else if (b != '\r') {
                if (length < MAX_LINE) {
                    line[length++] = b;
                } else {
                    state = State.OVERLONG;
                }
            }
        }
    }

    /** Events decoded since the last {@link #clearDecoded()}. */
    int decoded() {
        return count;
    }

    long number(int i) {
        return decoded[2 * i];
    }

    long sentMicros(int i) {
        return decoded[2 * i + 1];
    }

    void clearDecoded() {
        count = 0;
    }

    /** Malformed events since the last call. */
    int takeMalformed() {
        int n = malformed;
        malformed = 0;
        return n;
    }

    /** The data of the last malformed event (abbreviated), for error messages. */
    String lastMalformed() {
        return lastMalformed;
    }

    private void endLine() {
        int n = length;
        length = 0;
        switch (state) {
            case OVERLONG -> {
                state = State.LINE;
                hasData = true;
                malformedEvent = true;
                data = "(a line longer than " + MAX_LINE + " bytes)";
            }
            case LINE -> {
                if (n == 0) {
                    dispatch();
                } else if (n >= 5 && line[0] == 'd' && line[1] == 'a' && line[2] == 't' && line[3] == 'a'
                        && line[4] == ':') {
                    dataLine(n);
                }
            }
            default -> throw new IllegalStateException(state.name());
        }
    }

    private void dataLine(int n) {
        int from = n > 5 && line[5] == ' ' ? 6 : 5;
        if (hasData) {
            malformed(from, n); // a second data line: not one of ours
            return;
        }
        hasData = true;
        int space = -1;
        for (int i = from; i < n; i++) {
            if (line[i] == ' ') {
                space = i;
                break;
            }
        }
        number = space < 0 ? -1 : digits(from, space);
        sentMicros = space < 0 ? -1 : digits(space + 1, n);
        if (number < 0 || sentMicros < 0) {
            malformed(from, n);
        }
    }

    private void malformed(int from, int to) {
        malformedEvent = true;
        data = new String(line, from, to - from, StandardCharsets.US_ASCII);
    }

    /** The decimal number in {@code line[from, to)}, or -1 when it is empty, not all digits, or too long. */
    private long digits(int from, int to) {
        if (from >= to || to - from > 18) {
            return -1;
        }
        long v = 0;
        for (int i = from; i < to; i++) {
            int d = line[i] - '0';
            if (d < 0 || d > 9) {
                return -1;
            }
            v = v * 10 + d;
        }
        return v;
    }

    private void dispatch() {
        if (!hasData) {
            return;
        }
        if (malformedEvent) {
            malformed++;
            lastMalformed = data.length() > 60 ? data.substring(0, 60) + "…" : data;
        } else {
            if (2 * count + 2 > decoded.length) {
                decoded = Arrays.copyOf(decoded, decoded.length * 2);
            }
            decoded[2 * count] = number;
            decoded[2 * count + 1] = sentMicros;
            count++;
        }
        endEvent();
    }

    private void endEvent() {
        hasData = false;
        malformedEvent = false;
        data = null;
    }
}
