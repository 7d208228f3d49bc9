package dev.fleche.conformance.h2.client;

import dev.fleche.conformance.h2.client.FieldBlock.Indexing;
import dev.fleche.conformance.h2.client.Frame.Field;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.util.HexFormat;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

/**
 * The suite's own client checked against RFC 7541's worked examples (Appendix C, octet for octet), so that a
 * conformance failure is the server's and not the client's: its encoder writes the appendix's blocks, its decoder
 * reads them back with the same dynamic table states, and its Huffman code is Appendix B's.
 */
class ClientCodecTest {
    private static final HexFormat HEX = HexFormat.of();

    @Test
    @DisplayName("Appendix B: the code computed from the lengths has the appendix's codes, and is complete")
    void huffmanCode() {
        assertEquals("1111111111000", Huffman.bits(0));
        assertEquals("010100", Huffman.bits(' '));
        assertEquals("00000", Huffman.bits('0'));
        assertEquals("1111011", Huffman.bits('z'));
        assertEquals("11111111111111111111101110", Huffman.bits(255));
        assertEquals("1".repeat(30), Huffman.bits(Huffman.EOS));
        BigInteger kraft = BigInteger.ZERO; // sum of 2^(30 - length): a complete prefix code fills 2^30
        for (int symbol = 0; symbol <= Huffman.EOS; symbol++) {
            kraft = kraft.add(BigInteger.ONE.shiftLeft(30 - Huffman.bits(symbol).length()));
        }
        assertEquals(BigInteger.ONE.shiftLeft(30), kraft);
    }

    @Test
    @DisplayName("C.1: integers with a prefix (10 in 5 bits, 1337 in 5 bits)")
    void integers() {
        assertEquals("2a", hex(FieldBlock.create().sizeUpdate(10)));
        assertEquals("3f9a0a", hex(FieldBlock.create().sizeUpdate(1337)));
    }

    @Test
    @DisplayName("C.2: each field representation, written")
    void representations() {
        assertEquals("400a637573746f6d2d6b65790d637573746f6d2d686561646572",
                hex(FieldBlock.create().literal(Indexing.INCREMENTAL, "custom-key", "custom-header", false)));
        assertEquals("040c2f73616d706c652f70617468",
                hex(FieldBlock.create().literal(Indexing.WITHOUT, 4, "/sample/path", false)));
        assertEquals("100870617373776f726406736563726574",
                hex(FieldBlock.create().literal(Indexing.NEVER, "password", "secret", false)));
        assertEquals("82", hex(FieldBlock.create().indexed(2)));
    }

    @Test
    @DisplayName("C.3: three requests without Huffman, written and read with one dynamic table")
    void requestsWithoutHuffman() throws HpackException {
        assertEquals("828684410f7777772e6578616d706c652e636f6d", hex(FieldBlock.create().indexed(2).indexed(6)
                .indexed(4).literal(Indexing.INCREMENTAL, 1, "www.example.com", false)));
        FieldDecoder decoder = new FieldDecoder(4096);
        assertEquals(List.of(":method: GET", ":scheme: http", ":path: /", ":authority: www.example.com"),
                decode(decoder, "828684410f7777772e6578616d706c652e636f6d"));
        assertEquals(List.of(":method: GET", ":scheme: http", ":path: /", ":authority: www.example.com",
                "cache-control: no-cache"), decode(decoder, "828684be58086e6f2d6361636865"));
        assertEquals(List.of(":method: GET", ":scheme: https", ":path: /index.html", ":authority: www.example.com",
                "custom-key: custom-value"),
                decode(decoder, "828785bf400a637573746f6d2d6b65790c637573746f6d2d76616c7565"));
    }

    @Test
    @DisplayName("C.4: three requests with Huffman, written and read with one dynamic table")
    void requestsWithHuffman() throws HpackException {
        assertEquals("828684418cf1e3c2e5f23a6ba0ab90f4ff", hex(FieldBlock.create().indexed(2).indexed(6)
                .indexed(4).literal(Indexing.INCREMENTAL, 1, "www.example.com", true)));
        assertEquals("828785bf408825a849e95ba97d7f8925a849e95bb8e8b4bf", hex(FieldBlock.create().indexed(2)
                .indexed(7).indexed(5).indexed(63).literal(Indexing.INCREMENTAL, "custom-key", "custom-value", true)));
        FieldDecoder decoder = new FieldDecoder(4096);
        decode(decoder, "828684418cf1e3c2e5f23a6ba0ab90f4ff");
        assertEquals(List.of(":method: GET", ":scheme: http", ":path: /", ":authority: www.example.com",
                "cache-control: no-cache"), decode(decoder, "828684be5886a8eb10649cbf"));
        assertEquals(List.of(":method: GET", ":scheme: https", ":path: /index.html", ":authority: www.example.com",
                "custom-key: custom-value"), decode(decoder, "828785bf408825a849e95ba97d7f8925a849e95bb8e8b4bf"));
    }

    @Test
    @DisplayName("C.5 and C.6: three responses each, a 256-octet table evicting as it goes")
    void responsesWithEviction() throws HpackException {
        List<String> third = List.of(":status: 200", "cache-control: private", "date: Mon, 21 Oct 2013 20:13:22 GMT",
                "location: https://www.example.com", "content-encoding: gzip",
                "set-cookie: foo=ASDJKHQKBZXOQWEOPIUAXQWEOIU; max-age=3600; version=1");
        FieldDecoder plain = new FieldDecoder(256);
        decode(plain, "4803333032580770726976617465611d4d6f6e2c203231204f637420323031332032303a31333a32312047"
                + "4d546e1768747470733a2f2f7777772e6578616d706c652e636f6d");
        assertEquals(List.of(":status: 307", "cache-control: private", "date: Mon, 21 Oct 2013 20:13:21 GMT",
                "location: https://www.example.com"), decode(plain, "4803333037c1c0bf"));
        assertEquals(third, decode(plain, "88c1611d4d6f6e2c203231204f637420323031332032303a31333a323220474d54c0"
                + "5a04677a69707738666f6f3d4153444a4b48514b425a584f5157454f50495541585157454f49553b206d61782d616765"
                + "3d333630303b2076657273696f6e3d31"));
        FieldDecoder huffman = new FieldDecoder(256);
        decode(huffman, "488264025885aec3771a4b6196d07abe941054d444a8200595040b8166e082a62d1bff6e919d29ad171863c7"
                + "8f0b97c8e9ae82ae43d3");
        decode(huffman, "4883640effc1c0bf");
        assertEquals(third, decode(huffman, "88c16196d07abe941054d444a8200595040b8166e084a62d1bffc05a839bd9ab77ad"
                + "94e7821dd7f2e6c7b335dfdfcd5b3960d5af27087f3672c1ab270fb5291f9587316065c003ed4ee5b1063d5007"));
    }

    @Test
    @DisplayName("5.2: Huffman strings with EOS inside, padding of 8 bits or more, or padding of 0s are refused")
    void huffmanErrors() {
        byte[] test = Huffman.encode("test".getBytes(StandardCharsets.US_ASCII)); // 20 bits + 4 bits of padding
        assertEquals("test", new String(assertDoesNotThrow(test), StandardCharsets.US_ASCII));
        byte[] longPadding = java.util.Arrays.copyOf(test, test.length + 1);
        longPadding[test.length] = (byte) 0xFF;
        assertThrows(HpackException.class, () -> Huffman.decode(longPadding));
        byte[] zeroPadding = test.clone();
        zeroPadding[zeroPadding.length - 1] &= (byte) 0xF0;
        assertThrows(HpackException.class, () -> Huffman.decode(zeroPadding));
        assertThrows(HpackException.class, () -> Huffman.decode(octets(Huffman.bits('t') + Huffman.bits(Huffman.EOS))));
    }

    /** {@code bits} padded with 1s to whole octets. */
    private static byte[] octets(String bits) {
        String padded = bits + "1".repeat((8 - bits.length() % 8) % 8);
        byte[] octets = new byte[padded.length() / 8];
        for (int i = 0; i < octets.length; i++) {
            octets[i] = (byte) Integer.parseInt(padded.substring(8 * i, 8 * i + 8), 2);
        }
        return octets;
    }

    @Test
    @DisplayName("2.3.3, 4.2, 6.1: index 0, an index beyond both tables, a size update after a field are refused")
    void decoderErrors() {
        assertThrows(HpackException.class, () -> new FieldDecoder(4096).decode(new byte[] {(byte) 0x80}));
        assertThrows(HpackException.class, () -> new FieldDecoder(4096).decode(new byte[] {(byte) 0xBE}));
        assertThrows(HpackException.class, () -> new FieldDecoder(4096).decode(new byte[] {(byte) 0x82, 0x20}));
        assertThrows(HpackException.class, () -> new FieldDecoder(4096).decode(HEX.parseHex("3fe21f"))); // 4097
    }

    @Test
    @DisplayName("RFC 9113 §7: the 14 error codes, 0x0 to 0xd")
    void errorCodes() {
        assertEquals(14, ErrorCode.values().length);
        for (int code = 0; code < 14; code++) {
            assertEquals(code, ErrorCode.valueOf(ErrorCode.nameOf(code)).code());
        }
    }

    private static byte[] assertDoesNotThrow(byte[] coded) {
        try {
            return Huffman.decode(coded);
        } catch (HpackException e) {
            throw new AssertionError(e);
        }
    }

    private static List<String> decode(FieldDecoder decoder, String hex) throws HpackException {
        return decoder.decode(HEX.parseHex(hex)).stream().map(Field::toString).toList();
    }

    private static String hex(FieldBlock block) {
        return HEX.formatHex(block.bytes());
    }
}
