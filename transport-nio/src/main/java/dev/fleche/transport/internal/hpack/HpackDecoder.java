package dev.fleche.transport.internal.hpack;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;

/** STAND-IN until the hpack branch is merged: literals without indexing and static indexes only, no Huffman. */
public final class HpackDecoder {
    private static final String[][] STATIC = {{":authority", ""}, {":method", "GET"}, {":method", "POST"},
            {":path", "/"}, {":path", "/index.html"}, {":scheme", "http"}, {":scheme", "https"}, {":status", "200"}};
    private final int maxHeaderListSize;

    public HpackDecoder(int maxTableSize, int maxHeaderListSize) {
        this.maxHeaderListSize = maxHeaderListSize;
    }

    @FunctionalInterface
    public interface FieldSink {
        void field(String name, String value);
    }

    public void decode(ByteBuffer block, FieldSink sink) throws HpackException {
        long size = 0;
        boolean tooLarge = false;
        while (block.hasRemaining()) {
            int b = block.get(block.position()) & 0xFF;
            String name;
            String value;
            if ((b & 0x80) != 0) {
                int index = integer(block, 7);
                if (index < 1 || index > STATIC.length) {
                    throw new HpackException(HpackException.Kind.COMPRESSION_ERROR, "index " + index);
                }
                name = STATIC[index - 1][0];
                value = STATIC[index - 1][1];
            } else if ((b & 0xF0) == 0 || (b & 0xF0) == 0x10) {
                int index = integer(block, 4);
                name = index == 0 ? string(block) : STATIC[index - 1][0];
                value = string(block);
            } else {
                throw new HpackException(HpackException.Kind.COMPRESSION_ERROR, "unsupported representation");
            }
            size += name.length() + value.length() + 32;
            if (size > maxHeaderListSize) {
                tooLarge = true;
            } else {
                sink.field(name, value);
            }
        }
        if (tooLarge) {
            throw new HpackException(HpackException.Kind.HEADER_LIST_TOO_LARGE, "header list too large");
        }
    }

    private static int integer(ByteBuffer in, int prefix) throws HpackException {
        int max = (1 << prefix) - 1;
        int value = in.get() & max;
        if (value < max) {
            return value;
        }
        int shift = 0;
        while (true) {
            if (!in.hasRemaining() || shift > 21) {
                throw new HpackException(HpackException.Kind.COMPRESSION_ERROR, "bad integer");
            }
            int b = in.get() & 0xFF;
            value += (b & 0x7F) << shift;
            shift += 7;
            if ((b & 0x80) == 0) {
                return value;
            }
        }
    }

    private static String string(ByteBuffer in) throws HpackException {
        if (!in.hasRemaining()) {
            throw new HpackException(HpackException.Kind.COMPRESSION_ERROR, "truncated");
        }
        if ((in.get(in.position()) & 0x80) != 0) {
            throw new HpackException(HpackException.Kind.COMPRESSION_ERROR, "huffman not in the stand-in");
        }
        int length = integer(in, 7);
        if (length > in.remaining()) {
            throw new HpackException(HpackException.Kind.COMPRESSION_ERROR, "truncated");
        }
        byte[] bytes = new byte[length];
        in.get(bytes);
        return new String(bytes, StandardCharsets.ISO_8859_1);
    }
}
