package dev.fleche.transport.http1;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * How a fuzz target reads its raw input: a small control prefix, then the message. The prefix keeps the corpus
 * files readable (a seed is one control byte followed by the request as it goes on the wire) while letting the
 * fuzzer choose the limits and the split points.
 *
 * <pre>
 *   byte 0:  bits 0-2  k, the number of piece-length bytes that follow (0: the message arrives whole)
 *            bits 3-7  which limits to use (see {@link #limit})
 *   bytes 1..k: piece lengths, each byte b meaning b + 1 bytes, used in turn and cycled
 *   the rest: the message
 * </pre>
 */
final class FuzzInput {

    private final int limitsChoice;
    private final byte[] message;
    private final int[] pieceLengths;

    private FuzzInput(int limitsChoice, int[] pieceLengths, byte[] message) {
        this.limitsChoice = limitsChoice;
        this.pieceLengths = pieceLengths;
        this.message = message;
    }

    static FuzzInput of(byte[] raw) {
        if (raw.length == 0) {
            return new FuzzInput(0, new int[0], raw);
        }
        int k = Math.min(raw[0] & 0x07, raw.length - 1);
        int[] lengths = new int[k];
        for (int i = 0; i < k; i++) {
            lengths[i] = (raw[1 + i] & 0xFF) + 1;
        }
        return new FuzzInput((raw[0] & 0xFF) >>> 3, lengths, Arrays.copyOfRange(raw, 1 + k, raw.length));
    }

    /** The message bytes, without the control prefix. */
    byte[] message() {
        return message;
    }

    /**
     * One of the limits to use: choice 0 is the test defaults ({@link MessageDriver#LINE}, {@link MessageDriver#SECTION},
     * {@link MessageDriver#COUNT}); other choices shrink them so that the fuzzer reaches every bound.
     *
     * @param which 0 for the line limit, 1 for the section limit, 2 for the field count
     */
    int limit(int which) {
        if (limitsChoice == 0) {
            return switch (which) {
                case 0 -> MessageDriver.LINE;
                case 1 -> MessageDriver.SECTION;
                default -> MessageDriver.COUNT;
            };
        }
        return switch (which) {
            case 0 -> 1 + limitsChoice * 4;
            case 1 -> limitsChoice * 8;
            default -> limitsChoice % 8;
        };
    }

    /**
     * The message cut into pieces as the prefix says, each copied into its own array with garbage around it, so
     * a parser that reads outside its range or keeps a caller's buffer is caught.
     */
    List<Piece> pieces() {
        List<Piece> pieces = new ArrayList<>();
        int pos = 0;
        int turn = 0;
        while (pos < message.length) {
            int length = pieceLengths.length == 0
                    ? message.length - pos
                    : Math.min(pieceLengths[turn++ % pieceLengths.length], message.length - pos);
            byte[] padded = new byte[length + 6];
            Arrays.fill(padded, (byte) '\n');
            System.arraycopy(message, pos, padded, 3, length);
            pieces.add(new Piece(padded, 3, 3 + length));
            pos += length;
        }
        return pieces;
    }

    /** Bytes {@code buf[offset, limit)} of one piece. */
    record Piece(byte[] buf, int offset, int limit) {
        /** Overwrites the piece once used: a parser holding on to it would then see garbage. */
        void scrub() {
            Arrays.fill(buf, (byte) 'X');
        }
    }
}
