package dev.fleche.conformance.h2;

import dev.fleche.conformance.h2.client.ErrorCode;
import dev.fleche.conformance.h2.client.FieldBlock;
import dev.fleche.conformance.h2.client.FieldBlock.Indexing;
import dev.fleche.conformance.h2.client.Frame;
import dev.fleche.conformance.h2.client.H2Connection;
import dev.fleche.conformance.h2.client.Huffman;
import dev.fleche.conformance.h2.client.Setting;
import dev.fleche.conformance.h2.client.StaticTable;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;

import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.function.UnaryOperator;

import static dev.fleche.conformance.h2.Octets.ascii;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * RFC 7541 (HPACK) as the server decodes it: each representation accepted and decoded to the field the test sent
 * (the test handler reports the fields it got), the dynamic table updated or left alone as the representation says
 * (a later request refers to index 62, the newest entry), and each decoding error a connection error
 * COMPRESSION_ERROR (RFC 9113 4.3).
 */
@ExtendWith(Servers.class)
@Timeout(value = 60, unit = TimeUnit.SECONDS)
@DisplayName("RFC 7541 HPACK")
class HpackTest {
    private static final int END = Frame.END_HEADERS | Frame.END_STREAM;
    /** The index of the newest entry of the dynamic table. */
    private static final int NEWEST = StaticTable.SIZE + 1;
    private static final int USER_AGENT = StaticTable.indexOf("user-agent");

    /** {@code block} (size updates: they come first), then a GET of {@code /} on this connection. */
    static FieldBlock withRequest(FieldBlock block, H2Connection connection) {
        return block.field(":method", "GET").field(":scheme", connection.scheme()).field(":path", "/")
                .field(":authority", connection.authority());
    }

    /** Sends {@code block} as a request on {@code stream}; the field lines the handler reported. */
    static List<String> fieldsReceived(H2Connection connection, int stream, FieldBlock block) {
        connection.headers(stream, END, block);
        return Expect.response(connection, stream).lines();
    }

    static void compressionError(H2Connection connection, FieldBlock block) {
        connection.headers(1, END, block);
        Expect.connectionError(connection, ErrorCode.COMPRESSION_ERROR);
    }

    @Nested
    @DisplayName("§2.3.3 Index Address Space")
    class S2_3_3_IndexAddressSpace {
        @OverBothTransports
        @H2spec("hpack/2.3.3/1")
        @DisplayName("§2.3.3 an indexed field beyond both tables is a COMPRESSION_ERROR")
        void indexedBeyondBothTables(Transport transport) {
            try (H2Connection connection = transport.connect()) {
                compressionError(connection, connection.request("GET", "/").indexed(NEWEST));
            }
        }

        @OverBothTransports
        @H2spec("hpack/2.3.3/2")
        @DisplayName("§2.3.3 a literal whose name index is beyond both tables is a COMPRESSION_ERROR")
        void literalNameBeyondBothTables(Transport transport) {
            try (H2Connection connection = transport.connect()) {
                compressionError(connection,
                        connection.request("GET", "/").literal(Indexing.INCREMENTAL, NEWEST + 7, "x", false));
            }
        }
    }

    @Nested
    @DisplayName("§4 Dynamic Table Management (§4.2 Maximum Table Size, §4.3 eviction)")
    class S4_DynamicTableManagement {
        @OverBothTransports
        @H2spec("hpack/4.2/1")
        @DisplayName("§4.2 a dynamic table size update after a field is a COMPRESSION_ERROR")
        void sizeUpdateAfterAField(Transport transport) {
            try (H2Connection connection = transport.connect()) {
                compressionError(connection, connection.request("GET", "/").sizeUpdate(1));
            }
        }

        @OverBothTransports
        @H2spec("generic/5/15")
        @DisplayName("§4.2 two size updates at the start of a block (the smallest, then the final size) are accepted")
        void twoSizeUpdatesAtTheStart(Transport transport) {
            try (H2Connection connection = transport.connect()) {
                FieldBlock block = withRequest(FieldBlock.create().sizeUpdate(128).sizeUpdate(4096), connection);
                assertTrue(fieldsReceived(connection, 1, block).contains("GET /"));
            }
        }

        @OverBothTransports
        @DisplayName("§4.3 a size update to 0 evicts every entry: the newest index then refers to nothing")
        void sizeUpdateEvicts(Transport transport) {
            try (H2Connection connection = transport.connect()) {
                FieldBlock first = connection.request("GET", "/").literal(Indexing.INCREMENTAL, "x-kept", "1", false);
                assertTrue(fieldsReceived(connection, 1, first).contains("x-kept: 1"));
                FieldBlock second = withRequest(FieldBlock.create().sizeUpdate(0).sizeUpdate(4096), connection)
                        .indexed(NEWEST);
                connection.headers(3, END, second);
                Expect.connectionError(connection, ErrorCode.COMPRESSION_ERROR);
            }
        }
    }

    @Nested
    @DisplayName("§5.2 String Literal Representation")
    class S5_2_StringLiterals {
        private final byte[] test = Huffman.encode(ascii("test")); // 20 bits, then 4 bits of padding

        @OverBothTransports
        @H2spec("hpack/5.2/1")
        @DisplayName("§5.2 Huffman padding longer than 7 bits is a COMPRESSION_ERROR")
        void paddingLongerThan7Bits(Transport transport) {
            byte[] value = java.util.Arrays.copyOf(test, test.length + 1);
            value[test.length] = (byte) 0xFF;
            huffmanValueIsAnError(transport, value);
        }

        @OverBothTransports
        @H2spec("hpack/5.2/2")
        @DisplayName("§5.2 Huffman padding that is not EOS's prefix (0s) is a COMPRESSION_ERROR")
        void paddingOfZeros(Transport transport) {
            byte[] value = test.clone();
            value[value.length - 1] &= (byte) 0xF0;
            huffmanValueIsAnError(transport, value);
        }

        @OverBothTransports
        @H2spec("hpack/5.2/3")
        @DisplayName("§5.2 a Huffman-coded string holding EOS is a COMPRESSION_ERROR")
        void eosInside(Transport transport) {
            String bits = Huffman.bits('t') + Huffman.bits(Huffman.EOS) + Huffman.bits('t');
            huffmanValueIsAnError(transport, Octets.bits(bits + "1".repeat((8 - bits.length() % 8) % 8)));
        }

        private void huffmanValueIsAnError(Transport transport, byte[] value) {
            try (H2Connection connection = transport.connect()) {
                compressionError(connection,
                        connection.request("GET", "/").literalWithRawValue(Indexing.WITHOUT, "x-test", true, value));
            }
        }
    }

    @Nested
    @DisplayName("§6.1 Indexed Header Field Representation")
    class S6_1_IndexedField {
        @OverBothTransports
        @H2spec("generic/5/1")
        @DisplayName("§6.1 an indexed field of the static table is decoded to its name and value")
        void indexedField(Transport transport) {
            try (H2Connection connection = transport.connect()) {
                FieldBlock block = connection.request("GET", "/").indexed(StaticTable.indexOf("accept-encoding"));
                assertTrue(fieldsReceived(connection, 1, block).contains("accept-encoding: gzip, deflate"));
            }
        }

        @OverBothTransports
        @H2spec("hpack/6.1/1")
        @DisplayName("§6.1 index 0 is a COMPRESSION_ERROR")
        void indexZero(Transport transport) {
            try (H2Connection connection = transport.connect()) {
                compressionError(connection, connection.request("GET", "/").indexed(0));
            }
        }
    }

    /** Each literal is checked decoded, then the table: index 62 gives the field back on the next request. */
    @Nested
    @DisplayName("§6.2.1 Literal Header Field with Incremental Indexing")
    class S6_2_1_IncrementalIndexing {
        @OverBothTransports
        @H2spec("generic/5/2")
        @DisplayName("§6.2.1 indexed name: decoded, and added to the table")
        void indexedName(Transport transport) {
            addedToTheTable(transport, block -> block.literal(Indexing.INCREMENTAL, USER_AGENT, "suite", false),
                    "user-agent: suite");
        }

        @OverBothTransports
        @H2spec("generic/5/3")
        @DisplayName("§6.2.1 indexed name, Huffman-coded value: decoded, and added to the table")
        void indexedNameHuffman(Transport transport) {
            addedToTheTable(transport, block -> block.literal(Indexing.INCREMENTAL, USER_AGENT, "suite", true),
                    "user-agent: suite");
        }

        @OverBothTransports
        @H2spec("generic/5/4")
        @DisplayName("§6.2.1 new name: decoded, and added to the table")
        void newName(Transport transport) {
            addedToTheTable(transport, block -> block.literal(Indexing.INCREMENTAL, "x-test", "suite", false),
                    "x-test: suite");
        }

        @OverBothTransports
        @H2spec("generic/5/5")
        @DisplayName("§6.2.1 new name, Huffman-coded: decoded, and added to the table")
        void newNameHuffman(Transport transport) {
            addedToTheTable(transport, block -> block.literal(Indexing.INCREMENTAL, "x-test", "suite", true),
                    "x-test: suite");
        }

        private void addedToTheTable(Transport transport, UnaryOperator<FieldBlock> literal, String field) {
            try (H2Connection connection = transport.connect()) {
                FieldBlock first = literal.apply(connection.request("GET", "/"));
                assertTrue(fieldsReceived(connection, 1, first).contains(field));
                FieldBlock second = connection.request("GET", "/").indexed(NEWEST);
                List<String> again = fieldsReceived(connection, 3, second);
                assertTrue(again.contains(field), again::toString);
            }
        }
    }

    /** Each literal is checked decoded, then the table: left alone, index 62 refers to nothing. */
    @Nested
    @DisplayName("§6.2.2 Literal Header Field without Indexing")
    class S6_2_2_WithoutIndexing {
        @OverBothTransports
        @H2spec("generic/5/6")
        @DisplayName("§6.2.2 indexed name: decoded, the table left alone")
        void indexedName(Transport transport) {
            notIndexed(transport, block -> block.literal(Indexing.WITHOUT, USER_AGENT, "suite", false),
                    "user-agent: suite");
        }

        @OverBothTransports
        @H2spec("generic/5/7")
        @DisplayName("§6.2.2 indexed name, Huffman-coded value: decoded, the table left alone")
        void indexedNameHuffman(Transport transport) {
            notIndexed(transport, block -> block.literal(Indexing.WITHOUT, USER_AGENT, "suite", true),
                    "user-agent: suite");
        }

        @OverBothTransports
        @H2spec("generic/5/8")
        @DisplayName("§6.2.2 new name: decoded, the table left alone")
        void newName(Transport transport) {
            notIndexed(transport, block -> block.literal(Indexing.WITHOUT, "x-test", "suite", false),
                    "x-test: suite");
        }

        @OverBothTransports
        @H2spec("generic/5/9")
        @DisplayName("§6.2.2 new name, Huffman-coded: decoded, the table left alone")
        void newNameHuffman(Transport transport) {
            notIndexed(transport, block -> block.literal(Indexing.WITHOUT, "x-test", "suite", true),
                    "x-test: suite");
        }
    }

    @Nested
    @DisplayName("§6.2.3 Literal Header Field Never Indexed")
    class S6_2_3_NeverIndexed {
        @OverBothTransports
        @H2spec("generic/5/10")
        @DisplayName("§6.2.3 indexed name: decoded, the table left alone")
        void indexedName(Transport transport) {
            notIndexed(transport, block -> block.literal(Indexing.NEVER, USER_AGENT, "suite", false),
                    "user-agent: suite");
        }

        @OverBothTransports
        @H2spec("generic/5/11")
        @DisplayName("§6.2.3 indexed name, Huffman-coded value: decoded, the table left alone")
        void indexedNameHuffman(Transport transport) {
            notIndexed(transport, block -> block.literal(Indexing.NEVER, USER_AGENT, "suite", true),
                    "user-agent: suite");
        }

        @OverBothTransports
        @H2spec("generic/5/12")
        @DisplayName("§6.2.3 new name: decoded, the table left alone")
        void newName(Transport transport) {
            notIndexed(transport, block -> block.literal(Indexing.NEVER, "x-test", "suite", false),
                    "x-test: suite");
        }

        @OverBothTransports
        @H2spec("generic/5/13")
        @DisplayName("§6.2.3 new name, Huffman-coded: decoded, the table left alone")
        void newNameHuffman(Transport transport) {
            notIndexed(transport, block -> block.literal(Indexing.NEVER, "x-test", "suite", true),
                    "x-test: suite");
        }
    }

    /** The literal decoded on stream 1; index 62 on stream 3 then refers to nothing: COMPRESSION_ERROR. */
    static void notIndexed(Transport transport, UnaryOperator<FieldBlock> literal, String field) {
        try (H2Connection connection = transport.connect()) {
            List<String> lines = fieldsReceived(connection, 1, literal.apply(connection.request("GET", "/")));
            assertTrue(lines.contains(field), lines::toString);
            connection.headers(3, END, connection.request("GET", "/").indexed(NEWEST));
            Expect.connectionError(connection, ErrorCode.COMPRESSION_ERROR);
        }
    }

    @Nested
    @DisplayName("§6.3 Dynamic Table Size Update")
    class S6_3_DynamicTableSizeUpdate {
        @OverBothTransports
        @H2spec("generic/5/14")
        @DisplayName("§6.3 a size update within SETTINGS_HEADER_TABLE_SIZE is accepted")
        void sizeUpdate(Transport transport) {
            try (H2Connection connection = transport.connect()) {
                FieldBlock block = withRequest(FieldBlock.create().sizeUpdate(128), connection);
                assertTrue(fieldsReceived(connection, 1, block).contains("GET /"));
            }
        }

        @OverBothTransports
        @H2spec("hpack/6.3/1")
        @DisplayName("§6.3 a size update above the server's SETTINGS_HEADER_TABLE_SIZE is a COMPRESSION_ERROR")
        void sizeUpdateAboveTheLimit(Transport transport) {
            try (H2Connection connection = transport.connect()) {
                Long limit = connection.serverSetting(Setting.HEADER_TABLE_SIZE);
                long above = (limit == null ? 4096 : limit) + 1;
                compressionError(connection, withRequest(FieldBlock.create().sizeUpdate(above), connection));
            }
        }
    }
}
