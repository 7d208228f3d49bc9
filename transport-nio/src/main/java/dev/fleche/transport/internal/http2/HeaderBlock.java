package dev.fleche.transport.internal.http2;

import dev.fleche.transport.internal.rules.Refusal;
import dev.fleche.transport.internal.http2.Http2Exception;

import java.nio.ByteBuffer;
import java.util.Arrays;

/**
 * The header block an HTTP/2 connection is receiving: a HEADERS frame's fragment and the CONTINUATION frames after
 * it, copied (the fragments come in several reads), and bounded before any HPACK decoding against the CONTINUATION
 * flood (2024): at most {@code maxContinuations} CONTINUATION frames and {@code maxBytes} of encoded block; a bound
 * crossed is a connection error {@code ENHANCE_YOUR_CALM} that the owner answers. It knows the block's stream and
 * whether the HEADERS ended the stream, and decides nothing else (the frame reader checks that CONTINUATIONs follow
 * on the same stream; the owner decodes the block and acts on it). Reactor thread only.
 */
final class HeaderBlock {
    private static final int INITIAL_BYTES = 1024;
    /** A buffer grown beyond this is not kept for the connection's life once its block is decoded. */
    private static final int KEPT_BYTES = 16 * 1024;

    private final int maxBytes;
    private final int maxContinuations;
    private byte[] bytes = new byte[INITIAL_BYTES];
    private int length;
    private int stream;
    private boolean endStream;
    private int continuations;

    HeaderBlock(int maxBytes, int maxContinuations) {
        this.maxBytes = maxBytes;
        this.maxContinuations = maxContinuations;
    }

    /** A HEADERS frame on {@code stream} begins a block with {@code fragment}. */
    void begin(int stream, boolean endStream, ByteBuffer fragment) throws Http2Exception {
        this.stream = stream;
        this.endStream = endStream;
        length = 0;
        continuations = 0;
        append(fragment);
    }

    /** A CONTINUATION frame adds {@code fragment}. */
    void continuation(ByteBuffer fragment) throws Http2Exception {
        if (++continuations > maxContinuations) {
            throw Http2Exception.calm(Refusal.HTTP2_CONTINUATIONS.name(),
                    "more than " + maxContinuations + " CONTINUATION frames in a header block");
        }
        append(fragment);
    }

    private void append(ByteBuffer fragment) throws Http2Exception {
        int n = fragment.remaining();
        if (length + n > maxBytes) {
            throw Http2Exception.calm(Refusal.HTTP2_HEADER_BLOCK.name(), "header block larger than " + maxBytes + " bytes");
        }
        if (length + n > bytes.length) {
            bytes = Arrays.copyOf(bytes, Math.max(bytes.length * 2, length + n));
        }
        fragment.get(bytes, length, n);
        length += n;
    }

    /** The stream the block is on. */
    int stream() {
        return stream;
    }

    /** Whether its HEADERS frame ended the stream (END_STREAM). */
    boolean endStream() {
        return endStream;
    }

    /** The whole encoded block, for the HPACK decoder; valid until {@link #decoded()}. */
    ByteBuffer encoded() {
        return ByteBuffer.wrap(bytes, 0, length);
    }

    /** The block was decoded: a large buffer is let go. */
    void decoded() {
        if (bytes.length > KEPT_BYTES) {
            bytes = new byte[INITIAL_BYTES];
        }
    }
}
