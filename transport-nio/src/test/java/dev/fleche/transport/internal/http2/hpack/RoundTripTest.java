package dev.fleche.transport.internal.http2.hpack;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;

import static dev.fleche.transport.internal.http2.hpack.Blocks.assertTable;
import static dev.fleche.transport.internal.http2.hpack.Blocks.decode;
import static dev.fleche.transport.internal.http2.hpack.Blocks.entries;
import static dev.fleche.transport.internal.http2.hpack.Blocks.hex;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Encoder to decoder: the same fields come out and both tables agree; the encoder's choices; table eviction. */
@Timeout(20)
class RoundTripTest {
    private static final String[] NAMES = {
        ":status", "content-type", "content-length", "date", "server", "cache-control", "x-request-id", "vary",
        "set-cookie", "authorization", "etag", "location", "x-long",
    };

    @Test
    void randomBlocksAcrossTableSizes() throws HpackException {
        for (int tableSize : new int[] {0, 64, 256, 4096, 65536}) {
            Random random = new Random(tableSize);
            HpackEncoder encoder = new HpackEncoder(tableSize);
            HpackDecoder decoder = new HpackDecoder(4096, Integer.MAX_VALUE); // the peer's, starting at the default
            decoder.maxTableSize(65536);
            encoder.peerTableSize(65536);
            for (int block = 0; block < 300; block++) {
                if (block % 50 == 49) { // the peer changes its setting between blocks, sometimes twice
                    int setting = random.nextInt(5000);
                    decoder.maxTableSize(setting);
                    encoder.peerTableSize(setting);
                    if (random.nextBoolean()) {
                        setting = setting + random.nextInt(5000);
                        decoder.maxTableSize(setting);
                        encoder.peerTableSize(setting);
                    }
                }
                List<String> sent = new ArrayList<>();
                ByteBuffer out = ByteBuffer.allocate(1 << 16);
                for (int i = random.nextInt(12); i >= 0; i--) {
                    String name = NAMES[random.nextInt(NAMES.length)];
                    String value = value(random, name);
                    assertTrue(encoder.encode(name, value, out));
                    sent.add(name + ": " + value);
                }
                assertEquals(sent, decode(decoder, out.flip()), "block " + block);
                assertEquals(entries(encoder.table()), entries(decoder.table()), "tables in sync, block " + block);
                assertEquals(encoder.table().capacity(), decoder.table().capacity());
            }
        }
    }

    private static String value(Random random, String name) {
        switch (name) {
            case ":status": return Integer.toString(100 + random.nextInt(500));
            case "x-long": return "y".repeat(random.nextInt(3000));
            case "x-request-id": return Long.toHexString(random.nextLong());
            default: {
                StringBuilder value = new StringBuilder();
                for (int i = random.nextInt(3); i >= 0; i--) {
                    value.append((char) random.nextInt(256)); // any octet, Huffman or not
                }
                return random.nextInt(4) == 0 ? value.toString() : "v" + random.nextInt(4);
            }
        }
    }

    @Test
    void everyOctetSurvivesHuffman() throws HpackException {
        StringBuilder all = new StringBuilder();
        for (int c = 0; c < 256; c++) {
            all.append((char) c);
        }
        String text = all.toString();
        ByteBuffer out = ByteBuffer.allocate(2048);
        Huffman.encode(text, out);
        assertEquals(Huffman.encodedLength(text), out.position());
        byte[] back = new byte[out.position() * 8 / 5];
        int n = Huffman.decode(out.flip(), out.remaining(), back, 0);
        assertEquals(text, new String(back, 0, n, java.nio.charset.StandardCharsets.ISO_8859_1));
    }

    @Test
    void huffmanOnlyWhenShorter() {
        HpackEncoder encoder = new HpackEncoder(0);
        ByteBuffer out = ByteBuffer.allocate(64);
        assertTrue(encoder.encode("x-a", "\u0001\u0002", out)); // x-a: 18 bits, as long; control characters: longer
        assertTrue(encoder.encode("x-a", "www.example.com", out)); // 12 octets instead of 15
        assertEquals("20" + "00 03 782d61 02 0102".replace(" ", "") + "00 03 782d61 8c f1e3c2e5f23a6ba0ab90f4ff"
                .replace(" ", ""), hex(out));
    }

    @Test
    void sensitiveFieldsAreNeverIndexed() throws HpackException {
        HpackEncoder encoder = new HpackEncoder(4096);
        for (String name : new String[] {"authorization", "proxy-authorization", "cookie", "set-cookie"}) {
            ByteBuffer out = ByteBuffer.allocate(64);
            assertTrue(encoder.encode(name, "secret", out));
            assertEquals(0x10, out.get(0) & 0xF0, name + " never indexed");
            assertTrue(encoder.encode(name, "secret", out)); // not found in the table the second time either
            assertEquals(0x10, out.get(out.position() / 2) & 0xF0);
            assertEquals(List.of(name + ": secret", name + ": secret"),
                    decode(new HpackDecoder(4096, 65536), out.flip()));
        }
        assertTable(encoder.table(), 0);
    }

    @Test
    void repeatedFieldsAreIndexed() {
        HpackEncoder encoder = new HpackEncoder(4096);
        ByteBuffer out = ByteBuffer.allocate(64);
        assertTrue(encoder.encode("server", "fleche", out));
        assertEquals(0x40 | 54, out.get(0) & 0xFF, "incremental indexing, static name");
        out.clear();
        assertTrue(encoder.encode("server", "fleche", out));
        assertEquals("be", hex(out));
    }

    @Test
    void volatileAndLargeFieldsAreNotIndexed() {
        HpackEncoder encoder = new HpackEncoder(256);
        encoder.peerTableSize(256);
        ByteBuffer out = ByteBuffer.allocate(512);
        assertTrue(encoder.encode("content-length", "1234", out));
        assertTrue(encoder.encode("x-big", "z".repeat(100), out)); // 137 octets: over half the table
        assertTable(encoder.table(), 0);
    }

    @Test
    void uppercaseNamesAreLowercased() throws HpackException {
        HpackEncoder encoder = new HpackEncoder(4096);
        ByteBuffer out = ByteBuffer.allocate(64);
        assertTrue(encoder.encode("Content-Type", "text/plain", out));
        assertTrue(encoder.encode("X-Custom", "1", out));
        assertEquals(List.of("content-type: text/plain", "x-custom: 1"),
                decode(new HpackDecoder(4096, 65536), out.flip()));
    }

    @Test
    void statusFromTheStaticTableOrAsALiteral() throws HpackException {
        HpackEncoder encoder = new HpackEncoder(4096);
        int[] statics = {200, 204, 206, 304, 400, 404, 500};
        for (int i = 0; i < statics.length; i++) {
            ByteBuffer out = ByteBuffer.allocate(8);
            assertTrue(encoder.encodeStatus(statics[i], out));
            assertEquals(1, out.position());
            assertEquals(0x80 | (8 + i), out.get(0) & 0xFF);
        }
        HpackDecoder decoder = new HpackDecoder(4096, 65536);
        for (int status = 100; status <= 999; status += 7) {
            ByteBuffer out = ByteBuffer.allocate(8);
            assertTrue(encoder.encodeStatus(status, out));
            assertEquals(List.of(":status: " + status), decode(decoder, out.flip()));
        }
    }

    @Test
    void aFieldThatDoesNotFitLeavesEverythingAsItWas() throws HpackException {
        HpackEncoder encoder = new HpackEncoder(256); // the first field carries a size update (3 octets)
        ByteBuffer out = ByteBuffer.allocate(40);
        out.put((byte) 0x55).put((byte) 0x66);
        for (int room = 0; room < 38; room++) {
            ByteBuffer small = out.duplicate().limit(2 + room);
            boolean fitted = encoder.encode("x-name", "some value", small);
            if (fitted) {
                assertEquals(2 + room, small.position(), "it fits exactly in " + room);
                assertTable(encoder.table(), 48, "x-name: some value");
                assertEquals(List.of("x-name: some value"),
                        decode(new HpackDecoder(4096, 65536), small.flip().position(2)));
                return;
            }
            assertEquals(2, small.position(), "nothing written in " + room);
            assertTable(encoder.table(), 0);
        }
        throw new AssertionError("never fitted");
    }

    @Test
    void peerSettingDownAndUpIsSignalledAsBoth() throws HpackException {
        HpackEncoder encoder = new HpackEncoder(4096);
        HpackDecoder decoder = new HpackDecoder(4096, 65536);
        ByteBuffer out = ByteBuffer.allocate(64);
        assertTrue(encoder.encode("a", "b", out));
        decode(decoder, out.flip());
        encoder.peerTableSize(0);
        decoder.maxTableSize(0);
        encoder.peerTableSize(4096);
        decoder.maxTableSize(4096);
        out.clear();
        assertTrue(encoder.encode("c", "d", out));
        assertEquals("20" + "3fe11f", hex(out).substring(0, 8)); // 0, then 4096, then the field
        decode(decoder, out.flip());
        assertTable(decoder.table(), 34, "c: d");
        assertTable(encoder.table(), 34, "c: d");
    }

    @Test
    void encoderTableOfZeroIndexesNothing() throws HpackException {
        HpackEncoder encoder = new HpackEncoder(0);
        ByteBuffer out = ByteBuffer.allocate(64);
        assertTrue(encoder.encode("a", "b", out));
        assertTrue(encoder.encode("a", "b", out));
        assertEquals("20", hex(out).substring(0, 2), "tells the peer's decoder its table is 0");
        HpackDecoder decoder = new HpackDecoder(4096, 65536);
        assertEquals(List.of("a: b", "a: b"), decode(decoder, out.flip()));
        assertTable(decoder.table(), 0);
    }

    // the dynamic table itself
    @Test
    void entryLargerThanTheTableEmptiesIt() throws HpackException {
        DynamicTable table = new DynamicTable(100);
        table.add("a", "b");
        table.add("c", "d");
        table.add("e", "x".repeat(68)); // 101 octets
        assertTable(table, 0);

        HpackDecoder decoder = new HpackDecoder(100, 65536); // and through the decoder, which still hands it over
        decode(decoder, hex("4001610162"));
        ByteBuffer block = ByteBuffer.allocate(80);
        block.put(hex("4001 65 44")).put("x".repeat(68).getBytes(java.nio.charset.StandardCharsets.ISO_8859_1));
        assertEquals(List.of("e: " + "x".repeat(68)), decode(decoder, block.flip()));
        assertTable(decoder.table(), 0);
    }

    @Test
    void evictionIsOldestFirstAndTheRingWraps() {
        DynamicTable table = new DynamicTable(34 * 5);
        for (int i = 0; i < 1000; i++) {
            table.add("n", Integer.toString(i % 10));
            assertEquals(Math.min(i + 1, 5), table.length());
            assertEquals("n: " + (i % 10), table.name(1) + ": " + table.value(1));
        }
        assertEquals(List.of("n: 9", "n: 8", "n: 7", "n: 6", "n: 5"), entries(table));
        table.capacity(34 * 2);
        assertTable(table, 68, "n: 9", "n: 8");
        table.add("longer", "value"); // 43 octets: evicts both
        assertTable(table, 43, "longer: value");
        assertEquals(1, table.find("longer", "value"));
        assertEquals(-1, table.find("longer", "other"));
        assertEquals(0, table.find("n", "9"));
    }

    @Test
    void tableGrowsPastItsFirstArray() {
        DynamicTable table = new DynamicTable(4096);
        for (int i = 0; i < 100; i++) {
            table.add("k", "v" + (i % 10)); // 35 or so octets each: 100 entries would be 3500 octets
        }
        assertEquals(100, table.length());
        assertEquals("v9", table.value(1));
        assertEquals("v0", table.value(100));
        assertFalse(table.size() > 4096);
    }
}
