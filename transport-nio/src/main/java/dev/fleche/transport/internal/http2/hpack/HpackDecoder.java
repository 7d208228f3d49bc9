package dev.fleche.transport.internal.http2.hpack;

import java.nio.ByteBuffer;

import static java.nio.charset.StandardCharsets.ISO_8859_1;

/**
 * Decodes HPACK header blocks (RFC 7541) received on one connection; one decoder per connection, used only by its
 * loop thread.
 *
 * <p>A block arrives whole (a {@code HEADERS} frame and its {@code CONTINUATION}s joined by the connection, which
 * bounds their total), so decoding is one pass over it rather than a resumable parser: each representation starts
 * with a first octet that names it —
 * <pre>
 *   1xxxxxxx  indexed field                          §6.1
 *   01xxxxxx  literal, incremental indexing          §6.2.1  (added to the dynamic table)
 *   001xxxxx  dynamic table size update              §6.3    (only before the block's first field)
 *   0001xxxx  literal, never indexed                 §6.2.3
 *   0000xxxx  literal, without indexing              §6.2.2
 * </pre>
 *
 * <p>What it checks, each a {@link HpackException.Kind#COMPRESSION_ERROR} naming its rule: an index of 0 or past
 * the end of the tables; an integer above 2<sup>31</sup>−1, encoded in more than five continuation octets, or cut
 * off by the end of the block; a string longer than what is left of the block; Huffman padding longer than seven
 * bits or not all ones, or an EOS symbol; a table size update after a field, above our
 * {@code SETTINGS_HEADER_TABLE_SIZE}, or missing when that setting went down.
 *
 * <p>What it does not check, leaving it to the connection (RFC 9113 §8.2 and §8.3): names with uppercase letters,
 * characters not allowed in a name or value, pseudo-fields and their order, connection-specific fields. Names and
 * values are ISO-8859-1 strings, one char per octet, so any octet survives for the connection to judge.
 *
 * <p>The header list limit (RFC 9113 §6.5.2: name + value + 32 octets per field) is counted before any
 * {@code String} is made. Past it the decoder stops calling the sink and makes no more strings except for entries
 * it must add to the dynamic table, but goes on to the end of the block so that the table stays as the peer's
 * encoder believes it is; then it throws {@link HpackException.Kind#HEADER_LIST_TOO_LARGE}. A small block that
 * names a large table entry many times (an "HPACK bomb") so costs nothing but the count. A string literal that
 * could be neither listed within the limit nor added to the table is skipped without being decoded (nor its
 * Huffman code checked), however long the block says it is. Decoding allocates the strings it hands over (none for
 * a name or name and value taken from the static table, none for a name or value taken from the dynamic table) and
 * a scratch array it keeps, a few times the larger of the two limits at most.
 */
public final class HpackDecoder {
    /** At most five octets after the prefix: 7 × 5 = 35 bits, enough for 2<sup>31</sup>−1 and no more. */
    private static final int MAX_CONTINUATION_OCTETS = 5;
    /** A scratch array larger than this is dropped after the block that needed it. */
    private static final int SCRATCH_KEPT = 8192;
    /** What {@link #readString} returns for a string it skipped. */
    private static final int SKIPPED = -1;

    private final int maxHeaderListSize;
    private final DynamicTable table;
    /** Our {@code SETTINGS_HEADER_TABLE_SIZE}: the largest table a size update may ask for. */
    private int maxTableSize;
    /** Our setting went below the table's size: the next block must start with a size update (§4.2). */
    private boolean updateRequired;
    private byte[] scratch = new byte[256];

    /** The header list size of the block being decoded, and whether it went past the limit. */
    private long listSize;
    private boolean overLimit;
    /** The octets the strings {@link #readString} skipped in the current field had at least. */
    private long skippedOctets;
    /** The largest the scratch array has been, for tests. */
    private int largestScratch;

    /**
     * @param maxTableSize our {@code SETTINGS_HEADER_TABLE_SIZE}: the largest dynamic table the peer may make us
     *     keep, and the table's initial size (e.g. 4096, the protocol's default)
     * @param maxHeaderListSize our {@code SETTINGS_MAX_HEADER_LIST_SIZE} (name + value + 32 per field);
     *     {@code Integer.MAX_VALUE} for none
     */
    public HpackDecoder(int maxTableSize, int maxHeaderListSize) {
        if (maxTableSize < 0 || maxHeaderListSize < 0) {
            throw new IllegalArgumentException("negative size: " + maxTableSize + ", " + maxHeaderListSize);
        }
        this.maxTableSize = maxTableSize;
        this.maxHeaderListSize = maxHeaderListSize;
        this.table = new DynamicTable(maxTableSize);
    }

    /**
     * Our {@code SETTINGS_HEADER_TABLE_SIZE} changed and the peer acknowledged it. When it is now below the table's
     * current size, the peer's next block must begin with a size update no larger than it (RFC 7541 §4.2).
     */
    public void maxTableSize(int size) {
        if (size < 0) {
            throw new IllegalArgumentException("negative table size: " + size);
        }
        maxTableSize = size;
        if (size < table.capacity()) {
            updateRequired = true;
        }
    }

    /**
     * Decodes one complete header block (HEADERS + CONTINUATION fragments already joined), from the buffer's
     * position to its limit (the position ends at the limit). Calls {@code sink.field} for each field in order;
     * the sink must not throw.
     *
     * @throws HpackException {@code COMPRESSION_ERROR} on a malformed block (a connection error), or
     *     {@code HEADER_LIST_TOO_LARGE} after the whole block was decoded and the table kept in sync (a stream error)
     */
    public void decode(ByteBuffer block, FieldSink sink) throws HpackException {
        listSize = 0;
        overLimit = false;
        boolean fieldSeen = false;
        try {
            while (block.hasRemaining()) {
                int first = block.get(block.position()) & 0xFF;
                if (first >= 0x20 && first < 0x40) {
                    sizeUpdate(block, fieldSeen);
                    continue;
                }
                if (!fieldSeen) {
                    requireNoPendingUpdate();
                    fieldSeen = true;
                }
                if (first >= 0x80) {
                    indexed(block, sink);
                } else {
                    literal(block, first >= 0x40, sink);
                }
            }
            requireNoPendingUpdate();
        } finally {
            if (scratch.length > SCRATCH_KEPT) {
                scratch = new byte[256];
            }
        }
        if (overLimit) {
            throw new HpackException(HpackException.Kind.HEADER_LIST_TOO_LARGE, "RFC 9113 §6.5.2: header list of at"
                    + " least " + listSize + " octets, more than SETTINGS_MAX_HEADER_LIST_SIZE " + maxHeaderListSize);
        }
    }

    private void requireNoPendingUpdate() throws HpackException {
        if (updateRequired) {
            throw compression("RFC 7541 §4.2: no dynamic table size update after SETTINGS_HEADER_TABLE_SIZE went down"
                    + " to " + maxTableSize);
        }
    }

    private void sizeUpdate(ByteBuffer block, boolean fieldSeen) throws HpackException {
        if (fieldSeen) {
            throw compression("RFC 7541 §4.2: dynamic table size update after a field");
        }
        int size = readInt(block, 0x1F);
        if (size > maxTableSize) {
            throw compression("RFC 7541 §6.3: dynamic table size update to " + size
                    + ", more than SETTINGS_HEADER_TABLE_SIZE " + maxTableSize);
        }
        table.capacity(size);
        updateRequired = false;
    }

    private void indexed(ByteBuffer block, FieldSink sink) throws HpackException {
        int index = readInt(block, 0x7F);
        checkIndex(index);
        String name = index <= StaticTable.LENGTH ? StaticTable.name(index) : table.name(index - StaticTable.LENGTH);
        String value = index <= StaticTable.LENGTH ? StaticTable.value(index) : table.value(index - StaticTable.LENGTH);
        if (count(name.length() + value.length())) {
            sink.field(name, value);
        }
    }

    /** A literal field (§6.2); {@code indexing}: with incremental indexing, else without or never indexed. */
    private void literal(ByteBuffer block, boolean indexing, FieldSink sink) throws HpackException {
        int index = readInt(block, indexing ? 0x3F : 0x0F);
        skippedOctets = 0;
        String name = null;
        int nameLength;
        if (index != 0) {
            checkIndex(index);
            name = index <= StaticTable.LENGTH ? StaticTable.name(index) : table.name(index - StaticTable.LENGTH);
            nameLength = name.length();
        } else {
            nameLength = readString(block, 0, budget(0, indexing));
        }
        int valueOffset = name == null ? Math.max(nameLength, 0) : 0;
        int valueLength = readString(block, valueOffset, nameLength == SKIPPED ? -1 : budget(nameLength, indexing));
        if (nameLength == SKIPPED || valueLength == SKIPPED) { // too large to be listed or added: not decoded
            listSize += Math.max(nameLength, 0) + Math.max(valueLength, 0) + skippedOctets
                    + DynamicTable.ENTRY_OVERHEAD;
            overLimit = true;
            if (indexing) {
                table.clear(); // §4.4: an entry larger than the table empties it
            }
            return;
        }
        boolean emit = count(nameLength + valueLength);
        boolean store = indexing && nameLength + valueLength + DynamicTable.ENTRY_OVERHEAD <= table.capacity();
        if (indexing && !store) {
            table.clear();
        }
        if (emit || store) {
            if (name == null) {
                name = new String(scratch, 0, nameLength, ISO_8859_1);
            }
            String value = valueLength == 0 ? "" : new String(scratch, valueOffset, valueLength, ISO_8859_1);
            if (store) {
                table.add(name, value);
            }
            if (emit) {
                sink.field(name, value);
            }
        }
    }

    /**
     * The most octets the rest of a literal field (after {@code nameLength} octets of name) may decode to and still
     * matter: be listed within the limit, or be added to the table. Negative when nothing can matter.
     */
    private long budget(int nameLength, boolean indexing) {
        long listRoom = overLimit ? -1 : (long) maxHeaderListSize - listSize - DynamicTable.ENTRY_OVERHEAD - nameLength;
        long tableRoom = indexing ? (long) table.capacity() - DynamicTable.ENTRY_OVERHEAD - nameLength : -1;
        return Math.max(listRoom, tableRoom);
    }

    /** Counts a field of {@code octets} name and value octets; whether the list is still within the limit. */
    private boolean count(int octets) {
        listSize += octets + DynamicTable.ENTRY_OVERHEAD;
        if (listSize > maxHeaderListSize) {
            overLimit = true;
        }
        return !overLimit;
    }

    private void checkIndex(int index) throws HpackException {
        if (index == 0) {
            throw compression("RFC 7541 §6.1: index 0");
        }
        if (index > StaticTable.LENGTH + table.length()) {
            throw compression("RFC 7541 §2.3.3: index " + index + " beyond the tables (" + StaticTable.LENGTH
                    + " static + " + table.length() + " dynamic entries)");
        }
    }

    /**
     * Reads a string literal (§5.2) into {@code scratch} from {@code offset}, decoding Huffman; returns its length
     * in octets. The declared length is checked against the block before anything is allocated. A string that must
     * decode to more than {@code budget} octets (at least its length raw, at least 8/30 of it in Huffman, whose
     * longest code is 30 bits) is skipped, not decoded: returns {@link #SKIPPED} with the octets it would at least
     * have taken in {@code skippedOctets}. So the scratch array never grows past what the limits allow.
     */
    private int readString(ByteBuffer block, int offset, long budget) throws HpackException {
        if (!block.hasRemaining()) {
            throw compression("RFC 7541 §5.2: string literal missing at the end of the block");
        }
        boolean huffman = (block.get(block.position()) & 0x80) != 0;
        int length = readInt(block, 0x7F);
        if (length > block.remaining()) {
            throw compression("RFC 7541 §5.2: string of " + length + " octets, longer than the " + block.remaining()
                    + " left in the block");
        }
        long least = huffman ? length * 8L / 30 : length;
        if (least > budget) {
            block.position(block.position() + length);
            skippedOctets += least;
            return SKIPPED;
        }
        long needed = offset + (huffman ? length * 8L / 5 : length);
        if (needed > Integer.MAX_VALUE - 8) {
            throw compression("RFC 7541 §5.2: string of " + length + " octets, too long to decode");
        }
        ensureScratch((int) needed);
        if (huffman) {
            return Huffman.decode(block, length, scratch, offset);
        }
        block.get(scratch, offset, length);
        return length;
    }

    private void ensureScratch(int needed) {
        if (needed > scratch.length) {
            byte[] bigger = new byte[(int) Math.min(Integer.MAX_VALUE - 8, Math.max(needed, scratch.length * 2L))];
            System.arraycopy(scratch, 0, bigger, 0, scratch.length);
            scratch = bigger;
            largestScratch = Math.max(largestScratch, bigger.length);
        }
    }

    /** Reads an integer with an N-bit prefix (§5.1); {@code prefixMask} is 2<sup>N</sup>−1. */
    static int readInt(ByteBuffer block, int prefixMask) throws HpackException {
        int value = block.get() & prefixMask;
        if (value < prefixMask) {
            return value;
        }
        int shift = 0;
        for (int i = 0; i < MAX_CONTINUATION_OCTETS; i++) {
            if (!block.hasRemaining()) {
                throw compression("RFC 7541 §5.1: integer cut off by the end of the block");
            }
            int octet = block.get() & 0xFF;
            long sum = value + ((long) (octet & 0x7F) << shift);
            if (sum > Integer.MAX_VALUE) {
                throw compression("RFC 7541 §5.1: integer larger than 2^31-1");
            }
            value = (int) sum;
            if ((octet & 0x80) == 0) {
                return value;
            }
            shift += 7;
        }
        throw compression("RFC 7541 §5.1: integer of more than " + MAX_CONTINUATION_OCTETS + " continuation octets");
    }

    private static HpackException compression(String message) {
        return new HpackException(HpackException.Kind.COMPRESSION_ERROR, message);
    }

    /** The dynamic table, for tests in this package. */
    DynamicTable table() {
        return table;
    }

    /** The largest the scratch array has grown, for tests in this package. */
    int largestScratch() {
        return largestScratch;
    }

    /** Receives decoded fields, in order. */
    @FunctionalInterface
    public interface FieldSink {
        void field(String name, String value);
    }
}
