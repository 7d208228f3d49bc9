package dev.fleche.transport.internal.hpack;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;

/** STAND-IN until the hpack branch is merged: every field a literal without indexing, no Huffman. */
public final class HpackEncoder {
    public HpackEncoder(int maxTableSize) {
    }

    public void peerTableSize(int size) {
    }

    public boolean encode(String name, String value, ByteBuffer out) {
        byte[] n = name.getBytes(StandardCharsets.ISO_8859_1);
        byte[] v = value.getBytes(StandardCharsets.ISO_8859_1);
        int at = out.position();
        try {
            out.put((byte) 0);
            integer(out, n.length, 7, 0);
            out.put(n);
            integer(out, v.length, 7, 0);
            out.put(v);
            return true;
        } catch (java.nio.BufferOverflowException e) {
            out.position(at);
            return false;
        }
    }

    public boolean encodeStatus(int status, ByteBuffer out) {
        return encode(":status", Integer.toString(status), out);
    }

    private static void integer(ByteBuffer out, int value, int prefix, int bits) {
        int max = (1 << prefix) - 1;
        if (value < max) {
            out.put((byte) (bits | value));
            return;
        }
        out.put((byte) (bits | max));
        value -= max;
        while (value >= 0x80) {
            out.put((byte) (value & 0x7F | 0x80));
            value >>>= 7;
        }
        out.put((byte) value);
    }
}
