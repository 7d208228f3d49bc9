package dev.fleche.transport.internal.http2;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.fleche.transport.internal.http2.Http2Error;
import dev.fleche.transport.internal.http2.Http2Exception;

import java.nio.ByteBuffer;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** {@link HeaderBlock}: fragments joined in order, and both flood bounds before any decoding. */
@Timeout(value = 10, unit = TimeUnit.SECONDS)
class HeaderBlockTest {
    private static ByteBuffer bytes(int... values) {
        ByteBuffer b = ByteBuffer.allocate(values.length);
        for (int v : values) {
            b.put((byte) v);
        }
        return b.flip();
    }

    @Test
    void fragmentsAreJoinedInOrderAndABlockStartsAfresh() throws Exception {
        HeaderBlock block = new HeaderBlock(64, 2);
        block.begin(3, true, bytes(1, 2));
        block.continuation(bytes(3));
        block.continuation(bytes(4, 5));
        assertEquals(ByteBuffer.wrap(new byte[] {1, 2, 3, 4, 5}), block.encoded());
        assertEquals(3, block.stream());
        assertTrue(block.endStream());
        block.decoded();
        block.begin(5, false, bytes(9));
        assertEquals(ByteBuffer.wrap(new byte[] {9}), block.encoded());
        assertEquals(5, block.stream());
        assertFalse(block.endStream());
    }

    @Test
    void tooManyContinuationsOrBytesAreEnhanceYourCalm() throws Exception {
        HeaderBlock block = new HeaderBlock(4, 1);
        block.begin(1, false, bytes(1));
        block.continuation(bytes(2));
        Http2Exception frames = assertThrows(Http2Exception.class, () -> block.continuation(bytes(3)));
        assertEquals(Http2Error.ENHANCE_YOUR_CALM, frames.error());
        assertTrue(frames.isConnectionError());
        assertEquals("more than 1 CONTINUATION frames in a header block", frames.getMessage());
        block.begin(1, false, bytes(1, 2, 3, 4));
        Http2Exception size = assertThrows(Http2Exception.class, () -> block.continuation(bytes(5)));
        assertEquals(Http2Error.ENHANCE_YOUR_CALM, size.error());
        assertEquals("header block larger than 4 bytes", size.getMessage());
    }
}
