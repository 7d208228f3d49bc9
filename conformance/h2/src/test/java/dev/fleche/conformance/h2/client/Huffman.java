package dev.fleche.conformance.h2.client;

import java.io.ByteArrayOutputStream;

/**
 * The static Huffman code of RFC 7541 Appendix B. That code is canonical: codes of one length are consecutive
 * numbers in symbol order, and each length's first code follows the previous length's last one, shifted. So the
 * 257 code lengths below (the "len in bits" column of the appendix) define it, and the codes are computed from them
 * here; {@code ClientCodecTest} checks the result against the appendix's examples in Appendix C.
 */
public final class Huffman {
    /** The end-of-string symbol; its code (thirty 1 bits) never appears inside a string (RFC 7541 5.2). */
    public static final int EOS = 256;

    private static final byte[] LENGTHS = {
            13, 23, 28, 28, 28, 28, 28, 28, 28, 24, 30, 28, 28, 30, 28, 28, //   0-15
            28, 28, 28, 28, 28, 28, 30, 28, 28, 28, 28, 28, 28, 28, 28, 28, //  16-31
            6, 10, 10, 12, 13, 6, 8, 11, 10, 10, 8, 11, 8, 6, 6, 6,         //  32-47
            5, 5, 5, 6, 6, 6, 6, 6, 6, 6, 7, 8, 15, 6, 12, 10,              //  48-63
            13, 6, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7,                //  64-79
            7, 7, 7, 7, 7, 7, 7, 7, 8, 7, 8, 13, 19, 13, 14, 6,             //  80-95
            15, 5, 6, 5, 6, 5, 6, 6, 6, 5, 7, 7, 6, 6, 6, 5,                //  96-111
            6, 7, 6, 5, 5, 6, 7, 7, 7, 7, 7, 15, 11, 14, 13, 28,            // 112-127
            20, 22, 20, 20, 22, 22, 22, 23, 22, 23, 23, 23, 23, 23, 24, 23, // 128-143
            24, 24, 22, 23, 24, 23, 23, 23, 23, 21, 22, 23, 22, 23, 23, 24, // 144-159
            22, 21, 20, 22, 22, 23, 23, 21, 23, 22, 22, 24, 21, 22, 23, 23, // 160-175
            21, 21, 22, 21, 23, 22, 23, 23, 20, 22, 22, 22, 23, 22, 22, 23, // 176-191
            26, 26, 20, 19, 22, 23, 22, 25, 26, 26, 26, 27, 27, 26, 24, 25, // 192-207
            19, 21, 26, 27, 27, 26, 27, 24, 21, 21, 26, 26, 28, 27, 27, 27, // 208-223
            20, 24, 20, 21, 22, 21, 21, 23, 22, 22, 25, 25, 24, 24, 26, 23, // 224-239
            26, 27, 26, 26, 27, 27, 27, 27, 27, 28, 27, 27, 27, 27, 27, 26, // 240-255
            30,                                                             // 256 (EOS)
    };
    private static final int MAX_LENGTH = 30;

    /** The code of each symbol, right-aligned. */
    private static final int[] CODES = new int[257];
    /** Per length: the first code of that length, how many codes have it, where its symbols start in SORTED. */
    private static final int[] FIRST_CODE = new int[MAX_LENGTH + 1];
    private static final int[] COUNT = new int[MAX_LENGTH + 1];
    private static final int[] FIRST_INDEX = new int[MAX_LENGTH + 1];
    /** The symbols ordered by (length, symbol): the canonical order. */
    private static final int[] SORTED = new int[257];

    static {
        for (byte length : LENGTHS) {
            COUNT[length]++;
        }
        int code = 0;
        int index = 0;
        for (int length = 1; length <= MAX_LENGTH; length++) {
            code <<= 1;
            FIRST_CODE[length] = code;
            FIRST_INDEX[length] = index;
            for (int symbol = 0; symbol < LENGTHS.length; symbol++) {
                if (LENGTHS[symbol] == length) {
                    CODES[symbol] = code++;
                    SORTED[index++] = symbol;
                }
            }
        }
    }

    private Huffman() {
    }

    /** The code of {@code symbol} (0-255, or {@link #EOS}) as a string of 0s and 1s, for hand-made strings. */
    public static String bits(int symbol) {
        StringBuilder bits = new StringBuilder(Integer.toBinaryString(CODES[symbol]));
        while (bits.length() < LENGTHS[symbol]) {
            bits.insert(0, '0');
        }
        return bits.toString();
    }

    /** {@code octets} Huffman-coded, the last byte padded with the most significant bits of EOS (1s). */
    public static byte[] encode(byte[] octets) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        long pending = 0;
        int pendingBits = 0;
        for (byte octet : octets) {
            int symbol = octet & 0xFF;
            pending = pending << LENGTHS[symbol] | CODES[symbol];
            pendingBits += LENGTHS[symbol];
            while (pendingBits >= 8) {
                pendingBits -= 8;
                out.write((int) (pending >>> pendingBits));
            }
        }
        if (pendingBits > 0) {
            out.write((int) (pending << (8 - pendingBits) | 0xFF >>> pendingBits));
        }
        return out.toByteArray();
    }

    /** The number of octets {@link #encode} gives for {@code octets}. */
    static int encodedLength(byte[] octets) {
        long bits = 0;
        for (byte octet : octets) {
            bits += LENGTHS[octet & 0xFF];
        }
        return (int) ((bits + 7) / 8);
    }

    /**
     * Decodes a Huffman-coded string. Fails, as RFC 7541 5.2 asks, on the EOS symbol inside the string, on padding
     * longer than 7 bits and on padding that is not the most significant bits of EOS.
     */
    static byte[] decode(byte[] coded) throws HpackException {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        int code = 0;
        int length = 0;
        for (byte b : coded) {
            for (int bit = 7; bit >= 0; bit--) {
                code = code << 1 | (b >>> bit) & 1;
                length++;
                int offset = code - FIRST_CODE[length];
                if (offset >= 0 && offset < COUNT[length]) {
                    int symbol = SORTED[FIRST_INDEX[length] + offset];
                    if (symbol == EOS) {
                        throw new HpackException("EOS symbol inside a Huffman-coded string");
                    }
                    out.write(symbol);
                    code = 0;
                    length = 0;
                } else if (length == MAX_LENGTH) {
                    throw new HpackException("no Huffman code matches " + Integer.toBinaryString(code));
                }
            }
        }
        if (length > 7) {
            throw new HpackException("Huffman padding longer than 7 bits");
        }
        if (code != (1 << length) - 1) {
            throw new HpackException("Huffman padding that is not a prefix of EOS");
        }
        return out.toByteArray();
    }
}
