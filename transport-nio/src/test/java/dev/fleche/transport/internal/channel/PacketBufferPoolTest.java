package dev.fleche.transport.internal.channel;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteBuffer;
import javax.net.ssl.SSLContext;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

@Timeout(10)
class PacketBufferPoolTest {

    @Test
    void reusesGivenBuffersUpToItsBound() {
        PacketBufferPool pool = new PacketBufferPool(4096, 1);
        ByteBuffer a = pool.take(100);
        ByteBuffer b = pool.take(4096);
        assertEquals(4096, a.capacity());
        a.put((byte) 1);
        pool.give(a);
        pool.give(b);
        assertEquals(1, pool.retained(), "keeps at most maxRetained");
        ByteBuffer again = pool.take(10);
        assertSame(a, again);
        assertEquals(0, again.position(), "cleared");
        assertEquals(4096, again.limit());
    }

    @Test
    void aLargerRequestGetsItsOwnBufferWhichIsNotKept() {
        PacketBufferPool pool = new PacketBufferPool(4096, 4);
        ByteBuffer big = pool.take(5000);
        assertEquals(5000, big.capacity());
        pool.give(big);
        pool.give(ByteBuffer.allocate(100));
        assertEquals(0, pool.retained());
        assertNotSame(big, pool.take(4096));
    }

    @Test
    void wideBuffersHoldFourRecordsAndAreKeptApartUpToAQuarterOfTheBound() {
        PacketBufferPool pool = new PacketBufferPool(4096, 8);
        ByteBuffer a = pool.takeWide();
        ByteBuffer b = pool.takeWide();
        ByteBuffer c = pool.takeWide();
        assertEquals(4 * 4096, a.capacity());
        a.put((byte) 1);
        pool.give(a);
        pool.give(b);
        pool.give(c);
        assertEquals(2, pool.retainedWide(), "keeps at most maxRetained / 4 wide buffers");
        assertEquals(2, pool.retained());
        ByteBuffer small = pool.take(10);
        assertEquals(4096, small.capacity(), "a record's buffer is never a wide one");
        ByteBuffer again = pool.takeWide();
        assertTrue(again == a || again == b, "a wide buffer given back is reused");
        assertEquals(0, again.position(), "cleared");
        assertEquals(4 * 4096, again.limit());
    }

    @Test
    void recordBytesCoverATlsRecord() throws Exception {
        SSLContext context = SSLContext.getInstance("TLS");
        context.init(null, null, null);
        int bytes = PacketBufferPool.recordBytes(context);
        assertTrue(bytes >= 16 * 1024 + 5 && bytes <= 64 * 1024, "was " + bytes);
    }
}
