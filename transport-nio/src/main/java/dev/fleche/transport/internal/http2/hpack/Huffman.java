package dev.fleche.transport.internal.http2.hpack;

import java.nio.ByteBuffer;

/**
 * The Huffman code of RFC 7541 Appendix B.
 *
 * <p>The code is canonical: ordering the 257 symbols by code length, then by symbol, gives consecutive codes. So
 * only each symbol's length is written down here ({@link #LENGTHS}); the codes are derived from them at class
 * initialisation, and the Appendix C examples in the tests hold the result against the RFC.
 *
 * <p>Decoding walks a table of 256 states × 16 nibbles built from the code tree: a state is an inner node of the
 * tree (the bits read since the last symbol), and one step consumes four bits, emitting at most one symbol (no
 * code is shorter than five bits). A string ends well only in a state on the all-ones path of at most seven bits
 * (§5.2: padding is the most significant bits of EOS, and no longer than 7 bits); reaching EOS itself is an error.
 * Characters are octets: a {@code char} above U+00FF is encoded as {@code '?'} (as {@code ISO_8859_1} would).
 */
final class Huffman {
    /** Code length in bits of symbols 0–255 and EOS (256), from RFC 7541 Appendix B. */
    private static final byte[] LENGTHS = {
        13, 23, 28, 28, 28, 28, 28, 28, 28, 24, 30, 28, 28, 30, 28, 28,
        28, 28, 28, 28, 28, 28, 30, 28, 28, 28, 28, 28, 28, 28, 28, 28,
        6, 10, 10, 12, 13, 6, 8, 11, 10, 10, 8, 11, 8, 6, 6, 6,
        5, 5, 5, 6, 6, 6, 6, 6, 6, 6, 7, 8, 15, 6, 12, 10,
        13, 6, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7,
        7, 7, 7, 7, 7, 7, 7, 7, 8, 7, 8, 13, 19, 13, 14, 6,
        15, 5, 6, 5, 6, 5, 6, 6, 6, 5, 7, 7, 6, 6, 6, 5,
        6, 7, 6, 5, 5, 6, 7, 7, 7, 7, 7, 15, 11, 14, 13, 28,
        20, 22, 20, 20, 22, 22, 22, 23, 22, 23, 23, 23, 23, 23, 24, 23,
        24, 24, 22, 23, 24, 23, 23, 23, 23, 21, 22, 23, 22, 23, 23, 24,
        22, 21, 20, 22, 22, 23, 23, 21, 23, 22, 22, 24, 21, 22, 23, 23,
        21, 21, 22, 21, 23, 22, 23, 23, 20, 22, 22, 22, 23, 22, 22, 23,
        26, 26, 20, 19, 22, 23, 22, 25, 26, 26, 26, 27, 27, 26, 24, 25,
        19, 21, 26, 27, 27, 26, 27, 24, 21, 21, 26, 26, 28, 27, 27, 27,
        20, 24, 20, 21, 22, 21, 21, 23, 22, 22, 25, 25, 24, 24, 26, 23,
        26, 27, 26, 26, 27, 27, 27, 27, 27, 28, 27, 27, 27, 27, 27, 26,
        30,
    };
    private static final int EOS = 256;
    /** Codes, right-aligned in an int (the longest is 30 bits). */
    private static final int[] CODES = new int[257];

    /** Inner nodes of the code tree; node 0 is the root. A child is an inner node (≥ 0) or ~symbol (< 0). */
    private static final int INNER_NODES = 256;
    /** Per state and nibble: next state (bits 0–7), emitted symbol (bits 8–15), and the flags below. */
    private static final int[] STEPS = new int[INNER_NODES * 16];
    private static final int EMITS = 1 << 16;
    private static final int FAILS = 1 << 17;
    /** States in which a string may end: the root, or padding of 1 to 7 one-bits. */
    private static final boolean[] MAY_END = new boolean[INNER_NODES];

    static {
        int[] order = new int[257];
        for (int s = 0; s < 257; s++) {
            order[s] = s;
        }
        sortByLengthThenSymbol(order);
        int code = 0;
        for (int i = 0; i < 257; i++) {
            if (i > 0) {
                code = (code + 1) << (LENGTHS[order[i]] - LENGTHS[order[i - 1]]);
            }
            CODES[order[i]] = code;
        }
        buildDecoder();
    }

    private Huffman() {
    }

    private static void sortByLengthThenSymbol(int[] order) {
        for (int i = 1; i < order.length; i++) { // insertion sort, once, on 257 items
            int s = order[i];
            int j = i - 1;
            while (j >= 0 && LENGTHS[order[j]] > LENGTHS[s]) {
                order[j + 1] = order[j];
                j--;
            }
            order[j + 1] = s;
        }
    }

    private static void buildDecoder() {
        int[][] children = new int[INNER_NODES][2];
        int[] depth = new int[INNER_NODES];
        boolean[] allOnes = new boolean[INNER_NODES];
        allOnes[0] = true;
        int nodes = 1;
        for (int s = 0; s <= EOS; s++) {
            int node = 0;
            for (int bit = LENGTHS[s] - 1; bit > 0; bit--) {
                int b = (CODES[s] >>> bit) & 1;
                if (children[node][b] == 0) {
                    children[node][b] = nodes;
                    depth[nodes] = depth[node] + 1;
                    allOnes[nodes] = allOnes[node] && b == 1;
                    nodes++;
                }
                node = children[node][b];
            }
            children[node][CODES[s] & 1] = ~s;
        }
        for (int state = 0; state < INNER_NODES; state++) {
            MAY_END[state] = state == 0 || (allOnes[state] && depth[state] <= 7);
            for (int nibble = 0; nibble < 16; nibble++) {
                STEPS[state * 16 + nibble] = step(children, state, nibble);
            }
        }
    }

    private static int step(int[][] children, int state, int nibble) {
        int node = state;
        int result = 0;
        for (int bit = 3; bit >= 0; bit--) {
            int next = children[node][(nibble >>> bit) & 1];
            if (next >= 0) {
                node = next;
            } else if (~next == EOS) {
                return FAILS;
            } else {
                result = EMITS | (~next << 8);
                node = 0;
            }
        }
        return result | node;
    }

    /**
     * Decodes {@code length} octets of {@code src} (from its position, which advances) into {@code dst} from
     * {@code offset}, which must have room for {@code length * 8 / 5} octets. Returns the number of octets written.
     */
    static int decode(ByteBuffer src, int length, byte[] dst, int offset) throws HpackException {
        int state = 0;
        int out = offset;
        for (int i = 0; i < length; i++) {
            int b = src.get() & 0xFF;
            int step = STEPS[state * 16 + (b >>> 4)];
            if ((step & FAILS) != 0) {
                throw eos();
            }
            if ((step & EMITS) != 0) {
                dst[out++] = (byte) (step >>> 8);
            }
            step = STEPS[(step & 0xFF) * 16 + (b & 0x0F)];
            if ((step & FAILS) != 0) {
                throw eos();
            }
            if ((step & EMITS) != 0) {
                dst[out++] = (byte) (step >>> 8);
            }
            state = step & 0xFF;
        }
        if (!MAY_END[state]) {
            throw new HpackException(HpackException.Kind.COMPRESSION_ERROR,
                    "RFC 7541 §5.2: Huffman padding longer than 7 bits or not the most significant bits of EOS");
        }
        return out - offset;
    }

    private static HpackException eos() {
        return new HpackException(HpackException.Kind.COMPRESSION_ERROR, "RFC 7541 §5.2: EOS in a Huffman string");
    }

    /** The Huffman-coded length of {@code s} in octets. */
    static int encodedLength(String s) {
        long bits = 0;
        for (int i = 0; i < s.length(); i++) {
            bits += LENGTHS[octet(s.charAt(i))];
        }
        return (int) ((bits + 7) >>> 3);
    }

    /** Writes {@code s} Huffman-coded; {@code out} has room for {@link #encodedLength(String)} octets. */
    static void encode(String s, ByteBuffer out) {
        long pending = 0; // bits not yet written, right-aligned
        int count = 0;
        for (int i = 0; i < s.length(); i++) {
            int symbol = octet(s.charAt(i));
            pending = (pending << LENGTHS[symbol]) | CODES[symbol];
            count += LENGTHS[symbol];
            while (count >= 8) {
                count -= 8;
                out.put((byte) (pending >>> count));
            }
        }
        if (count > 0) { // pad with the most significant bits of EOS (all ones)
            out.put((byte) ((pending << (8 - count)) | (0xFF >>> count)));
        }
    }

    private static int octet(char c) {
        return c > 0xFF ? '?' : c;
    }
}
