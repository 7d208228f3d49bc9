package dev.fleche.transport.internal.channel;

import java.net.Inet4Address;
import java.net.InetAddress;
import java.net.UnknownHostException;

/**
 * An IPv4 or IPv6 address range in CIDR notation ({@code 10.0.0.0/8}, {@code 2001:db8::/32}; a bare address is
 * the range of that one address). Parsed from literals only: a host name is refused, never looked up. An IPv4
 * range matches IPv4 addresses, an IPv6 range IPv6 ones (the JDK reports an IPv4-mapped IPv6 peer as IPv4).
 */
public final class AddressRange {
    private final byte[] network;
    private final int prefix;
    private final String text;

    private AddressRange(byte[] network, int prefix, String text) {
        this.network = network;
        this.prefix = prefix;
        this.text = text;
    }

    /**
     * Parses {@code cidr}.
     *
     * @throws IllegalArgumentException naming what is wrong: not an address literal, a prefix out of range, host
     *                                  bits set below the prefix
     */
    public static AddressRange parse(String cidr) {
        String value = cidr.trim();
        int slash = value.indexOf('/');
        String literal = slash < 0 ? value : value.substring(0, slash);
        byte[] address = literal(literal);
        if (address == null) {
            throw new IllegalArgumentException("not an IP address literal: \"" + cidr + "\"");
        }
        int bits = address.length * 8;
        int prefix = bits;
        if (slash >= 0) {
            String digits = value.substring(slash + 1);
            if (digits.isEmpty() || digits.length() > 3 || !digits.chars().allMatch(c -> c >= '0' && c <= '9')) {
                throw new IllegalArgumentException("bad prefix length in \"" + cidr + "\"");
            }
            prefix = Integer.parseInt(digits);
            if (prefix > bits) {
                throw new IllegalArgumentException("prefix length " + prefix + " beyond " + bits + " bits in \""
                        + cidr + "\"");
            }
        }
        for (int bit = prefix; bit < bits; bit++) {
            if ((address[bit / 8] & (0x80 >>> (bit % 8))) != 0) {
                throw new IllegalArgumentException("host bits set below the prefix in \"" + cidr + "\"");
            }
        }
        return new AddressRange(address, prefix, literal + "/" + prefix);
    }

    /** Whether {@code address} is in this range. */
    public boolean contains(InetAddress address) {
        byte[] bytes = address.getAddress();
        if (bytes.length != network.length) {
            return false;
        }
        int full = prefix / 8;
        for (int i = 0; i < full; i++) {
            if (bytes[i] != network[i]) {
                return false;
            }
        }
        int rest = prefix % 8;
        if (rest == 0) {
            return true;
        }
        int mask = 0xFF << (8 - rest) & 0xFF;
        return (bytes[full] & mask) == (network[full] & mask);
    }

    /** The range as {@code address/prefix}. */
    @Override
    public String toString() {
        return text;
    }

    /** The bytes of an IPv4 dotted quad or an IPv6 literal (not an IPv4-mapped one), or null when neither. */
    public static byte[] literal(String text) {
        if (text.indexOf(':') >= 0) {
            InetAddress parsed = ipv6(text);
            return parsed == null || parsed instanceof Inet4Address ? null : parsed.getAddress();
        }
        return ipv4(text, 0, text.length());
    }

    /**
     * An IPv6 literal ({@code 2001:db8::1}; an IPv4-mapped {@code ::ffff:192.0.2.1} comes back as the IPv4
     * address, as the JDK reports such peers), or null: no zone id, no brackets, never a lookup.
     */
    public static InetAddress ipv6(String text) {
        if (text.indexOf(':') < 0 || text.charAt(0) == '.') {
            return null; // the JDK looks up what does not start like a literal
        }
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            boolean hex = c >= '0' && c <= '9' || c >= 'a' && c <= 'f' || c >= 'A' && c <= 'F';
            if (!hex && c != ':' && c != '.') {
                return null;
            }
        }
        try {
            return InetAddress.getByName(text); // a string with ':' is only parsed as an IPv6 literal
        } catch (UnknownHostException e) {
            return null;
        }
    }

    /**
     * The four bytes of a dotted quad in {@code text[from, to)}: four decimal numbers 0..255 without leading zeros
     * (a leading zero means octal to some parsers), or null.
     */
    public static byte[] ipv4(CharSequence text, int from, int to) {
        byte[] bytes = new byte[4];
        int part = 0;
        int i = from;
        while (part < 4) {
            int start = i;
            int value = 0;
            while (i < to && i - start < 3 && text.charAt(i) >= '0' && text.charAt(i) <= '9') {
                value = value * 10 + (text.charAt(i) - '0');
                i++;
            }
            int digits = i - start;
            if (digits == 0 || value > 255 || digits > 1 && text.charAt(start) == '0') {
                return null;
            }
            bytes[part++] = (byte) value;
            if (part < 4) {
                if (i >= to || text.charAt(i) != '.') {
                    return null;
                }
                i++;
            }
        }
        return i == to ? bytes : null;
    }
}
