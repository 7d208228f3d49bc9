package dev.fleche.transport.internal.http2.hpack;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.nio.ByteBuffer;
import java.util.List;

import static dev.fleche.transport.internal.http2.hpack.Blocks.assertTable;
import static dev.fleche.transport.internal.http2.hpack.Blocks.decode;
import static dev.fleche.transport.internal.http2.hpack.Blocks.hex;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The examples of RFC 7541 Appendix C, byte for byte: the decoder's fields and dynamic table after each block, and
 * the encoder's output where our choices are the RFC's (C.4 and C.6, which use Huffman where it is shorter, as we do).
 */
@Timeout(10)
class AppendixCTest {
    private static final String DATE_21 = "date: Mon, 21 Oct 2013 20:13:21 GMT";
    private static final String DATE_22 = "date: Mon, 21 Oct 2013 20:13:22 GMT";
    private static final String LOCATION = "location: https://www.example.com";
    private static final String COOKIE = "set-cookie: foo=ASDJKHQKBZXOQWEOPIUAXQWEOIU; max-age=3600; version=1";

    // C.1: integers
    @Test
    void c1Integers() throws HpackException {
        assertInt(10, 0x1F, "0a");        // C.1.1: 10 with a 5-bit prefix
        assertInt(1337, 0x1F, "1f9a0a");  // C.1.2: 1337 with a 5-bit prefix
        assertInt(42, 0xFF, "2a");        // C.1.3: 42 starting at an octet boundary
    }

    private static void assertInt(int value, int prefixMask, String hex) throws HpackException {
        ByteBuffer out = ByteBuffer.allocate(8);
        HpackEncoder.writeInt(0, prefixMask, value, out);
        assertEquals(hex, hex(out));
        assertEquals(hex.length() / 2, HpackEncoder.intLength(value, prefixMask));
        assertEquals(value, HpackDecoder.readInt(hex(hex), prefixMask));
    }

    // C.2: one representation each
    @Test
    void c2_1LiteralWithIndexing() throws HpackException {
        HpackDecoder decoder = new HpackDecoder(4096, 65536);
        assertEquals(List.of("custom-key: custom-header"),
                decode(decoder, hex("400a 6375 7374 6f6d 2d6b 6579 0d63 7573 746f 6d2d 6865 6164 6572")));
        assertTable(decoder.table(), 55, "custom-key: custom-header");
    }

    @Test
    void c2_2LiteralWithoutIndexing() throws HpackException {
        HpackDecoder decoder = new HpackDecoder(4096, 65536);
        assertEquals(List.of(":path: /sample/path"), decode(decoder, hex("040c 2f73 616d 706c 652f 7061 7468")));
        assertTable(decoder.table(), 0);
    }

    @Test
    void c2_3LiteralNeverIndexed() throws HpackException {
        HpackDecoder decoder = new HpackDecoder(4096, 65536);
        assertEquals(List.of("password: secret"), decode(decoder, hex("1008 7061 7373 776f 7264 0673 6563 7265 74")));
        assertTable(decoder.table(), 0);
    }

    @Test
    void c2_4Indexed() throws HpackException {
        HpackDecoder decoder = new HpackDecoder(4096, 65536);
        assertEquals(List.of(":method: GET"), decode(decoder, hex("82")));
        assertTable(decoder.table(), 0);
    }

    // C.3 and C.4: requests, without and with Huffman
    private static final String[] C3 = {
        "8286 8441 0f77 7777 2e65 7861 6d70 6c65 2e63 6f6d",
        "8286 84be 5808 6e6f 2d63 6163 6865",
        "8287 85bf 400a 6375 7374 6f6d 2d6b 6579 0c63 7573 746f 6d2d 7661 6c75 65",
    };
    private static final String[] C4 = {
        "8286 8441 8cf1 e3c2 e5f2 3a6b a0ab 90f4 ff",
        "8286 84be 5886 a8eb 1064 9cbf",
        "8287 85bf 4088 25a8 49e9 5ba9 7d7f 8925 a849 e95b b8e8 b4bf",
    };

    @Test
    void c3RequestsWithoutHuffman() throws HpackException {
        decodeRequests(C3);
    }

    @Test
    void c4RequestsWithHuffman() throws HpackException {
        decodeRequests(C4);
    }

    private static void decodeRequests(String[] blocks) throws HpackException {
        HpackDecoder decoder = new HpackDecoder(4096, 65536);
        assertEquals(List.of(":method: GET", ":scheme: http", ":path: /", ":authority: www.example.com"),
                decode(decoder, hex(blocks[0])));
        assertTable(decoder.table(), 57, ":authority: www.example.com");

        assertEquals(List.of(":method: GET", ":scheme: http", ":path: /", ":authority: www.example.com",
                "cache-control: no-cache"), decode(decoder, hex(blocks[1])));
        assertTable(decoder.table(), 110, "cache-control: no-cache", ":authority: www.example.com");

        assertEquals(List.of(":method: GET", ":scheme: https", ":path: /index.html", ":authority: www.example.com",
                "custom-key: custom-value"), decode(decoder, hex(blocks[2])));
        assertTable(decoder.table(), 164, "custom-key: custom-value", "cache-control: no-cache",
                ":authority: www.example.com");
    }

    @Test
    void c4EncoderWritesTheRfcBytes() {
        HpackEncoder encoder = new HpackEncoder(4096);
        assertEquals(C4[0].replace(" ", ""), encode(encoder,
                ":method", "GET", ":scheme", "http", ":path", "/", ":authority", "www.example.com"));
        assertEquals(C4[1].replace(" ", ""), encode(encoder,
                ":method", "GET", ":scheme", "http", ":path", "/", ":authority", "www.example.com",
                "cache-control", "no-cache"));
        assertEquals(C4[2].replace(" ", ""), encode(encoder,
                ":method", "GET", ":scheme", "https", ":path", "/index.html", ":authority", "www.example.com",
                "custom-key", "custom-value"));
        assertTable(encoder.table(), 164, "custom-key: custom-value", "cache-control: no-cache",
                ":authority: www.example.com");
    }

    // C.5 and C.6: responses with a 256-octet table, evicting
    private static final String[] C5 = {
        "4803 3330 3258 0770 7269 7661 7465 611d 4d6f 6e2c 2032 3120 4f63 7420 3230 3133 2032 303a 3133 3a32 3120"
                + " 474d 546e 1768 7474 7073 3a2f 2f77 7777 2e65 7861 6d70 6c65 2e63 6f6d",
        "4803 3330 37c1 c0bf",
        "88c1 611d 4d6f 6e2c 2032 3120 4f63 7420 3230 3133 2032 303a 3133 3a32 3220 474d 54c0 5a04 677a 6970 7738"
                + " 666f 6f3d 4153 444a 4b48 514b 425a 584f 5157 454f 5049 5541 5851 5745 4f49 553b 206d 6178 2d61"
                + " 6765 3d33 3630 303b 2076 6572 7369 6f6e 3d31",
    };
    private static final String[] C6 = {
        "4882 6402 5885 aec3 771a 4b61 96d0 7abe 9410 54d4 44a8 2005 9504 0b81 66e0 82a6 2d1b ff6e 919d 29ad 1718"
                + " 63c7 8f0b 97c8 e9ae 82ae 43d3",
        "4883 640e ffc1 c0bf",
        "88c1 6196 d07a be94 1054 d444 a820 0595 040b 8166 e084 a62d 1bff c05a 839b d9ab 77ad 94e7 821d d7f2 e6c7"
                + " b335 dfdf cd5b 3960 d5af 2708 7f36 72c1 ab27 0fb5 291f 9587 3160 65c0 03ed 4ee5 b106 3d50 07",
    };

    @Test
    void c5ResponsesWithoutHuffman() throws HpackException {
        decodeResponses(C5);
    }

    @Test
    void c6ResponsesWithHuffman() throws HpackException {
        decodeResponses(C6);
    }

    private static void decodeResponses(String[] blocks) throws HpackException {
        HpackDecoder decoder = new HpackDecoder(256, 65536);
        assertEquals(List.of(":status: 302", "cache-control: private", DATE_21, LOCATION),
                decode(decoder, hex(blocks[0])));
        assertTable(decoder.table(), 222, LOCATION, DATE_21, "cache-control: private", ":status: 302");

        assertEquals(List.of(":status: 307", "cache-control: private", DATE_21, LOCATION),
                decode(decoder, hex(blocks[1])));
        assertTable(decoder.table(), 222, ":status: 307", LOCATION, DATE_21, "cache-control: private");

        assertEquals(List.of(":status: 200", "cache-control: private", DATE_22, LOCATION,
                "content-encoding: gzip", COOKIE), decode(decoder, hex(blocks[2])));
        assertTable(decoder.table(), 215, COOKIE, "content-encoding: gzip", DATE_22);
    }

    /**
     * C.6 from our encoder: the same bytes, after the size update that tells the peer's decoder about the 256-octet
     * table, except that {@code set-cookie} is never indexed here (the RFC indexes it) and that a string whose
     * Huffman code is no shorter is written raw (the RFC's {@code "307"}).
     */
    @Test
    void c6EncoderWritesTheRfcBytes() throws HpackException {
        HpackEncoder encoder = new HpackEncoder(256);
        ByteBuffer out = ByteBuffer.allocate(256);
        assertTrue(encoder.encodeStatus(302, out));
        encodeInto(encoder, out, "cache-control", "private", "date", "Mon, 21 Oct 2013 20:13:21 GMT",
                "location", "https://www.example.com");
        assertEquals("3fe101" + C6[0].replace(" ", ""), hex(out));
        assertTable(encoder.table(), 222, LOCATION, DATE_21, "cache-control: private", ":status: 302");

        out.clear();
        assertTrue(encoder.encodeStatus(307, out));
        encodeInto(encoder, out, "cache-control", "private", "date", "Mon, 21 Oct 2013 20:13:21 GMT",
                "location", "https://www.example.com");
        assertEquals(C5[1].replace(" ", ""), hex(out)); // "307" is 17 bits in Huffman: no shorter, so raw

        out.clear();
        assertTrue(encoder.encodeStatus(200, out));
        encodeInto(encoder, out, "cache-control", "private", "date", "Mon, 21 Oct 2013 20:13:22 GMT",
                "location", "https://www.example.com", "content-encoding", "gzip",
                "set-cookie", "foo=ASDJKHQKBZXOQWEOPIUAXQWEOIU; max-age=3600; version=1");
        String rfc = C6[2].replace(" ", "");
        int cookie = rfc.indexOf("77ad94e7"); // the RFC's set-cookie: incremental indexing, name index 55
        assertEquals(rfc.substring(0, cookie) + "1f28" + rfc.substring(cookie + 2), hex(out));
        assertTable(encoder.table(), 222, "content-encoding: gzip", DATE_22, ":status: 307", LOCATION);

        HpackDecoder decoder = new HpackDecoder(256, 65536); // and what it wrote decodes to the same list
        decode(decoder, hex("3fe101" + C6[0]));
        decode(decoder, hex(C5[1]));
        assertEquals(List.of(":status: 200", "cache-control: private", DATE_22, LOCATION, "content-encoding: gzip",
                COOKIE), decode(decoder, out.flip()));
    }

    /** Encodes name, value pairs as one block and returns it in hex. */
    static String encode(HpackEncoder encoder, String... fields) {
        ByteBuffer out = ByteBuffer.allocate(1024);
        encodeInto(encoder, out, fields);
        return hex(out);
    }

    static void encodeInto(HpackEncoder encoder, ByteBuffer out, String... fields) {
        for (int i = 0; i < fields.length; i += 2) {
            assertTrue(encoder.encode(fields[i], fields[i + 1], out), fields[i]);
        }
    }
}
