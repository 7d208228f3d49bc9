package dev.fleche.transport.internal.http2.hpack;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;

/** Helpers shared by the HPACK tests: hex blocks, decoding into a list, the dynamic table as text. */
final class Blocks {
    private Blocks() {
    }

    /** A block from hex as the RFC prints it (spaces ignored). */
    static ByteBuffer hex(String hex) {
        return ByteBuffer.wrap(HexFormat.of().parseHex(hex.replace(" ", "")));
    }

    static String hex(ByteBuffer written) {
        ByteBuffer copy = written.duplicate().flip();
        byte[] bytes = new byte[copy.remaining()];
        copy.get(bytes);
        return HexFormat.of().formatHex(bytes);
    }

    /** Decodes {@code block} and returns its fields as {@code "name: value"} lines. */
    static List<String> decode(HpackDecoder decoder, ByteBuffer block) throws HpackException {
        List<String> fields = new ArrayList<>();
        decoder.decode(block, (name, value) -> fields.add(name + ": " + value));
        assertEquals(0, block.remaining(), "the whole block was read");
        return fields;
    }

    /** The dynamic table, newest first, as {@code "name: value"} lines. */
    static List<String> entries(DynamicTable table) {
        List<String> entries = new ArrayList<>();
        for (int i = 1; i <= table.length(); i++) {
            entries.add(table.name(i) + ": " + table.value(i));
        }
        return entries;
    }

    static void assertTable(DynamicTable table, int size, String... entries) {
        assertEquals(List.of(entries), entries(table));
        assertEquals(size, table.size(), "table size in octets");
    }
}
