package dev.fleche.transport.internal.http2.hpack;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;

import static dev.fleche.transport.internal.http2.hpack.Blocks.assertTable;
import static dev.fleche.transport.internal.http2.hpack.Blocks.decode;
import static dev.fleche.transport.internal.http2.hpack.Blocks.hex;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Blocks the decoder must refuse, each naming its rule, and the limits it must hold without allocating. */
@Timeout(10)
class DecoderHardeningTest {
    private final HpackDecoder decoder = new HpackDecoder(4096, 16384);

    private void assertCompressionError(String block, String rule) {
        HpackException e = assertThrows(HpackException.class, () -> decode(decoder, hex(block)));
        assertEquals(HpackException.Kind.COMPRESSION_ERROR, e.kind());
        assertTrue(e.getMessage().startsWith(rule), e.getMessage());
    }

    // indexes
    @Test
    void indexZero() {
        assertCompressionError("80", "RFC 7541 §6.1: index 0");
    }

    @Test
    void indexBeyondTheStaticTable() {
        assertCompressionError("be", "RFC 7541 §2.3.3: index 62"); // empty dynamic table
    }

    @Test
    void indexBeyondTheDynamicTable() {
        assertCompressionError("400161016282 bf", "RFC 7541 §2.3.3: index 63"); // one entry: 62 is the last
    }

    @Test
    void literalNameIndexBeyondTheTables() {
        assertCompressionError("7f01 0161", "RFC 7541 §2.3.3: index 64");  // incremental indexing, 6-bit prefix
        assertCompressionError("0f30 0161", "RFC 7541 §2.3.3: index 63");  // without indexing, 4-bit prefix
    }

    // integers
    @Test
    void integerAboveTwoToTheThirtyOneIsRefused() {
        assertCompressionError("ff ffffffff0f", "RFC 7541 §5.1: integer larger than 2^31-1");
        assertCompressionError("ff 80808080 08", "RFC 7541 §5.1: integer larger than 2^31-1"); // 127 + 2^31
    }

    @Test
    void integerOfTwoToTheThirtyOneMinusOneIsRead() throws HpackException {
        // 2^31-1 - 127 = 2147483520 = 0x7fffff80: 7-bit groups 0x00, 0x7f, 0x7f, 0x7f, 0x07
        assertEquals(Integer.MAX_VALUE, HpackDecoder.readInt(hex("ff 80ffffff07"), 0x7F));
        ByteBuffer out = ByteBuffer.allocate(8);
        HpackEncoder.writeInt(0x80, 0x7F, Integer.MAX_VALUE, out);
        assertEquals("ff80ffffff07", hex(out));
        assertCompressionError("ff 80ffffff07", "RFC 7541 §2.3.3: index 2147483647");
    }

    @Test
    void integerWithTooManyContinuationOctets() {
        assertCompressionError("ff 8080808080 00", "RFC 7541 §5.1: integer of more than 5 continuation octets");
    }

    @Test
    void integerCutOffByTheEndOfTheBlock() {
        assertCompressionError("ff 80", "RFC 7541 §5.1: integer cut off");
        assertCompressionError("3f", "RFC 7541 §5.1: integer cut off"); // size update
    }

    // strings
    @Test
    void stringLongerThanTheBlock() {
        assertCompressionError("00 05 6162", "RFC 7541 §5.2: string of 5 octets, longer than the 2 left");
        assertCompressionError("04 85 6162", "RFC 7541 §5.2: string of 5 octets"); // Huffman, indexed name
    }

    @Test
    void hugeDeclaredLengthAllocatesNothing() {
        // a name of 2^31-1 octets announced in 7 octets: refused before any array of that size is made
        assertCompressionError("00 7f80ffffff07", "RFC 7541 §5.2: string of 2147483647 octets");
        assertCompressionError("00 ff80ffffff07", "RFC 7541 §5.2: string of 2147483647 octets");
    }

    @Test
    void valueMissing() {
        assertCompressionError("00 0161", "RFC 7541 §5.2: string literal missing");
        assertCompressionError("41", "RFC 7541 §5.2: string literal missing");
    }

    // Huffman
    @Test
    void huffmanPaddingOfOnesUpToSevenBits() throws HpackException {
        // 'a' is 00011 (5 bits) then 111 of padding
        assertEquals(List.of(":authority: a"), decode(decoder, hex("01 81 1f")));
        assertEquals(List.of(":authority: "), decode(decoder, hex("01 80"))); // empty Huffman string
    }

    @Test
    void huffmanPaddingNotAllOnes() {
        assertCompressionError("01 81 18", "RFC 7541 §5.2: Huffman padding"); // 'a' then 000
        assertCompressionError("01 81 1e", "RFC 7541 §5.2: Huffman padding"); // 'a' then 110
    }

    @Test
    void huffmanPaddingLongerThanSevenBits() {
        assertCompressionError("01 81 ff", "RFC 7541 §5.2: Huffman padding"); // 8 ones, no symbol
        assertCompressionError("01 82 1fff", "RFC 7541 §5.2: Huffman padding"); // 'a' then 11 ones
    }

    @Test
    void huffmanEos() {
        assertCompressionError("01 84 ffffffff", "RFC 7541 §5.2: EOS"); // EOS is 30 ones
        assertCompressionError("01 85 1fffffffff", "RFC 7541 §5.2: EOS"); // 'a', padding, then EOS
    }

    // dynamic table size updates
    @Test
    void sizeUpdateAfterAField() {
        assertCompressionError("82 20", "RFC 7541 §4.2: dynamic table size update after a field");
    }

    @Test
    void sizeUpdateAboveOurSetting() {
        assertCompressionError("3fe21f", "RFC 7541 §6.3: dynamic table size update to 4097"); // 31 + 4066
    }

    @Test
    void sizeUpdatesAtTheStartOfABlock() throws HpackException {
        decode(decoder, hex("4001610162")); // a: b, 34 octets
        assertEquals(List.of(":method: GET"), decode(decoder, hex("20 3fe11f 82"))); // 0, then 4096
        assertTable(decoder.table(), 0);
        assertEquals(4096, decoder.table().capacity());
    }

    @Test
    void sizeUpdateEvicts() throws HpackException {
        decode(decoder, hex("4001610162 4001630164")); // a: b, c: d
        decode(decoder, hex("3f03")); // 34 octets: only the newest fits
        assertTable(decoder.table(), 34, "c: d");
    }

    @Test
    void loweredSettingRequiresAnUpdate() throws HpackException {
        decoder.maxTableSize(100);
        assertCompressionError("82", "RFC 7541 §4.2: no dynamic table size update");
        assertCompressionError("", "RFC 7541 §4.2: no dynamic table size update");
        assertCompressionError("3f46 82", "RFC 7541 §6.3: dynamic table size update to 101");
        assertEquals(List.of(":method: GET"), decode(decoder, hex("3f45 82"))); // 100
        assertEquals(List.of(":method: GET"), decode(decoder, hex("82"))); // once is enough
    }

    @Test
    void raisedSettingRequiresNoUpdate() throws HpackException {
        decoder.maxTableSize(8192);
        assertEquals(List.of(":method: GET"), decode(decoder, hex("82")));
        assertEquals(List.of(":method: GET"), decode(decoder, hex("3fe13f 82"))); // 8192 is allowed now
        assertEquals(8192, decoder.table().capacity());
    }

    // the header list limit
    @Test
    void hpackBombStopsAtTheLimitWithoutBuildingTheList() throws HpackException {
        // one entry of 4000 + 1 + 32 octets, then a 1000-octet block naming it 1000 times: 4 MB of header list
        ByteBuffer first = ByteBuffer.allocate(4100);
        first.put(hex("4001 78 7f a11e")); // name "x", raw value of 31 + 3969 = 4000 octets
        first.put("a".repeat(4000).getBytes(java.nio.charset.StandardCharsets.ISO_8859_1));
        decode(decoder, first.flip());
        assertTable(decoder.table(), 4033, "x: " + "a".repeat(4000));

        ByteBuffer bomb = ByteBuffer.allocate(1000);
        while (bomb.hasRemaining()) {
            bomb.put((byte) 0xbe);
        }
        List<String> delivered = new ArrayList<>();
        HpackException e = assertThrows(HpackException.class,
                () -> decoder.decode(bomb.flip(), (name, value) -> delivered.add(name)));
        assertEquals(HpackException.Kind.HEADER_LIST_TOO_LARGE, e.kind());
        assertTrue(e.getMessage().startsWith("RFC 9113 §6.5.2: header list of at least 4033000 octets"),
                e.getMessage());
        assertEquals(4, delivered.size(), "fields within 16384 octets only");
        assertEquals(0, bomb.remaining(), "the whole block was read");
        assertEquals(List.of(":method: GET"), decode(decoder, hex("82")), "the connection survives");
    }

    @Test
    void overTheLimitTheTableStaysInSync() throws HpackException {
        HpackDecoder small = new HpackDecoder(4096, 100);
        // a: <70 x 'v'> (103 octets, over the limit), then c: d added to the table, then indexed c: d
        ByteBuffer block = ByteBuffer.allocate(200);
        block.put(hex("0001 61 46")).put("v".repeat(70).getBytes(java.nio.charset.StandardCharsets.ISO_8859_1));
        block.put(hex("4001630164 be"));
        List<String> delivered = new ArrayList<>();
        HpackException e = assertThrows(HpackException.class,
                () -> small.decode(block.flip(), (name, value) -> delivered.add(name)));
        assertEquals(HpackException.Kind.HEADER_LIST_TOO_LARGE, e.kind());
        assertEquals(List.of(), delivered);
        assertTable(small.table(), 34, "c: d");
        assertEquals(List.of("c: d"), decode(small, hex("be")));
    }

    @Test
    void aValueLargerThanBothLimitsIsSkippedNotDecoded() throws HpackException {
        // a 1 MiB raw value (over the 16 KiB list limit and the 4 KiB table), with indexing: the table empties
        decode(decoder, hex("4001610162")); // a: b
        ByteBuffer block = ByteBuffer.allocate(1 << 21);
        block.put(hex("4001 78 7f 81ff3f")).put(new byte[1 << 20]); // x: 1048576 octets (127 + 1048449)
        // then a Huffman string that would be malformed were it decoded (8 one-bits of padding): skipped too
        block.put(hex("0001 79 81 ff"));
        block.put(hex("4001630164")); // and c: d is still added
        HpackException e = assertThrows(HpackException.class, () -> decode(decoder, block.flip()));
        assertEquals(HpackException.Kind.HEADER_LIST_TOO_LARGE, e.kind());
        assertTrue(decoder.largestScratch() < 4096, "scratch grew to " + decoder.largestScratch());
        assertTable(decoder.table(), 34, "c: d");
    }

    @Test
    void aHuffmanNameLargerThanBothLimitsIsSkipped() throws HpackException {
        HpackDecoder small = new HpackDecoder(64, 100);
        ByteBuffer block = ByteBuffer.allocate(20_000);
        block.put(hex("00 ff f11b")); // a Huffman name of 127 + 113 + 27 * 128 = 3696 octets,
        block.put(new byte[3696]); // all zero bits: 5913 '0's (00000), then 3 zero bits that would be refused
        block.put(hex("00")); // an empty value
        HpackException e = assertThrows(HpackException.class, () -> decode(small, block.flip()));
        assertEquals(HpackException.Kind.HEADER_LIST_TOO_LARGE, e.kind());
        assertTrue(small.largestScratch() < 1024, "scratch grew to " + small.largestScratch());
    }

    @Test
    void exactlyAtTheLimitIsAllowed() throws HpackException {
        HpackDecoder small = new HpackDecoder(4096, 42 + 34);
        assertEquals(List.of(":method: GET", "a: b"), decode(small, hex("82 0001610162"))); // 42 + 34
        HpackException e = assertThrows(HpackException.class, () -> decode(small, hex("82 0001610163 82")));
        assertEquals(HpackException.Kind.HEADER_LIST_TOO_LARGE, e.kind());
    }

    @Test
    void uppercaseNamesAreTheConnectionsBusiness() throws HpackException {
        assertEquals(List.of("Content-Type: x"), decode(decoder, hex("000c 436f6e74656e742d54797065 0178")));
    }

    @Test
    void staticNamesAreTheTablesStrings() throws HpackException {
        List<String> names = new ArrayList<>();
        decoder.decode(hex("82 0f10 0178"), (name, value) -> names.add(name)); // :method, content-type (31)
        assertTrue(names.get(0) == StaticTable.name(2) && names.get(1) == StaticTable.name(31), "no new String");
    }
}
