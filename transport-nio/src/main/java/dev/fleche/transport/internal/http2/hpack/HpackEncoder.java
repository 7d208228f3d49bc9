package dev.fleche.transport.internal.http2.hpack;

import java.nio.ByteBuffer;
import java.util.Locale;
import java.util.Set;

/**
 * Encodes header blocks (RFC 7541) sent on one connection; one encoder per connection, used only by its loop
 * thread. A block is the fields of one {@code HEADERS} frame (and its {@code CONTINUATION}s) encoded one after the
 * other; the encoder keeps no buffer of its own, so the caller chooses where a block is split into frames.
 *
 * <p>How each field is written:
 * <ol>
 *   <li>an entry of the static table, then of the dynamic table, with the same name and value: indexed (§6.1);
 *   <li>{@code authorization}, {@code proxy-authorization}, {@code cookie}, {@code set-cookie}: literal never
 *       indexed (§6.2.3, §7.1.3), so that no intermediary indexes a secret either;
 *   <li>names whose values rarely repeat ({@code :path}, {@code content-length}, {@code etag},
 *       {@code last-modified}, {@code if-none-match}, {@code if-modified-since}, {@code content-range},
 *       {@code age}) and fields larger than half the table: literal without indexing (§6.2.2), so that they do
 *       not push useful entries out;
 *   <li>anything else: literal with incremental indexing (§6.2.1).
 * </ol>
 * A literal's name is an index when either table has it. Strings are Huffman-coded only when that is shorter (§5.2).
 * Names must be lowercase (RFC 9113 §8.2.1); a name with an uppercase ASCII letter is lowercased first. Names and
 * values are written one octet per char: a char above U+00FF becomes {@code '?'} (the connection should refuse
 * such values before they get here).
 *
 * <p>Table size: ours is the smaller of the size given here and the peer's {@code SETTINGS_HEADER_TABLE_SIZE}
 * (4096 until the peer says otherwise). Whenever that differs from what the peer's decoder last heard, the next
 * field written starts with a dynamic table size update (§6.3) — the smallest size reached since, then the new
 * one (§4.2). So {@link #peerTableSize} must be called between blocks, never while one is being encoded (the loop
 * thread encodes a block at once, and reads {@code SETTINGS} between blocks).
 */
public final class HpackEncoder {
    /** The peer's {@code SETTINGS_HEADER_TABLE_SIZE} until it sends one (RFC 9113 §6.5.2). */
    private static final int DEFAULT_PEER_TABLE_SIZE = 4096;
    private static final Set<String> SENSITIVE = Set.of("authorization", "proxy-authorization", "cookie", "set-cookie");
    private static final Set<String> NOT_INDEXED = Set.of(":path", "content-length", "etag", "last-modified",
            "if-none-match", "if-modified-since", "content-range", "age");
    private static final String[] STATUS = new String[600];

    static {
        for (int s = 100; s < STATUS.length; s++) {
            STATUS[s] = Integer.toString(s);
        }
    }

    private final int maxTableSize;
    private final DynamicTable table;
    /** The table size the peer's decoder works with: the last one we signalled, or 4096 at first. */
    private int signalled = DEFAULT_PEER_TABLE_SIZE;
    /** The smallest table size since the last signal: it must be signalled first when below the final one. */
    private int lowest;

    /** @param maxTableSize the largest dynamic table this encoder keeps (e.g. 4096; 0 = never index) */
    public HpackEncoder(int maxTableSize) {
        if (maxTableSize < 0) {
            throw new IllegalArgumentException("negative table size: " + maxTableSize);
        }
        this.maxTableSize = maxTableSize;
        int size = Math.min(maxTableSize, DEFAULT_PEER_TABLE_SIZE);
        this.table = new DynamicTable(size);
        this.lowest = size;
    }

    /**
     * The peer's {@code SETTINGS_HEADER_TABLE_SIZE} changed: the next field written starts with a dynamic table
     * size update, at the start of the next block.
     */
    public void peerTableSize(int size) {
        if (size < 0) {
            throw new IllegalArgumentException("negative table size: " + size);
        }
        int target = Math.min(maxTableSize, size);
        lowest = Math.min(lowest, target);
        table.capacity(lowest); // what the peer's decoder will evict, going through the lowest size first
        table.capacity(target);
    }

    private boolean updatePending() {
        return lowest < signalled || table.capacity() != signalled;
    }

    /**
     * Encodes one field into {@code out}, growing nothing.
     *
     * @return false, with {@code out} and the tables as they were, when it does not fit in {@code out}'s remaining
     */
    public boolean encode(String name, String value, ByteBuffer out) {
        name = lowercase(name);
        int nameIndex = StaticTable.nameIndex(name);
        int index = StaticTable.fieldIndex(nameIndex, name, value);
        if (index != 0) {
            return indexed(index, out);
        }
        boolean sensitive = SENSITIVE.contains(name);
        int found = sensitive || table.capacity() == 0 ? 0 : table.find(name, value);
        if (found > 0) {
            return indexed(StaticTable.LENGTH + found, out);
        }
        if (nameIndex == 0 && found < 0) {
            nameIndex = StaticTable.LENGTH - found;
        }
        if (sensitive) {
            return literal(0x10, 0x0F, nameIndex, name, value, false, out);
        }
        int entrySize = DynamicTable.entrySize(name, value);
        if (NOT_INDEXED.contains(name) || entrySize > table.capacity() / 2) {
            return literal(0x00, 0x0F, nameIndex, name, value, false, out);
        }
        return literal(0x40, 0x3F, nameIndex, name, value, true, out);
    }

    /** Encodes {@code :status}, as a static entry for 200, 204, 206, 304, 400, 404 and 500. */
    public boolean encodeStatus(int status, ByteBuffer out) {
        if (status < 100 || status > 999) {
            throw new IllegalArgumentException("status " + status + " is not three digits");
        }
        return switch (status) {
            case 200 -> indexed(8, out);
            case 204 -> indexed(9, out);
            case 206 -> indexed(10, out);
            case 304 -> indexed(11, out);
            case 400 -> indexed(12, out);
            case 404 -> indexed(13, out);
            case 500 -> indexed(14, out);
            default -> encode(":status", status < STATUS.length ? STATUS[status] : Integer.toString(status), out);
        };
    }

    private boolean indexed(int index, ByteBuffer out) {
        if (out.remaining() < updateLength() + intLength(index, 0x7F)) {
            return false;
        }
        writeUpdate(out);
        writeInt(0x80, 0x7F, index, out);
        return true;
    }

    /** A literal field: {@code pattern} and {@code prefixMask} name its representation (§6.2). */
    private boolean literal(int pattern, int prefixMask, int nameIndex, String name, String value, boolean indexing,
            ByteBuffer out) {
        int nameHuffman = nameIndex == 0 ? Huffman.encodedLength(name) : 0;
        int valueHuffman = Huffman.encodedLength(value);
        int length = updateLength() + intLength(nameIndex, prefixMask) + stringLength(value, valueHuffman)
                + (nameIndex == 0 ? stringLength(name, nameHuffman) : 0);
        if (out.remaining() < length) {
            return false;
        }
        writeUpdate(out);
        writeInt(pattern, prefixMask, nameIndex, out);
        if (nameIndex == 0) {
            writeString(name, nameHuffman, out);
        }
        writeString(value, valueHuffman, out);
        if (indexing) {
            table.add(name, value);
        }
        return true;
    }

    private int updateLength() {
        if (!updatePending()) {
            return 0;
        }
        int length = intLength(table.capacity(), 0x1F);
        return lowest < table.capacity() ? length + intLength(lowest, 0x1F) : length;
    }

    private void writeUpdate(ByteBuffer out) {
        if (!updatePending()) {
            return;
        }
        if (lowest < table.capacity()) {
            writeInt(0x20, 0x1F, lowest, out);
        }
        writeInt(0x20, 0x1F, table.capacity(), out);
        signalled = table.capacity();
        lowest = signalled;
    }

    private static int stringLength(String s, int huffmanLength) {
        int length = Math.min(s.length(), huffmanLength);
        return intLength(length, 0x7F) + length;
    }

    private static void writeString(String s, int huffmanLength, ByteBuffer out) {
        if (huffmanLength < s.length()) {
            writeInt(0x80, 0x7F, huffmanLength, out);
            Huffman.encode(s, out);
            return;
        }
        writeInt(0x00, 0x7F, s.length(), out);
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            out.put((byte) (c > 0xFF ? '?' : c));
        }
    }

    /** The octets of {@code value} as an integer with the prefix {@code prefixMask} (§5.1). */
    static int intLength(int value, int prefixMask) {
        if (value < prefixMask) {
            return 1;
        }
        int length = 2;
        for (int rest = value - prefixMask; rest >= 0x80; rest >>>= 7) {
            length++;
        }
        return length;
    }

    /** Writes {@code value} as an integer with the prefix {@code prefixMask} under the high bits {@code pattern}. */
    static void writeInt(int pattern, int prefixMask, int value, ByteBuffer out) {
        if (value < prefixMask) {
            out.put((byte) (pattern | value));
            return;
        }
        out.put((byte) (pattern | prefixMask));
        int rest = value - prefixMask;
        while (rest >= 0x80) {
            out.put((byte) ((rest & 0x7F) | 0x80));
            rest >>>= 7;
        }
        out.put((byte) rest);
    }

    private static String lowercase(String name) {
        for (int i = 0; i < name.length(); i++) {
            char c = name.charAt(i);
            if (c >= 'A' && c <= 'Z') {
                return name.toLowerCase(Locale.ROOT);
            }
        }
        return name;
    }

    /** The dynamic table, for tests in this package. */
    DynamicTable table() {
        return table;
    }
}
