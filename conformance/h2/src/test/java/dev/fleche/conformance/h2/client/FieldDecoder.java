package dev.fleche.conformance.h2.client;

import dev.fleche.conformance.h2.client.Frame.Field;

import java.nio.charset.StandardCharsets;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Deque;
import java.util.List;

/**
 * The client's HPACK decoder (RFC 7541) for the server's field blocks, with its own dynamic table. Strict, so that a
 * server whose encoder breaks a rule fails the test that reads its answer: an index of 0 or beyond both tables, a
 * size update after a field or above the limit this client allows, a string or an integer cut short or too large,
 * Huffman padding other than 1 to 7 bits of EOS's prefix.
 */
public final class FieldDecoder {
    /** RFC 7541 4.1: an entry's size is its name's and value's octets plus 32. */
    private static final int ENTRY_OVERHEAD = 32;

    private final int limit;
    private final Deque<Field> table = new ArrayDeque<>();
    private int maxSize;
    private int size;

    /** A decoder whose table may grow to {@code limit} octets (our SETTINGS_HEADER_TABLE_SIZE). */
    public FieldDecoder(int limit) {
        this.limit = limit;
        this.maxSize = limit;
    }

    /** The fields of one whole field block, in order; the table updated as RFC 7541 3.2 says. */
    public List<Field> decode(byte[] block) throws HpackException {
        List<Field> fields = new ArrayList<>();
        int[] at = {0};
        boolean fieldSeen = false;
        while (at[0] < block.length) {
            int first = block[at[0]] & 0xFF;
            if ((first & 0x80) != 0) { // 6.1 indexed
                int index = (int) integer(block, at, 7);
                fields.add(entry(index));
                fieldSeen = true;
            } else if ((first & 0xC0) == 0x40) { // 6.2.1 incremental indexing
                Field field = literal(block, at, 6);
                fields.add(field);
                add(field);
                fieldSeen = true;
            } else if ((first & 0xE0) == 0x20) { // 6.3 size update
                if (fieldSeen) {
                    throw new HpackException("dynamic table size update after a field (RFC 7541 4.2)");
                }
                long newSize = integer(block, at, 5);
                if (newSize > limit) {
                    throw new HpackException("dynamic table size update to " + newSize + " over " + limit);
                }
                maxSize = (int) newSize;
                evict(0);
            } else { // 6.2.2 without indexing (0000), 6.2.3 never indexed (0001)
                fields.add(literal(block, at, 4));
                fieldSeen = true;
            }
        }
        return fields;
    }

    private Field literal(byte[] block, int[] at, int prefix) throws HpackException {
        int nameIndex = (int) integer(block, at, prefix);
        String name = nameIndex == 0 ? string(block, at) : entry(nameIndex).name();
        return new Field(name, string(block, at));
    }

    private Field entry(int index) throws HpackException {
        if (index == 0) {
            throw new HpackException("index 0 (RFC 7541 6.1)");
        }
        if (index <= StaticTable.SIZE) {
            return new Field(StaticTable.name(index), StaticTable.value(index));
        }
        int dynamic = index - StaticTable.SIZE - 1;
        if (dynamic >= table.size()) {
            throw new HpackException("index " + index + " beyond both tables (RFC 7541 2.3.3)");
        }
        return table.stream().skip(dynamic).findFirst().orElseThrow();
    }

    private void add(Field field) {
        int entrySize = entrySize(field);
        evict(entrySize);
        if (entrySize <= maxSize) {
            table.addFirst(field);
            size += entrySize;
        }
    }

    /** Evicts the oldest entries until {@code room} more octets fit (RFC 7541 4.3, 4.4). */
    private void evict(int room) {
        while (!table.isEmpty() && size + room > maxSize) {
            size -= entrySize(table.removeLast());
        }
    }

    private static int entrySize(Field field) {
        return field.name().length() + field.value().length() + ENTRY_OVERHEAD;
    }

    /** RFC 7541 5.1, with at most 4 continuation octets (values below 2^28 + prefix). */
    static long integer(byte[] block, int[] at, int prefixBits) throws HpackException {
        int max = (1 << prefixBits) - 1;
        long value = block[at[0]++] & max;
        if (value < max) {
            return value;
        }
        for (int shift = 0; shift <= 21; shift += 7) {
            if (at[0] >= block.length) {
                throw new HpackException("integer cut short");
            }
            int octet = block[at[0]++] & 0xFF;
            value += (long) (octet & 0x7F) << shift;
            if ((octet & 0x80) == 0) {
                return value;
            }
        }
        throw new HpackException("integer too large");
    }

    /** RFC 7541 5.2. */
    private static String string(byte[] block, int[] at) throws HpackException {
        if (at[0] >= block.length) {
            throw new HpackException("string literal missing");
        }
        boolean huffman = (block[at[0]] & 0x80) != 0;
        long length = integer(block, at, 7);
        if (length > block.length - at[0]) {
            throw new HpackException("string literal of " + length + " octets runs past the block");
        }
        byte[] octets = Arrays.copyOfRange(block, at[0], at[0] + (int) length);
        at[0] += (int) length;
        return new String(huffman ? Huffman.decode(octets) : octets, StandardCharsets.ISO_8859_1);
    }
}
