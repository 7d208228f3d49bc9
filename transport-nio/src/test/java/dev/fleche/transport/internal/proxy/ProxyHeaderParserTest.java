package dev.fleche.transport.internal.proxy;

import dev.fleche.transport.internal.channel.AddressRange;
import dev.fleche.transport.internal.rules.Refusal;
import static java.nio.charset.StandardCharsets.ISO_8859_1;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import dev.fleche.transport.ProxyInfo;
import dev.fleche.transport.internal.proxy.ProxyHeaderParser.ProxyHeaderException;

import java.io.ByteArrayOutputStream;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.util.HexFormat;
import java.util.List;
import java.util.zip.CRC32C;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The PROXY header parser on exact bytes: versions 1 and 2 (IPv4, IPv6, {@code UNKNOWN}/{@code LOCAL}, TLVs), every
 * header fed split at every byte position, the bytes after the header left to the connection, and a corpus of
 * malformed headers, each refused by its named rule. Version 2 headers are written out here from the
 * specification's layout (proxy-protocol.txt 2.2), byte by byte.
 */
@Timeout(30)
class ProxyHeaderParserTest {
    private static final int MAX = 4096;
    private static final HexFormat HEX = HexFormat.of();

    // ---------------------------------------------------------------- version 1

    @Test
    void v1Tcp4() throws Exception {
        ProxyInfo info = parseWhole("PROXY TCP4 192.0.2.10 198.51.100.1 56324 443\r\n");
        assertEquals(new ProxyInfo(1, false, new InetSocketAddress("192.0.2.10", 56324),
                new InetSocketAddress("198.51.100.1", 443), null, null, false), info);
    }

    @Test
    void v1Tcp6() throws Exception {
        ProxyInfo info = parseWhole("PROXY TCP6 2001:db8::7 2001:db8:0:1::1 65535 0\r\n");
        assertEquals(new InetSocketAddress("2001:db8::7", 65535), info.source());
        assertEquals(new InetSocketAddress("2001:db8:0:1::1", 0), info.destination());
        assertFalse(info.local());
    }

    @Test
    void v1UnknownCarriesNoClientAndIgnoresTheRestOfItsLine() throws Exception {
        assertEquals(new ProxyInfo(1, true, null, null, null, null, false), parseWhole("PROXY UNKNOWN\r\n"));
        assertTrue(parseWhole("PROXY UNKNOWN ffff::1 ffff::2 1 2\r\n").local());
    }

    @Test
    void theLongestV1LinesAreTaken() throws Exception {
        String addresses = "ffff:ffff:ffff:ffff:ffff:ffff:ffff:ffff ffff:ffff:ffff:ffff:ffff:ffff:ffff:ffff 65535 65535";
        String tcp6 = "PROXY TCP6 " + addresses + "\r\n";
        assertEquals(104, tcp6.length());
        assertEquals(65535, parseWhole(tcp6).source().getPort());
        String unknown = "PROXY UNKNOWN " + addresses + "\r\n"; // the specification's worst case
        assertEquals(107, unknown.length());
        assertTrue(parseWhole(unknown).local());
    }

    // ---------------------------------------------------------------- version 2

    @Test
    void v2Ipv4WithTlvs() throws Exception {
        byte[] header = v2(0x21, 0x11, ipv4("203.0.113.5", "10.0.0.2", 40000, 8443),
                tlv(0x01, "h2"), tlv(0x02, "api.example.com"), tlv(0x04, "padding"),
                tlv(0x20, bytes(0x01, 0, 0, 0, 0), tlv(0x21, "TLSv1.3")), tlv(0xEA, "vpce-0123"));
        ProxyInfo info = parseWhole(header);
        assertEquals(new ProxyInfo(2, false, new InetSocketAddress("203.0.113.5", 40000),
                new InetSocketAddress("10.0.0.2", 8443), "h2", "api.example.com", true), info);
    }

    @Test
    void v2Ipv6ExactBytes() throws Exception {
        // PROXY, AF_INET6 STREAM, 36 bytes: 2001:db8::1 port 1234 to 2001:db8::2 port 443
        byte[] header = HEX.parseHex("0d0a0d0a000d0a515549540a" + "21" + "21" + "0024"
                + "20010db8000000000000000000000001" + "20010db8000000000000000000000002" + "04d2" + "01bb");
        ProxyInfo info = parseWhole(header);
        assertEquals(new InetSocketAddress("2001:db8::1", 1234), info.source());
        assertEquals(new InetSocketAddress("2001:db8::2", 443), info.destination());
    }

    @Test
    void v2LocalUnspecAndUnixCarryNoClient() throws Exception {
        // LOCAL, AF_UNSPEC, no address: HAProxy's health check
        assertEquals(new ProxyInfo(2, true, null, null, null, null, false),
                parseWhole(HEX.parseHex("0d0a0d0a000d0a515549540a" + "20" + "00" + "0000")));
        // LOCAL with an IPv4 block: the block is skipped
        assertTrue(parseWhole(v2(0x20, 0x11, ipv4("192.0.2.1", "192.0.2.2", 1, 2))).local());
        // PROXY over AF_UNSPEC: the real addresses are used
        assertTrue(parseWhole(v2(0x21, 0x00, new byte[0])).local());
        // PROXY over AF_UNIX STREAM: two 108-byte paths; no IP client
        assertTrue(parseWhole(v2(0x21, 0x31, new byte[216])).local());
    }

    @Test
    void v2Crc32cIsVerified() throws Exception {
        byte[] good = withCrc(v2(0x21, 0x11, ipv4("192.0.2.1", "192.0.2.2", 1, 2), tlv(0x03, new byte[4])));
        assertEquals(1, parseWhole(good).source().getPort());
        good[good.length - 1] ^= 1;
        assertRefused(Refusal.PROXY_V2_MALFORMED, good);
    }

    // ---------------------------------------------------------------- resumable, bounded

    /** Every header above, fed in two pieces split at every position, then byte by byte: the same result. */
    @ParameterizedTest
    @MethodSource("validHeaders")
    void everySplitGivesTheSameResult(byte[] header) throws Exception {
        ProxyInfo whole = parseWhole(header);
        for (int split = 0; split <= header.length; split++) {
            ProxyHeaderParser parser = new ProxyHeaderParser(MAX);
            int taken = parser.feed(header, 0, split);
            assertEquals(split, taken);
            assertEquals(split == header.length, parser.done(), "split at " + split);
            taken += parser.feed(header, split, header.length);
            assertEquals(header.length, taken);
            assertEquals(whole, parser.result(), "split at " + split);
        }
        ProxyHeaderParser parser = new ProxyHeaderParser(MAX);
        for (int i = 0; i < header.length; i++) {
            assertFalse(parser.done());
            assertEquals(1, parser.feed(header, i, i + 1));
        }
        assertEquals(whole, parser.result());
    }

    static List<byte[]> validHeaders() {
        return List.of(
                "PROXY TCP4 192.0.2.10 198.51.100.1 56324 443\r\n".getBytes(ISO_8859_1),
                "PROXY TCP6 2001:db8::7 ::1 1 2\r\n".getBytes(ISO_8859_1),
                "PROXY UNKNOWN\r\n".getBytes(ISO_8859_1),
                v2(0x21, 0x11, ipv4("203.0.113.5", "10.0.0.2", 40000, 8443), tlv(0x01, "h2")),
                v2(0x20, 0x00, new byte[0]),
                withCrc(v2(0x21, 0x11, ipv4("192.0.2.1", "192.0.2.2", 1, 2), tlv(0x05, "id-1"),
                        tlv(0x03, new byte[4]))));
    }

    @Test
    void bytesAfterTheHeaderAreLeftToTheConnection() throws Exception {
        byte[] header = "PROXY TCP4 192.0.2.10 198.51.100.1 56324 443\r\n".getBytes(ISO_8859_1);
        byte[] request = "GET / HTTP/1.1\r\nHost: a\r\n\r\n".getBytes(ISO_8859_1);
        byte[] both = concat(header, request);
        ProxyHeaderParser parser = new ProxyHeaderParser(MAX);
        assertEquals(header.length, parser.feed(both, 0, both.length));
        assertTrue(parser.done());

        byte[] v2 = v2(0x21, 0x11, ipv4("192.0.2.1", "192.0.2.2", 1, 2));
        byte[] hello = {0x16, 0x03, 0x01, 0x00, 0x05, 1, 2, 3, 4, 5}; // a TLS record right behind it
        ProxyHeaderParser second = new ProxyHeaderParser(MAX);
        assertEquals(v2.length, second.feed(concat(v2, hello), 0, v2.length + hello.length));
        assertTrue(second.done());
    }

    @Test
    void aV2HeaderBeyondTheLimitIsRefusedFromItsFixedPartAlone() {
        byte[] fixed = HEX.parseHex("0d0a0d0a000d0a515549540a" + "21" + "11" + "0ff1"); // 16 + 4081 = 4097 > 4096
        ProxyHeaderException e = assertThrows(ProxyHeaderException.class,
                () -> new ProxyHeaderParser(MAX).feed(fixed, 0, fixed.length));
        assertEquals(Refusal.PROXY_HEADER_TOO_LONG, e.rule());
        byte[] largest = HEX.parseHex("0d0a0d0a000d0a515549540a" + "21" + "11" + "0ff0");
        assertDoesNotRefuse(largest); // 4096: needs its body, no refusal yet
    }

    @Test
    void aV1LineWithoutItsEndWithin107BytesIsTooLong() throws Exception {
        byte[] line = ("PROXY UNKNOWN " + "x".repeat(92)).getBytes(ISO_8859_1); // 106 bytes, no CRLF yet
        ProxyHeaderParser parser = new ProxyHeaderParser(MAX);
        parser.feed(line, 0, line.length);
        parser.feed(new byte[] {'\r'}, 0, 1); // 107
        ProxyHeaderException e = assertThrows(ProxyHeaderException.class, () -> parser.feed(new byte[] {'x'}, 0, 1));
        assertEquals(Refusal.PROXY_HEADER_TOO_LONG, e.rule());
    }

    @Test
    void anEndBeforeAnyByteIsAMissingHeaderAndInsideOneTruncated() throws Exception {
        assertEquals(Refusal.PROXY_HEADER_MISSING, new ProxyHeaderParser(MAX).ended().rule());
        ProxyHeaderParser parser = new ProxyHeaderParser(MAX);
        parser.feed("PROXY TCP4 1.".getBytes(ISO_8859_1), 0, 13);
        assertEquals(Refusal.PROXY_HEADER_TRUNCATED, parser.ended().rule());
    }

    // ---------------------------------------------------------------- the corpus of refusals

    record Bad(String name, Refusal rule, byte[] bytes) {
        @Override
        public String toString() {
            return name;
        }
    }

    static List<Bad> malformed() {
        byte[] addresses = ipv4("192.0.2.1", "192.0.2.2", 1, 2);
        return List.of(
                bad("an HTTP request", Refusal.PROXY_HEADER_MISSING, "GET / HTTP/1.1\r\nHost: a\r\n\r\n"),
                bad("a TLS ClientHello", Refusal.PROXY_HEADER_MISSING, HEX.parseHex("16030100")),
                bad("the HTTP/2 preface", Refusal.PROXY_HEADER_MISSING, "PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n"),
                bad("lower-case proxy", Refusal.PROXY_HEADER_MISSING, "proxy TCP4 1.1.1.1 2.2.2.2 1 2\r\n"),
                bad("PROXY without its space", Refusal.PROXY_HEADER_MISSING, "PROXYTCP4 1.1.1.1 2.2.2.2 1 2\r\n"),
                bad("a v2 signature cut by a wrong byte", Refusal.PROXY_HEADER_MISSING,
                        HEX.parseHex("0d0a0d0a000d0a515549540b21110000")),
                bad("v1 LF without CR", Refusal.PROXY_V1_MALFORMED, "PROXY TCP4 1.1.1.1 2.2.2.2 1 2\n"),
                bad("v1 unknown protocol", Refusal.PROXY_V1_MALFORMED, "PROXY UDP4 1.1.1.1 2.2.2.2 1 2\r\n"),
                bad("v1 two spaces", Refusal.PROXY_V1_MALFORMED, "PROXY TCP4 1.1.1.1  2.2.2.2 1 2\r\n"),
                bad("v1 trailing space", Refusal.PROXY_V1_MALFORMED, "PROXY TCP4 1.1.1.1 2.2.2.2 1 2 \r\n"),
                bad("v1 a field missing", Refusal.PROXY_V1_MALFORMED, "PROXY TCP4 1.1.1.1 2.2.2.2 1\r\n"),
                bad("v1 an IPv6 address under TCP4", Refusal.PROXY_V1_MALFORMED, "PROXY TCP4 ::1 2.2.2.2 1 2\r\n"),
                bad("v1 an IPv4 address under TCP6", Refusal.PROXY_V1_MALFORMED, "PROXY TCP6 1.1.1.1 ::1 1 2\r\n"),
                bad("v1 an octet beyond 255", Refusal.PROXY_V1_MALFORMED, "PROXY TCP4 1.1.1.256 2.2.2.2 1 2\r\n"),
                bad("v1 a leading zero in an octet", Refusal.PROXY_V1_MALFORMED,
                        "PROXY TCP4 1.1.1.01 2.2.2.2 1 2\r\n"),
                bad("v1 a host name", Refusal.PROXY_V1_MALFORMED, "PROXY TCP4 localhost 2.2.2.2 1 2\r\n"),
                bad("v1 a port beyond 65535", Refusal.PROXY_V1_MALFORMED, "PROXY TCP4 1.1.1.1 2.2.2.2 65536 2\r\n"),
                bad("v1 a port with a leading zero", Refusal.PROXY_V1_MALFORMED,
                        "PROXY TCP4 1.1.1.1 2.2.2.2 01 2\r\n"),
                bad("v1 a signed port", Refusal.PROXY_V1_MALFORMED, "PROXY TCP4 1.1.1.1 2.2.2.2 +1 2\r\n"),
                bad("v1 a NUL byte", Refusal.PROXY_V1_MALFORMED, "PROXY TCP4 1.1.1.1\0 2.2.2.2 1 2\r\n"),
                bad("v1 an IPv6 zone id", Refusal.PROXY_V1_MALFORMED, "PROXY TCP6 fe80::1%eth0 ::1 1 2\r\n"),
                bad("v1 empty protocol", Refusal.PROXY_V1_MALFORMED, "PROXY \r\n"),
                bad("v1 line of 108 bytes", Refusal.PROXY_HEADER_TOO_LONG, "PROXY UNKNOWN " + "x".repeat(94) + "\r\n"),
                bad("v2 version 1", Refusal.PROXY_V2_MALFORMED, v2(0x11, 0x11, addresses)),
                bad("v2 version 3", Refusal.PROXY_V2_MALFORMED, v2(0x31, 0x11, addresses)),
                bad("v2 command 2", Refusal.PROXY_V2_MALFORMED, v2(0x22, 0x11, addresses)),
                bad("v2 family 4", Refusal.PROXY_V2_MALFORMED, v2(0x21, 0x41, addresses)),
                bad("v2 datagram transport", Refusal.PROXY_V2_MALFORMED, v2(0x21, 0x12, addresses)),
                bad("v2 transport 3", Refusal.PROXY_V2_MALFORMED, v2(0x21, 0x13, addresses)),
                bad("v2 INET with UNSPEC transport", Refusal.PROXY_V2_MALFORMED, v2(0x21, 0x10, addresses)),
                bad("v2 length shorter than INET's addresses", Refusal.PROXY_V2_MALFORMED,
                        v2(0x21, 0x11, new byte[11])),
                bad("v2 length shorter than INET6's addresses", Refusal.PROXY_V2_MALFORMED,
                        v2(0x21, 0x21, new byte[35])),
                bad("v2 a TLV header cut", Refusal.PROXY_V2_MALFORMED, v2(0x21, 0x11, concat(addresses, bytes(1, 0)))),
                bad("v2 a TLV longer than the header", Refusal.PROXY_V2_MALFORMED,
                        v2(0x21, 0x11, concat(addresses, bytes(0x01, 0, 5, 'h', '2')))),
                bad("v2 an ALPN with a control byte", Refusal.PROXY_V2_MALFORMED,
                        v2(0x21, 0x11, addresses, tlv(0x01, bytes('h', 0x07)))),
                bad("v2 an AUTHORITY that is not UTF-8", Refusal.PROXY_V2_MALFORMED,
                        v2(0x21, 0x11, addresses, tlv(0x02, bytes(0xC3, 0x28)))),
                bad("v2 a CRC32C of 3 bytes", Refusal.PROXY_V2_MALFORMED,
                        v2(0x21, 0x11, addresses, tlv(0x03, bytes(0, 0, 0)))),
                bad("v2 a wrong CRC32C", Refusal.PROXY_V2_MALFORMED,
                        v2(0x21, 0x11, addresses, tlv(0x03, bytes(0xDE, 0xAD, 0xBE, 0xEF)))),
                bad("v2 a UNIQUE_ID of 129 bytes", Refusal.PROXY_V2_MALFORMED,
                        v2(0x21, 0x11, addresses, tlv(0x05, new byte[129]))),
                bad("v2 an SSL TLV shorter than its head", Refusal.PROXY_V2_MALFORMED,
                        v2(0x21, 0x11, addresses, tlv(0x20, bytes(1, 0, 0, 0)))),
                bad("v2 an SSL sub-TLV past its TLV", Refusal.PROXY_V2_MALFORMED,
                        v2(0x21, 0x11, addresses, tlv(0x20, concat(bytes(1, 0, 0, 0, 0), bytes(0x21, 0, 9, 'x'))))),
                bad("v2 beyond maxHeaderBytes", Refusal.PROXY_HEADER_TOO_LONG,
                        v2(0x21, 0x11, addresses, tlv(0x04, new byte[MAX]))));
    }

    @ParameterizedTest
    @MethodSource("malformed")
    void malformedHeadersAreRefusedByTheirRuleAtEverySplit(Bad bad) {
        assertRefused(bad.rule(), bad.bytes());
    }

    // ---------------------------------------------------------------- helpers

    private static ProxyInfo parseWhole(String header) throws ProxyHeaderException {
        return parseWhole(header.getBytes(ISO_8859_1));
    }

    private static ProxyInfo parseWhole(byte[] header) throws ProxyHeaderException {
        ProxyHeaderParser parser = new ProxyHeaderParser(MAX);
        assertEquals(header.length, parser.feed(header, 0, header.length));
        assertTrue(parser.done(), "the header is whole");
        return parser.result();
    }

    /** Refused with {@code rule}, whether fed whole, split at any position, or byte by byte. */
    private static void assertRefused(Refusal rule, byte[] bytes) {
        for (int split = 0; split <= bytes.length; split++) {
            ProxyHeaderParser parser = new ProxyHeaderParser(MAX);
            try {
                parser.feed(bytes, 0, split);
                parser.feed(bytes, split, bytes.length);
                fail("not refused (split at " + split + "): " + HEX.formatHex(bytes) + " state " + parser.state());
            } catch (ProxyHeaderException e) {
                assertEquals(rule, e.rule(), "split at " + split + ": " + e.getMessage());
                assertFalse(e.getMessage().isEmpty());
                assertNull(e.getCause());
                assertEquals(0, e.getStackTrace().length, "a client's mistake carries no stack trace");
            }
        }
    }

    private static void assertDoesNotRefuse(byte[] bytes) {
        try {
            new ProxyHeaderParser(MAX).feed(bytes, 0, bytes.length);
        } catch (ProxyHeaderException e) {
            fail("refused: " + e.getMessage());
        }
    }

    private static Bad bad(String name, Refusal rule, String text) {
        return new Bad(name, rule, text.getBytes(ISO_8859_1));
    }

    private static Bad bad(String name, Refusal rule, byte[] bytes) {
        return new Bad(name, rule, bytes);
    }

    /** A version 2 header: signature, version/command, family/transport, length, then the address block and TLVs. */
    static byte[] v2(int versionCommand, int familyTransport, byte[] addresses, byte[]... tlvs) {
        ByteArrayOutputStream rest = new ByteArrayOutputStream();
        rest.writeBytes(addresses);
        for (byte[] tlv : tlvs) {
            rest.writeBytes(tlv);
        }
        ByteBuffer header = ByteBuffer.allocate(16 + rest.size());
        header.put(ProxyHeaderParser.V2_SIGNATURE).put((byte) versionCommand).put((byte) familyTransport)
                .putShort((short) rest.size()).put(rest.toByteArray());
        return header.array();
    }

    /** The IPv4 address block: source, destination, source port, destination port. */
    static byte[] ipv4(String source, String destination, int sourcePort, int destinationPort) {
        return ByteBuffer.allocate(12).put(AddressRange.literal(source)).put(AddressRange.literal(destination))
                .putShort((short) sourcePort).putShort((short) destinationPort).array();
    }

    static byte[] tlv(int type, String value) {
        return tlv(type, value.getBytes(ISO_8859_1));
    }

    static byte[] tlv(int type, byte[] value, byte[]... more) {
        byte[] content = value;
        for (byte[] m : more) {
            content = concat(content, m);
        }
        return ByteBuffer.allocate(3 + content.length).put((byte) type).putShort((short) content.length)
                .put(content).array();
    }

    /** {@code header} with its CRC32C TLV (the last TLV, four zero bytes) filled in. */
    static byte[] withCrc(byte[] header) {
        CRC32C crc = new CRC32C();
        crc.update(header);
        int at = header.length - 4;
        byte[] filled = header.clone();
        ByteBuffer.wrap(filled).putInt(at, (int) crc.getValue());
        return filled;
    }

    static byte[] bytes(int... values) {
        byte[] bytes = new byte[values.length];
        for (int i = 0; i < values.length; i++) {
            bytes[i] = (byte) values[i];
        }
        return bytes;
    }

    static byte[] concat(byte[] a, byte[] b) {
        byte[] both = new byte[a.length + b.length];
        System.arraycopy(a, 0, both, 0, a.length);
        System.arraycopy(b, 0, both, a.length, b.length);
        return both;
    }
}
