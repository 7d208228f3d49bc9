package dev.fleche.transport.internal.http2;

import com.code_intelligence.jazzer.junit.FuzzTest;
import dev.fleche.transport.internal.http2.hpack.HpackDecoder;
import dev.fleche.transport.internal.http2.hpack.HpackException;

import java.nio.ByteBuffer;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

/**
 * Fuzzes the HTTP/2 frame decoder and, behind it, HPACK and the request checks, as the connection uses them: the
 * input is fed in pieces (its first byte says how large), every header block is decoded into {@link RequestFields}.
 * On every input: nothing but {@link Http2Exception} escapes (an {@link HpackException} becomes COMPRESSION_ERROR); a frame is
 * taken whole or not at all (the buffer's position moves by 9 + its length, or not at all); a payload handed over
 * lies within the frame; no frame over the reader's maximum is taken.
 */
class FrameReaderFuzzTest {
    private static final int MAX_FRAME = 16_384;

    @FuzzTest(maxDuration = "30s")
    void framesInPieces(byte[] raw) {
        if (raw.length == 0) {
            return;
        }
        int piece = 1 + (raw[0] & 0xFF);
        FrameReader reader = new FrameReader(MAX_FRAME);
        HpackDecoder decoder = new HpackDecoder(4096, 16_384);
        Checker checker = new Checker(decoder);
        ByteBuffer buffer = ByteBuffer.allocate(raw.length);
        try {
            for (int at = 1; at < raw.length; at += piece) {
                buffer.put(raw, at, Math.min(piece, raw.length - at));
                buffer.flip();
                while (true) {
                    int before = buffer.position();
                    int length = buffer.remaining() >= 9 ? (buffer.get(before) & 0xFF) << 16
                            | (buffer.get(before + 1) & 0xFF) << 8 | buffer.get(before + 2) & 0xFF : -1;
                    boolean took = reader.read(buffer, checker);
                    if (!took) {
                        assertEquals(before, buffer.position(), "a frame taken in part");
                        break;
                    }
                    assertTrue(length >= 0 && length <= MAX_FRAME, "a frame of " + length + " bytes taken");
                    assertEquals(before + 9 + length, buffer.position(), "a frame taken at its length");
                }
                buffer.compact();
            }
        } catch (Http2Exception e) {
            assertTrue(e.getMessage() != null && !e.getMessage().isEmpty(), "a refusal without a message");
        }
    }

    /** Decodes every header block (HEADERS and CONTINUATIONs gathered) and checks it as a request. */
    private static final class Checker implements FrameReader.Listener {
        private final HpackDecoder decoder;
        private final ByteBuffer block = ByteBuffer.allocate(1 << 20);
        private int stream;

        Checker(HpackDecoder decoder) {
            this.decoder = decoder;
        }

        private static void within(ByteBuffer payload) {
            if (payload.remaining() > MAX_FRAME) {
                fail("a payload of " + payload.remaining() + " bytes");
            }
        }

        private void fragment(int id, ByteBuffer fragment, boolean end) throws Http2Exception {
            within(fragment);
            stream = id;
            if (block.remaining() < fragment.remaining()) {
                throw Http2Exception.connection(Http2Error.ENHANCE_YOUR_CALM, "block too large");
            }
            block.put(fragment);
            if (end) {
                block.flip();
                RequestFields fields = new RequestFields(false);
                try {
                    decoder.decode(block, fields);
                } catch (HpackException e) {
                    throw Http2Exception.connection(Http2Error.COMPRESSION_ERROR, e.getMessage());
                }
                block.clear();
                fields.check(stream);
            }
        }

        @Override public void data(int id, ByteBuffer payload, int flowLength, boolean endStream) {
            within(payload);
            assertTrue(payload.remaining() <= flowLength, "data longer than its frame");
        }
        @Override public void headers(int id, ByteBuffer fragment, boolean endStream, boolean endHeaders)
                throws Http2Exception {
            block.clear();
            fragment(id, fragment, endHeaders);
        }
        @Override public void continuation(int id, ByteBuffer fragment, boolean endHeaders) throws Http2Exception {
            assertEquals(stream, id, "a CONTINUATION of another stream accepted");
            fragment(id, fragment, endHeaders);
        }
        @Override public void rstStream(int id, int errorCode) { }
        @Override public void setting(int identifier, long value) { }
        @Override public void settingsEnd() { }
        @Override public void settingsAck() { }
        @Override public void ping(long opaque, boolean ack) { }
        @Override public void goAway(int lastStream, int errorCode) { }
        @Override public void windowUpdate(int id, int increment) {
            assertTrue(increment > 0, "a zero increment accepted");
        }
    }
}
