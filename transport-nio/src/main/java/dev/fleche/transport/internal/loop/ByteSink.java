package dev.fleche.transport.internal.loop;

import java.nio.ByteBuffer;
import java.util.Arrays;

/**
 * A growable byte array used to encode response bytes without intermediate Strings. Reused: a reactor keeps one
 * for encoding on its thread; off-reactor writers use their own.
 */
public final class ByteSink {
    private byte[] bytes;
    private int size;

    public ByteSink(int capacity) {
        bytes = new byte[capacity];
    }

    public void put(byte b) {
        ensure(1);
        bytes[size++] = b;
    }

    public void put(byte[] src) {
        put(src, 0, src.length);
    }

    public void put(byte[] src, int offset, int length) {
        ensure(length);
        System.arraycopy(src, offset, bytes, size, length);
        size += length;
    }

    /** Appends the remaining bytes of {@code src}, without moving its position. */
    public void put(ByteBuffer src) {
        int length = src.remaining();
        ensure(length);
        src.get(src.position(), bytes, size, length);
        size += length;
    }

    /** Appends {@code text}, which must be ASCII. */
    public void putAscii(String text) {
        int n = text.length();
        ensure(n);
        for (int i = 0; i < n; i++) {
            bytes[size++] = (byte) text.charAt(i);
        }
    }

    public void putDecimal(long value) {
        if (value == 0) {
            put((byte) '0');
            return;
        }
        ensure(20);
        int start = size;
        for (long v = value; v > 0; v /= 10) {
            bytes[size++] = (byte) ('0' + (v % 10));
        }
        for (int i = start, j = size - 1; i < j; i++, j--) {
            byte t = bytes[i];
            bytes[i] = bytes[j];
            bytes[j] = t;
        }
    }

    /** Appends {@code value} (>= 0) in lower-case hex without building a String (one per response chunk). */
    public void putHex(long value) {
        int digits = Math.max(1, (67 - Long.numberOfLeadingZeros(value)) / 4);
        ensure(digits);
        for (int shift = (digits - 1) * 4; shift >= 0; shift -= 4) {
            bytes[size++] = (byte) Character.forDigit((int) ((value >>> shift) & 0xF), 16);
        }
    }

    public int size() {
        return size;
    }

    public byte[] array() {
        return bytes;
    }

    public void clear() {
        size = 0;
    }

    /** Drops every byte after the first {@code length}. */
    public void truncate(int length) {
        if (length < 0 || length > size) {
            throw new IndexOutOfBoundsException("truncate to " + length + " of " + size);
        }
        size = length;
    }

    /** A copy of the content, exactly sized. */
    public byte[] toByteArray() {
        return Arrays.copyOf(bytes, size);
    }

    private void ensure(int extra) {
        if (size + extra > bytes.length) {
            bytes = Arrays.copyOf(bytes, Math.max(bytes.length * 2, size + extra));
        }
    }
}
