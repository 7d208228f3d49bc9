package dev.fleche.conformance.h2.client;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * An HPACK field block (RFC 7541) written representation by representation, so that a test says exactly which
 * representation the server gets: {@link #indexed}, the three literal kinds with an indexed or a new name, Huffman
 * or not, {@link #sizeUpdate}, or {@link #raw} octets for a block no encoder would write. It keeps no dynamic table:
 * a test that indexes a field knows the index it gets ({@link StaticTable#SIZE} + 1 for the newest entry).
 *
 * <p>{@link #field} is the plain way used for ordinary requests: a literal without indexing (it leaves the server's
 * table alone), its name by static index where the static table has it, no Huffman. Names and values are taken
 * octet for octet (ISO-8859-1), with no lowercasing, so a test can send what RFC 9113 forbids.
 */
public final class FieldBlock {
    /** The literal representations of RFC 7541 6.2: first-octet pattern and prefix length of the name index. */
    public enum Indexing {
        /** 6.2.1: the field is added to the dynamic table. */
        INCREMENTAL(0x40, 6),
        /** 6.2.2: the table is left alone. */
        WITHOUT(0x00, 4),
        /** 6.2.3: the table is left alone, and an intermediary must keep it so. */
        NEVER(0x10, 4);

        private final int pattern;
        private final int prefix;

        Indexing(int pattern, int prefix) {
            this.pattern = pattern;
            this.prefix = prefix;
        }
    }

    private final ByteArrayOutputStream out = new ByteArrayOutputStream();

    /** An empty block. */
    public static FieldBlock create() {
        return new FieldBlock();
    }

    /** A block of {@code namesAndValues} (name, value, name, value...), each written by {@link #field}. */
    public static FieldBlock of(String... namesAndValues) {
        FieldBlock block = new FieldBlock();
        for (int i = 0; i < namesAndValues.length; i += 2) {
            block.field(namesAndValues[i], namesAndValues[i + 1]);
        }
        return block;
    }

    /** {@code name: value} as a literal without indexing, the name indexed when the static table has it. */
    public FieldBlock field(String name, String value) {
        int index = StaticTable.indexOf(name);
        return index > 0 ? literal(Indexing.WITHOUT, index, value, false)
                : literal(Indexing.WITHOUT, name, value, false);
    }

    /** RFC 7541 6.1: the field at {@code index} of the static or dynamic table. */
    public FieldBlock indexed(int index) {
        integer(0x80, 7, index);
        return this;
    }

    /** RFC 7541 6.2: a literal whose name is the one at {@code nameIndex}. */
    public FieldBlock literal(Indexing indexing, int nameIndex, String value, boolean huffman) {
        integer(indexing.pattern, indexing.prefix, nameIndex);
        string(octets(value), huffman);
        return this;
    }

    /** RFC 7541 6.2: a literal with a new name (index 0). */
    public FieldBlock literal(Indexing indexing, String name, String value, boolean huffman) {
        integer(indexing.pattern, indexing.prefix, 0);
        string(octets(name), huffman);
        string(octets(value), huffman);
        return this;
    }

    /**
     * RFC 7541 6.2 with a new name, its value given as the octets to send with the H bit {@code huffman}: for a
     * Huffman-coded string no encoder would write (bad padding, EOS inside).
     */
    public FieldBlock literalWithRawValue(Indexing indexing, String name, boolean huffman, byte[] valueOctets) {
        integer(indexing.pattern, indexing.prefix, 0);
        string(octets(name), false);
        integer(huffman ? 0x80 : 0x00, 7, valueOctets.length);
        out.writeBytes(valueOctets);
        return this;
    }

    /** RFC 7541 6.3: a dynamic table size update to {@code size}. */
    public FieldBlock sizeUpdate(long size) {
        integer(0x20, 5, size);
        return this;
    }

    /** Octets as they are, for a representation no encoder would write. */
    public FieldBlock raw(int... octets) {
        for (int octet : octets) {
            out.write(octet);
        }
        return this;
    }

    /** The block's octets so far. */
    public byte[] bytes() {
        return out.toByteArray();
    }

    /** The block's octets from {@code from} (inclusive) to {@code to} (exclusive): a fragment. */
    public byte[] slice(int from, int to) {
        return Arrays.copyOfRange(bytes(), from, to);
    }

    public int length() {
        return out.size();
    }

    /** RFC 7541 5.1: {@code value} with an N-bit prefix, the first octet's other bits {@code pattern}. */
    private void integer(int pattern, int prefixBits, long value) {
        int max = (1 << prefixBits) - 1;
        if (value < max) {
            out.write(pattern | (int) value);
            return;
        }
        out.write(pattern | max);
        long rest = value - max;
        while (rest >= 128) {
            out.write((int) (rest & 0x7F) | 0x80);
            rest >>>= 7;
        }
        out.write((int) rest);
    }

    /** RFC 7541 5.2: a string literal, its length prefixed, Huffman-coded or not. */
    private void string(byte[] octets, boolean huffman) {
        byte[] coded = huffman ? Huffman.encode(octets) : octets;
        integer(huffman ? 0x80 : 0x00, 7, coded.length);
        out.writeBytes(coded);
    }

    static byte[] octets(String s) {
        return s.getBytes(StandardCharsets.ISO_8859_1);
    }
}
