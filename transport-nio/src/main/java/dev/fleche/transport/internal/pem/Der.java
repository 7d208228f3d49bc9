package dev.fleche.transport.internal.pem;

import java.io.ByteArrayOutputStream;
import java.util.Arrays;

/**
 * Just enough DER (X.690) for the private key formats: read a tag-length-value, write one. Every read is bounded
 * by the enclosing value; a length beyond it, an indefinite length or one over four bytes is an error.
 */
final class Der {
    static final int INTEGER = 0x02, BIT_STRING = 0x03, OCTET_STRING = 0x04, NULL = 0x05, OID = 0x06,
            SEQUENCE = 0x30, CONTEXT_0 = 0xA0, CONTEXT_1 = 0xA1;

    /** One value read: its tag and its content {@code bytes[from, to)}; {@code next} is where the following starts. */
    record Tlv(int tag, byte[] bytes, int from, int to, int next) {
        byte[] content() {
            return Arrays.copyOfRange(bytes, from, to);
        }

        /** The first value inside this one (a constructed value). */
        Tlv first() throws PemException {
            return read(bytes, from, to);
        }
    }

    private Der() {
    }

    /** The value at {@code at}, inside {@code [at, end)}. */
    static Tlv read(byte[] bytes, int at, int end) throws PemException {
        if (end - at < 2) {
            throw new PemException("DER value cut short");
        }
        int tag = bytes[at] & 0xFF;
        int first = bytes[at + 1] & 0xFF;
        int p = at + 2;
        int length;
        if (first < 0x80) {
            length = first;
        } else {
            int n = first & 0x7F;
            if (n == 0 || n > 4 || end - p < n) {
                throw new PemException("DER length not supported");
            }
            length = 0;
            for (int i = 0; i < n; i++) {
                length = length << 8 | bytes[p++] & 0xFF;
            }
            if (length < 0) {
                throw new PemException("DER length not supported");
            }
        }
        if (length > end - p) {
            throw new PemException("DER value runs past its end");
        }
        return new Tlv(tag, bytes, p, p + length, p + length);
    }

    /** The value at {@code at} inside {@code outer}, which must carry {@code tag}. */
    static Tlv expect(int tag, byte[] bytes, int at, int end, String what) throws PemException {
        Tlv tlv = read(bytes, at, end);
        if (tlv.tag() != tag) {
            throw new PemException(String.format("%s: expected DER tag 0x%02x, found 0x%02x", what, tag, tlv.tag()));
        }
        return tlv;
    }

    /** {@code tag}, the length of {@code parts} together, then the parts. */
    static byte[] write(int tag, byte[]... parts) {
        int length = 0;
        for (byte[] part : parts) {
            length += part.length;
        }
        ByteArrayOutputStream out = new ByteArrayOutputStream(length + 6);
        out.write(tag);
        if (length < 0x80) {
            out.write(length);
        } else {
            int n = length > 0xFFFFFF ? 4 : length > 0xFFFF ? 3 : length > 0xFF ? 2 : 1;
            out.write(0x80 | n);
            for (int i = n - 1; i >= 0; i--) {
                out.write(length >>> (8 * i));
            }
        }
        for (byte[] part : parts) {
            out.writeBytes(part);
        }
        return out.toByteArray();
    }

    /** An OID's content in its dotted form, for messages. */
    static String dotted(byte[] content) {
        if (content.length == 0) {
            return "(empty OID)";
        }
        StringBuilder text = new StringBuilder();
        int first = content[0] & 0xFF;
        text.append(Math.min(first / 40, 2)).append('.').append(first - 40 * Math.min(first / 40, 2));
        long value = 0;
        for (int i = 1; i < content.length; i++) {
            value = value << 7 | content[i] & 0x7F;
            if ((content[i] & 0x80) == 0) {
                text.append('.').append(value);
                value = 0;
            }
        }
        return text.toString();
    }
}
