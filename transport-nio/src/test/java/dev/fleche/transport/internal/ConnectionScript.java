package dev.fleche.transport.internal;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * How {@link ConnectionFuzzTest} reads its raw input: a small control prefix, then the bytes the client sends. The
 * prefix keeps the corpus readable (a seed is two control bytes followed by the requests as they go on the wire)
 * while letting the fuzzer choose the options, the read split points, the write side's back-pressure, the clock and
 * the handler's behaviour; one bit makes the client speak HTTP/2, the rest then being its frames.
 *
 * <pre>
 *   byte 0:  bits 0-2  r, the number of read-piece bytes that follow (0: each read takes all that is left)
 *            bit  3    the client ends its stream (FIN) after the last byte
 *            bits 4-5  which options (see ConnectionFuzzTest): 0 test defaults, 1 small bodies and windows,
 *                      2 small head limits, 3 short timeouts
 *            bit  6    HTTP/2: the client sends the preface and an empty SETTINGS frame before the rest (h2c by
 *                      prior knowledge), so the rest is frames
 *            bit  7    the client never reads: every write takes nothing, through the drain too, and the server's
 *                      output budgets are small (options + 4: 2 KiB queued output for HTTP/2, 2 KiB high-water mark)
 *   byte 1:  bits 0-2  s, the number of step bytes that follow (0: every step writes all, runs every handler action)
 *            bits 3-5  h, the number of handler bytes that follow (0: every request answered at once, whole)
 *   r bytes: read pieces: byte b means a read of at most b + 1 bytes, used in turn and cycled
 *   s bytes: steps, cycled (see {@link Step})
 *   h bytes: handler choices, one per request, cycled (see ConnectionFuzzTest.Behaviour)
 *   the rest: what the client sends
 * </pre>
 */
final class ConnectionScript {
    /** What an HTTP/2 script sends before its bytes: the client preface and an empty SETTINGS frame. */
    static final byte[] H2_START = concat("PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n".getBytes(StandardCharsets.US_ASCII),
            new byte[] {0, 0, 0, 4, 0, 0, 0, 0, 0});

    private final int options;
    private final boolean http2;
    private final boolean neverReads;
    private final boolean fin;
    private final int[] pieces;
    private final byte[] steps;
    private final byte[] handler;
    private final byte[] message;

    private ConnectionScript(int options, boolean http2, boolean neverReads, boolean fin, int[] pieces, byte[] steps,
            byte[] handler, byte[] message) {
        this.options = options;
        this.http2 = http2;
        this.neverReads = neverReads;
        this.fin = fin;
        this.pieces = pieces;
        this.steps = steps;
        this.handler = handler;
        this.message = message;
    }

    static ConnectionScript of(byte[] raw) {
        int b0 = raw.length > 0 ? raw[0] & 0xFF : 0;
        int b1 = raw.length > 1 ? raw[1] & 0xFF : 0;
        int at = Math.min(2, raw.length);
        int r = Math.min(b0 & 0x07, raw.length - at);
        int[] pieces = new int[r];
        for (int i = 0; i < r; i++) {
            pieces[i] = (raw[at + i] & 0xFF) + 1;
        }
        at += r;
        int s = Math.min(b1 & 0x07, raw.length - at);
        byte[] steps = Arrays.copyOfRange(raw, at, at + s);
        at += s;
        int h = Math.min((b1 >>> 3) & 0x07, raw.length - at);
        byte[] handler = Arrays.copyOfRange(raw, at, at + h);
        at += h;
        boolean http2 = (b0 & 0x40) != 0;
        boolean neverReads = (b0 & 0x80) != 0;
        byte[] rest = Arrays.copyOfRange(raw, at, raw.length);
        return new ConnectionScript((b0 >>> 4) & 0x03 | (neverReads ? 4 : 0), http2, neverReads, (b0 & 0x08) != 0,
                pieces, steps, handler, http2 ? concat(H2_START, rest) : rest);
    }

    private static byte[] concat(byte[] a, byte[] b) {
        byte[] both = Arrays.copyOf(a, a.length + b.length);
        System.arraycopy(b, 0, both, a.length, b.length);
        return both;
    }

    int options() {
        return options;
    }

    /** Whether the client speaks HTTP/2 (prior knowledge): {@link #message()} starts with {@link #H2_START}. */
    boolean http2() {
        return http2;
    }

    boolean fin() {
        return fin;
    }

    /** Whether the client never reads: no write takes anything, the drain's neither. */
    boolean neverReads() {
        return neverReads;
    }

    byte[] message() {
        return message;
    }

    /** The most the {@code n}th read may take. */
    int piece(int n) {
        return pieces.length == 0 ? Integer.MAX_VALUE : pieces[n % pieces.length];
    }

    /** What step {@code n} does. */
    Step step(int n) {
        return steps.length == 0 ? Step.FREE : new Step(steps[n % steps.length] & 0xFF);
    }

    /** The handler's choice byte for request {@code seq}. */
    int handlerChoice(int seq) {
        return handler.length == 0 ? 0 : handler[seq % handler.length] & 0xFF;
    }

    /**
     * One step of the drive loop.
     * <pre>
     *   bits 0-2  how much each write may take: 0 nothing (a full socket), 1 one byte, 2 five, 3 a hundred, 4-7 all
     *   bits 3-4  how many pending handler actions run in this step (0-3)
     *   bits 5-7  how far the clock moves after it: 0, 1 ms, 50 ms, 1 s, 6 s, 21 s, 31 s, 61 s
     * </pre>
     */
    record Step(int bits) {
        static final Step FREE = new Step(0x1F); // writes take all, three actions, clock still
        private static final long[] ADVANCE_MILLIS = {0, 1, 50, 1_000, 6_000, 21_000, 31_000, 61_000};

        int writeAllowance() {
            return switch (bits & 0x07) {
                case 0 -> 0;
                case 1 -> 1;
                case 2 -> 5;
                case 3 -> 100;
                default -> Integer.MAX_VALUE;
            };
        }

        int handlerActions() {
            return (bits >>> 3) & 0x03;
        }

        long advanceNanos() {
            return ADVANCE_MILLIS[(bits >>> 5) & 0x07] * 1_000_000L;
        }
    }
}
