package dev.fleche.conformance.h2;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/** Small byte helpers for building frames by hand. */
final class Octets {
    /** The 8 opaque octets the suite's PINGs carry. */
    static final byte[] PING_DATA = ascii("confrmnc");

    private Octets() {
    }

    static byte[] ascii(String s) {
        return s.getBytes(StandardCharsets.US_ASCII);
    }

    /** {@code n} octets of {@code 'x'}. */
    static byte[] filler(int n) {
        byte[] octets = new byte[n];
        Arrays.fill(octets, (byte) 'x');
        return octets;
    }

    /** The octets given as ints (0-255). */
    static byte[] of(int... values) {
        byte[] octets = new byte[values.length];
        for (int i = 0; i < values.length; i++) {
            octets[i] = (byte) values[i];
        }
        return octets;
    }

    /** Octets from a string of 0s and 1s whose length is a multiple of 8. */
    static byte[] bits(String bits) {
        if (bits.length() % 8 != 0) {
            throw new IllegalArgumentException(bits.length() + " bits are not whole octets");
        }
        byte[] octets = new byte[bits.length() / 8];
        for (int i = 0; i < octets.length; i++) {
            octets[i] = (byte) Integer.parseInt(bits.substring(8 * i, 8 * i + 8), 2);
        }
        return octets;
    }
}
