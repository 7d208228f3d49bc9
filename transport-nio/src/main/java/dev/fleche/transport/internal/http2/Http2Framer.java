package dev.fleche.transport.internal.http2;

import dev.fleche.transport.internal.exchange.HttpDate;
import dev.fleche.transport.internal.loop.WriteQueue;

import dev.fleche.transport.internal.exchange.Ascii;
import dev.fleche.transport.HttpFields;
import dev.fleche.transport.internal.http2.hpack.HpackEncoder;
import dev.fleche.transport.internal.http2.FrameWriter;
import dev.fleche.transport.internal.http2.Frames;

import java.nio.ByteBuffer;
import java.util.Arrays;
import java.util.Locale;
import java.util.function.Consumer;

/**
 * The outbound part of an {@link Http2Connection}: encodes response heads with HPACK (its own encoder, whose table
 * the client's decoder mirrors, so blocks go out in the order they are encoded) and frames them as HEADERS and
 * CONTINUATIONs of the client's frame size, DATA frames and control frames, into the connection's {@link WriteQueue}
 * (staging, then the write queue). Decides nothing about streams or windows: the connection says what to send.
 * Reactor thread only.
 */
final class Http2Framer {
    private final WriteQueue out;
    /** Where the {@code date} value comes from (the reactor's, cached per second). */
    private final HttpDate dates;
    private final HpackEncoder encoder = new HpackEncoder(4096);
    private ByteBuffer scratch = ByteBuffer.allocate(1024);
    /** The client's SETTINGS_MAX_FRAME_SIZE. */
    private int peerMaxFrame = Frames.MIN_MAX_FRAME_SIZE;

    Http2Framer(WriteQueue out, HttpDate dates) {
        this.out = out;
        this.dates = dates;
    }

    int peerMaxFrame() {
        return peerMaxFrame;
    }

    void peerMaxFrame(int value) {
        peerMaxFrame = value;
    }

    /** The client's SETTINGS_HEADER_TABLE_SIZE (between blocks). */
    void peerTableSize(int value) {
        encoder.peerTableSize(value);
    }

    /** Bytes to send as they are, before anything else framed later (an upgrade's {@code 101}). */
    void raw(byte[] bytes) {
        out.raw(bytes, 0, bytes.length);
    }

    /** A control frame of {@code size} bytes that {@code writer} encodes. */
    void control(int size, Consumer<ByteBuffer> writer) {
        ByteBuffer frame = ByteBuffer.allocate(size);
        writer.accept(frame);
        out.raw(frame.array(), 0, frame.position());
    }

    /** RFC 9113 8.2.1 and 9110 5.5: field names are tokens, values carry no CR, LF or NUL. */
    static void checkFields(HttpFields fields) {
        for (int i = 0, n = fields.size(); i < n; i++) {
            String name = fields.name(i);
            if (name.isEmpty()) {
                throw new IllegalArgumentException("empty response header name");
            }
            for (int c = 0; c < name.length(); c++) {
                char ch = name.charAt(c);
                if (ch > 127 || !Ascii.isTokenChar(ch)) {
                    throw new IllegalArgumentException("invalid character in response header name: " + name);
                }
            }
            String value = fields.value(i);
            for (int c = 0; c < value.length(); c++) {
                char ch = value.charAt(c);
                if (ch == '\r' || ch == '\n' || ch == 0 || ch > 0xFF) {
                    throw new IllegalArgumentException("invalid character in response header value");
                }
            }
        }
    }

    /** Encodes a header block (HPACK) and frames it as HEADERS and as many CONTINUATIONs as the peer's frame size needs. */
    void headers(int stream, int status, HttpFields fields, long contentLength, boolean endStream) {
        ByteBuffer block = scratch;
        block.clear();
        while (!encoder.encodeStatus(status, block)) {
            block = growScratch(block);
        }
        boolean hasDate = false;
        for (int i = 0, n = fields.size(); i < n; i++) {
            String name = fields.name(i).toLowerCase(Locale.ROOT);
            if (isConnectionSpecific(name) || name.equals("content-length")) {
                continue; // HTTP/2 frames the message itself (RFC 9113 8.2.2)
            }
            hasDate |= name.equals("date");
            while (!encoder.encode(name, fields.value(i), block)) {
                block = growScratch(block);
            }
        }
        if (!hasDate && status >= 200) {
            while (!encoder.encode("date", dates.value(), block)) {
                block = growScratch(block);
            }
        }
        if (contentLength >= 0) {
            while (!encoder.encode("content-length", Long.toString(contentLength), block)) {
                block = growScratch(block);
            }
        }
        scratch = block.capacity() > 64 * 1024 ? ByteBuffer.allocate(1024) : block;
        frameHeaderBlock(stream, block.array(), block.position(), endStream);
    }

    private ByteBuffer growScratch(ByteBuffer out) {
        if (out.capacity() >= 16 * 1024 * 1024) {
            throw new IllegalArgumentException("response header block beyond 16 MiB");
        }
        ByteBuffer bigger = ByteBuffer.allocate(out.capacity() * 2);
        out.flip();
        bigger.put(out);
        return bigger;
    }

    private static boolean isConnectionSpecific(String name) {
        return switch (name) {
            case "connection", "keep-alive", "proxy-connection", "transfer-encoding", "upgrade" -> true;
            default -> false;
        };
    }

    private void frameHeaderBlock(int stream, byte[] bytes, int length, boolean endStream) {
        int at = 0;
        boolean first = true;
        do {
            int n = Math.min(length - at, peerMaxFrame);
            boolean last = at + n == length;
            int type = first ? Frames.HEADERS : Frames.CONTINUATION;
            int flags = (last ? Frames.FLAG_END_HEADERS : 0) | (first && endStream ? Frames.FLAG_END_STREAM : 0);
            ByteBuffer header = ByteBuffer.allocate(Frames.HEADER_BYTES);
            FrameWriter.header(header, n, type, flags, stream);
            out.raw(header.array(), 0, Frames.HEADER_BYTES);
            out.raw(Arrays.copyOfRange(bytes, at, at + n), 0, n);
            at += n;
            first = false;
        } while (at < length);
    }

    /**
     * A DATA frame of the next {@code length} bytes of {@code part} (its position does not move), which must not change
     * until written: from its array, or, for a direct buffer, from where the bytes are.
     */
    void data(int stream, ByteBuffer part, int length, boolean end) {
        if (part.hasArray()) {
            data(stream, part.array(), part.arrayOffset() + part.position(), length, end);
            return;
        }
        ByteBuffer header = ByteBuffer.allocate(Frames.HEADER_BYTES);
        FrameWriter.header(header, length, Frames.DATA, end ? Frames.FLAG_END_STREAM : 0, stream);
        out.raw(header.array(), 0, Frames.HEADER_BYTES);
        out.raw(part.slice(part.position(), length));
    }

    /** A DATA frame of {@code bytes[offset, offset+length)}, which must not change until written (large ones are queued as they are). */
    void data(int stream, byte[] bytes, int offset, int length, boolean end) {
        ByteBuffer header = ByteBuffer.allocate(Frames.HEADER_BYTES);
        FrameWriter.header(header, length, Frames.DATA, end ? Frames.FLAG_END_STREAM : 0, stream);
        out.raw(header.array(), 0, Frames.HEADER_BYTES);
        if (length > 0) {
            out.raw(bytes, offset, length);
        }
    }
}
