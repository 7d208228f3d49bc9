package dev.fleche.transport.internal.proxy;

import dev.fleche.transport.internal.channel.AddressRange;
import dev.fleche.transport.internal.rules.Refusal;
import dev.fleche.transport.ProxyInfo;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.UnknownHostException;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.zip.CRC32C;

/**
 * The PROXY protocol header (HAProxy's proxy-protocol.txt, versions 1 and 2) as a resumable parser: bytes are fed
 * as they arrive, split anywhere; "need more" is {@link #done()} being false after a feed. Every byte it keeps is
 * bounded: a version 1 line by the specification's 107 bytes, a version 2 header by {@code maxHeaderBytes}, checked
 * on its fixed part before its body is read. A violation throws {@link ProxyHeaderException} with its
 * {@link Refusal} rule and a detail for the event.
 *
 * <pre>
 *   SIGNATURE ─ "PROXY " ─▶ V1_LINE ─ CRLF ─▶ DONE
 *       │      (107 bytes at most, CRLF included)
 *       └─ \r\n\r\n\0\r\nQUIT\n ─▶ V2_FIXED ─ 16 bytes: version, command, family, length ─▶ V2_BODY ─ length ─▶ DONE
 *   any other first bytes: PROXY_HEADER_MISSING
 * </pre>
 *
 * <p>What it accepts: version 1 {@code TCP4}, {@code TCP6} (addresses as literals, ports 0..65535 without leading
 * zeros, single spaces) and {@code UNKNOWN} (the rest of its line ignored, as the specification says); version 2
 * {@code PROXY} over {@code AF_INET}/{@code AF_INET6} {@code STREAM}, and {@code LOCAL}, {@code AF_UNSPEC} and
 * {@code AF_UNIX} as headers without a client (the connection's own addresses stay). Version 2 TLVs must tile the
 * rest of the header exactly; {@code PP2_TYPE_ALPN}, {@code PP2_TYPE_AUTHORITY} and the {@code PP2_TYPE_SSL} client
 * bit are kept, a {@code PP2_TYPE_CRC32C} is verified, {@code PP2_TYPE_UNIQUE_ID} is held to its 128 bytes, the rest
 * are skipped.
 */
final class ProxyHeaderParser {

    /** The phases of the diagram above. */
    enum State { SIGNATURE, V1_LINE, V2_FIXED, V2_BODY, DONE }

    static final byte[] V1_PREFIX = "PROXY ".getBytes(StandardCharsets.US_ASCII);
    static final byte[] V2_SIGNATURE = {0x0D, 0x0A, 0x0D, 0x0A, 0x00, 0x0D, 0x0A, 0x51, 0x55, 0x49, 0x54, 0x0A};
    /** A version 1 line, {@code "PROXY"} to CRLF included (proxy-protocol.txt 2.1). */
    static final int V1_MAX_BYTES = 107;
    private static final int V2_FIXED_BYTES = 16;
    private static final int TLV_ALPN = 0x01, TLV_AUTHORITY = 0x02, TLV_CRC32C = 0x03, TLV_UNIQUE_ID = 0x05,
            TLV_SSL = 0x20;
    private static final int UNIQUE_ID_MAX_BYTES = 128;

    private final int maxHeaderBytes;
    private State state = State.SIGNATURE;
    /** The header so far: 107 bytes for version 1 and the fixed part of version 2, then its whole length. */
    private byte[] header = new byte[V1_MAX_BYTES];
    private int held;
    /** Version 2: the header's whole length, known once its fixed part is in. */
    private int total;
    private ProxyInfo result;

    /** @param maxHeaderBytes the largest version 2 header taken ({@code ProxyProtocol.maxHeaderBytes}) */
    ProxyHeaderParser(int maxHeaderBytes) {
        this.maxHeaderBytes = maxHeaderBytes;
    }

    State state() {
        return state;
    }

    boolean done() {
        return state == State.DONE;
    }

    /** What the header said; once {@link #done()}. */
    ProxyInfo result() {
        return result;
    }

    /**
     * Takes bytes of {@code bytes[from, to)}, never beyond the header's end.
     *
     * @return how many were taken: all of them while the header is incomplete; once {@link #done()}, the bytes
     *         after that count are the connection's first bytes (TLS or HTTP)
     */
    int feed(byte[] bytes, int from, int to) throws ProxyHeaderException {
        int at = from;
        while (at < to && state != State.DONE) {
            switch (state) {
                case SIGNATURE -> at = signature(bytes, at, to);
                case V1_LINE -> at = v1Line(bytes, at, to);
                case V2_FIXED -> at = v2Fixed(bytes, at, to);
                case V2_BODY -> at = v2Body(bytes, at, to);
                default -> throw new AssertionError(state);
            }
        }
        return at - from;
    }

    /** The client ended its stream before the header was complete. */
    ProxyHeaderException ended() {
        return held == 0 && state == State.SIGNATURE
                ? new ProxyHeaderException(Refusal.PROXY_HEADER_MISSING, "connection ended before any byte")
                : new ProxyHeaderException(Refusal.PROXY_HEADER_TRUNCATED, "ended after " + held + " bytes in "
                        + state);
    }

    // ---------------------------------------------------------------- the first bytes

    private int signature(byte[] bytes, int at, int to) throws ProxyHeaderException {
        byte b = bytes[at];
        boolean v1 = header[0] == 'P' || held == 0 && b == 'P';
        byte[] expected = v1 ? V1_PREFIX : V2_SIGNATURE;
        if (b != expected[held]) {
            throw new ProxyHeaderException(Refusal.PROXY_HEADER_MISSING,
                    String.format("byte %d is 0x%02x: neither \"PROXY \" nor the version 2 signature", held, b & 0xFF));
        }
        header[held++] = b;
        if (held == expected.length) {
            state = v1 ? State.V1_LINE : State.V2_FIXED;
        }
        return at + 1;
    }

    // ---------------------------------------------------------------- version 1

    private int v1Line(byte[] bytes, int at, int to) throws ProxyHeaderException {
        while (at < to) {
            byte b = bytes[at++];
            if (held == V1_MAX_BYTES) {
                throw new ProxyHeaderException(Refusal.PROXY_HEADER_TOO_LONG, "version 1 line beyond "
                        + V1_MAX_BYTES + " bytes");
            }
            header[held++] = b;
            if (b == '\n') {
                if (header[held - 2] != '\r') {
                    throw v1("line ended by LF without CR");
                }
                result = v1Header(new String(header, 0, held - 2, StandardCharsets.ISO_8859_1));
                state = State.DONE;
                return at;
            }
        }
        return at;
    }

    /** The line without its CRLF, {@code "PROXY "} included. */
    private static ProxyInfo v1Header(String line) throws ProxyHeaderException {
        for (int i = 0; i < line.length(); i++) {
            char c = line.charAt(i);
            if (c < 0x20 || c > 0x7E) {
                throw v1(String.format("control or non-ASCII byte 0x%02x", (int) c));
            }
        }
        String[] fields = line.split(" ", -1);
        String protocol = fields[1];
        if (protocol.equals("UNKNOWN")) {
            return new ProxyInfo(1, true, null, null, null, null, false); // the rest is ignored (2.1)
        }
        boolean v4 = protocol.equals("TCP4");
        if (!v4 && !protocol.equals("TCP6")) {
            throw v1("unknown protocol \"" + protocol + "\"");
        }
        if (fields.length != 6) {
            throw v1("expected 6 single-space separated fields, found " + fields.length);
        }
        InetAddress source = v1Address(fields[2], v4);
        InetAddress destination = v1Address(fields[3], v4);
        return new ProxyInfo(1, false, new InetSocketAddress(source, v1Port(fields[4])),
                new InetSocketAddress(destination, v1Port(fields[5])), null, null, false);
    }

    private static InetAddress v1Address(String text, boolean v4) throws ProxyHeaderException {
        InetAddress address = v4 ? ipv4(text) : AddressRange.ipv6(text);
        if (address == null) {
            throw v1("not an " + (v4 ? "IPv4" : "IPv6") + " address: \"" + text + "\"");
        }
        return address;
    }

    private static int v1Port(String text) throws ProxyHeaderException {
        boolean digits = !text.isEmpty() && text.length() <= 5 && text.chars().allMatch(c -> c >= '0' && c <= '9');
        if (!digits || text.length() > 1 && text.charAt(0) == '0') {
            throw v1("not a port: \"" + text + "\"");
        }
        int port = Integer.parseInt(text);
        if (port > 65_535) {
            throw v1("port beyond 65535: " + port);
        }
        return port;
    }

    private static InetAddress ipv4(String text) {
        byte[] bytes = AddressRange.ipv4(text, 0, text.length());
        return bytes == null ? null : address(bytes);
    }

    private static ProxyHeaderException v1(String detail) {
        return new ProxyHeaderException(Refusal.PROXY_V1_MALFORMED, detail);
    }

    // ---------------------------------------------------------------- version 2

    private int v2Fixed(byte[] bytes, int at, int to) throws ProxyHeaderException {
        int n = Math.min(to - at, V2_FIXED_BYTES - held);
        System.arraycopy(bytes, at, header, held, n);
        held += n;
        if (held < V2_FIXED_BYTES) {
            return at + n;
        }
        int version = (header[12] & 0xF0) >> 4;
        int command = header[12] & 0x0F;
        if (version != 2) {
            throw v2("version " + version);
        }
        if (command > 1) {
            throw v2("command " + command);
        }
        int length = (header[14] & 0xFF) << 8 | header[15] & 0xFF;
        total = V2_FIXED_BYTES + length;
        if (total > maxHeaderBytes) {
            throw new ProxyHeaderException(Refusal.PROXY_HEADER_TOO_LONG, "version 2 header of " + total
                    + " bytes, beyond maxHeaderBytes " + maxHeaderBytes);
        }
        int family = (header[13] & 0xF0) >> 4;
        if (family > 3) {
            throw v2("address family " + family);
        }
        if (length < addressBytes(family)) {
            throw v2("length " + length + " shorter than the addresses of family " + family);
        }
        byte[] whole = new byte[total];
        System.arraycopy(header, 0, whole, 0, V2_FIXED_BYTES);
        header = whole;
        state = State.V2_BODY;
        if (held == total) { // no addresses, no TLVs: a LOCAL health check
            result = v2();
            state = State.DONE;
        }
        return at + n;
    }

    private int v2Body(byte[] bytes, int at, int to) throws ProxyHeaderException {
        int n = Math.min(to - at, total - held);
        System.arraycopy(bytes, at, header, held, n);
        held += n;
        if (held == total) {
            result = v2();
            state = State.DONE;
        }
        return at + n;
    }

    /** The address block's length for {@code family}: UNSPEC, INET (4+4+2+2), INET6 (16+16+2+2), UNIX (108+108). */
    private static int addressBytes(int family) {
        return switch (family) {
            case 1 -> 12;
            case 2 -> 36;
            case 3 -> 216;
            default -> 0;
        };
    }

    private ProxyInfo v2() throws ProxyHeaderException {
        boolean local = (header[12] & 0x0F) == 0;
        int family = (header[13] & 0xF0) >> 4;
        int transport = header[13] & 0x0F;
        if (transport == 2) {
            throw v2("a datagram transport on a stream connection");
        }
        if (transport > 2) {
            throw v2("transport " + transport);
        }
        if (!local && family != 0 && transport != 1) {
            throw v2("family " + family + " without the STREAM transport");
        }
        Tlvs tlvs = tlvs(V2_FIXED_BYTES + addressBytes(family));
        if (local || family == 0 || family == 3) {
            return new ProxyInfo(2, true, null, null, tlvs.alpn, tlvs.authority, tlvs.clientTls);
        }
        int size = family == 1 ? 4 : 16;
        int p = V2_FIXED_BYTES;
        InetAddress source = address(slice(p, size));
        InetAddress destination = address(slice(p + size, size));
        int sourcePort = port(p + 2 * size);
        int destinationPort = port(p + 2 * size + 2);
        return new ProxyInfo(2, false, new InetSocketAddress(source, sourcePort),
                new InetSocketAddress(destination, destinationPort), tlvs.alpn, tlvs.authority, tlvs.clientTls);
    }

    /** What the TLVs carried that the server keeps. */
    private static final class Tlvs {
        String alpn;
        String authority;
        boolean clientTls;
    }

    /** Walks the TLVs from {@code from} to the header's end: they must tile it exactly. */
    private Tlvs tlvs(int from) throws ProxyHeaderException {
        Tlvs tlvs = new Tlvs();
        int p = from;
        while (p < total) {
            if (total - p < 3) {
                throw v2("a TLV header cut by the end of the header at byte " + p);
            }
            int type = header[p] & 0xFF;
            int length = (header[p + 1] & 0xFF) << 8 | header[p + 2] & 0xFF;
            int value = p + 3;
            if (value + length > total) {
                throw v2(String.format("TLV 0x%02x of %d bytes runs past the header's end", type, length));
            }
            switch (type) {
                case TLV_ALPN -> tlvs.alpn = tlvs.alpn != null ? tlvs.alpn : ascii(value, length, "ALPN");
                case TLV_AUTHORITY -> tlvs.authority = tlvs.authority != null ? tlvs.authority : utf8(value, length);
                case TLV_CRC32C -> checkCrc(value, length);
                case TLV_UNIQUE_ID -> {
                    if (length > UNIQUE_ID_MAX_BYTES) {
                        throw v2("UNIQUE_ID of " + length + " bytes, beyond " + UNIQUE_ID_MAX_BYTES);
                    }
                }
                case TLV_SSL -> tlvs.clientTls = ssl(value, length);
                default -> {
                    // NOOP, NETNS, the SSL sub-types at the top level, custom and unknown types: skipped
                }
            }
            p = value + length;
        }
        return tlvs;
    }

    /** {@code PP2_TYPE_SSL}: client byte, verify (4), then sub-TLVs that must tile the value. */
    private boolean ssl(int value, int length) throws ProxyHeaderException {
        if (length < 5) {
            throw v2("SSL TLV of " + length + " bytes, shorter than its 5-byte head");
        }
        int end = value + length;
        for (int p = value + 5; p < end; ) {
            if (end - p < 3) {
                throw v2("an SSL sub-TLV header cut by the end of its TLV");
            }
            int sub = (header[p + 1] & 0xFF) << 8 | header[p + 2] & 0xFF;
            p += 3 + sub;
            if (p > end) {
                throw v2("an SSL sub-TLV runs past the end of its TLV");
            }
        }
        return (header[value] & 0x01) != 0; // PP2_CLIENT_SSL
    }

    private void checkCrc(int value, int length) throws ProxyHeaderException {
        if (length != 4) {
            throw v2("CRC32C TLV of " + length + " bytes, not 4");
        }
        long expected = (header[value] & 0xFFL) << 24 | (header[value + 1] & 0xFF) << 16
                | (header[value + 2] & 0xFF) << 8 | header[value + 3] & 0xFF;
        CRC32C crc = new CRC32C();
        crc.update(header, 0, value);
        crc.update(new byte[4]);
        crc.update(header, value + 4, total - value - 4);
        if (crc.getValue() != expected) {
            throw v2(String.format("CRC32C mismatch: header says %08x, bytes give %08x", expected, crc.getValue()));
        }
    }

    private String ascii(int from, int length, String what) throws ProxyHeaderException {
        for (int i = from; i < from + length; i++) {
            if (header[i] < 0x21 || header[i] > 0x7E) {
                throw v2(what + " TLV with a byte outside visible ASCII");
            }
        }
        return new String(header, from, length, StandardCharsets.US_ASCII);
    }

    private String utf8(int from, int length) throws ProxyHeaderException {
        try {
            return StandardCharsets.UTF_8.newDecoder().onMalformedInput(CodingErrorAction.REPORT)
                    .onUnmappableCharacter(CodingErrorAction.REPORT)
                    .decode(ByteBuffer.wrap(header, from, length)).toString();
        } catch (CharacterCodingException e) {
            throw v2("AUTHORITY TLV is not UTF-8");
        }
    }

    private byte[] slice(int from, int length) {
        byte[] bytes = new byte[length];
        System.arraycopy(header, from, bytes, 0, length);
        return bytes;
    }

    private int port(int at) {
        return (header[at] & 0xFF) << 8 | header[at + 1] & 0xFF;
    }

    private static ProxyHeaderException v2(String detail) {
        return new ProxyHeaderException(Refusal.PROXY_V2_MALFORMED, detail);
    }

    /** An address from its 4 or 16 bytes: no lookup. */
    private static InetAddress address(byte[] bytes) {
        try {
            return InetAddress.getByAddress(bytes);
        } catch (UnknownHostException e) {
            throw new AssertionError("4 or 16 bytes: " + bytes.length, e);
        }
    }

    /** A PROXY header refused: the rule and what was wrong, for the event. No stack trace (the client's fault). */
    static final class ProxyHeaderException extends Exception {
        private final Refusal rule;

        ProxyHeaderException(Refusal rule, String detail) {
            super(detail, null, false, false);
            this.rule = rule;
        }

        Refusal rule() {
            return rule;
        }
    }
}
