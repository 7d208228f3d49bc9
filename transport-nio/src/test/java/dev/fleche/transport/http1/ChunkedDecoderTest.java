package dev.fleche.transport.http1;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.fleche.transport.HttpFields;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

/** The chunked decoder on its own: slices into the caller's buffer, exact stopping point, reuse, long lines. */
class ChunkedDecoderTest {

    private final ChunkedDecoder decoder = new ChunkedDecoder(64, 256, 8);
    private final ByteArrayOutputStream body = new ByteArrayOutputStream();

    private int decode(byte[] buf, int offset, int limit) throws RequestException {
        return decoder.decode(buf, offset, limit, (b, o, n) -> body.write(b, o, n));
    }

    @Test
    void dataIsPassedAsSlicesOfTheCallersBuffer() throws RequestException {
        byte[] buf = MessageDriver.bytes("xx3\r\nabc\r\n2\r\nde\r\n0\r\n\r\n");
        StringBuilder slices = new StringBuilder();
        decoder.decode(buf, 2, buf.length, (b, o, n) -> {
            assertSame(buf, b);
            slices.append(o).append('+').append(n).append(' ');
        });
        assertEquals("5+3 13+2 ", slices.toString());
    }

    @Test
    void announcedRemainingIsTheRestOfTheCurrentChunkFromItsSizeLineOn() throws RequestException {
        assertEquals(0, decoder.announcedRemaining());
        byte[] buf = MessageDriver.bytes("fffff;x=y\r\nab");
        decode(buf, 0, 10); // the size line without its LF: nothing announced yet
        assertEquals(0, decoder.announcedRemaining());
        decode(buf, 10, 11);
        assertEquals(0xfffff, decoder.announcedRemaining());
        decode(buf, 11, buf.length);
        assertEquals(0xfffff - 2, decoder.announcedRemaining());
        byte[] last = MessageDriver.bytes("2\r\nab\r\n");
        decoder.reset();
        decode(last, 0, last.length);
        assertEquals(0, decoder.announcedRemaining(), "between chunks");
    }

    @Test
    void stopsRightAfterTheFinalCrlf() throws RequestException {
        byte[] buf = MessageDriver.bytes("1\r\na\r\n0\r\nT: v\r\n\r\nGET / HTTP/1.1\r\n");
        int end = decode(buf, 0, buf.length);
        assertEquals("1\r\na\r\n0\r\nT: v\r\n\r\n".length(), end);
        assertTrue(decoder.isDone());
        assertEquals(end, decode(buf, end, buf.length), "nothing consumed once done");
        assertEquals("a", body.toString(StandardCharsets.US_ASCII));
        assertEquals("v", decoder.trailers().get("t"));
    }

    @Test
    void largeChunkAcrossManyBuffers() throws RequestException {
        int size = 0x10000;
        byte[] data = new byte[1000];
        decode(MessageDriver.bytes("10000\r\n"), 0, 7);
        int sent = 0;
        while (sent < size) {
            int n = Math.min(data.length, size - sent);
            assertEquals(n, decode(data, 0, n));
            sent += n;
        }
        byte[] end = MessageDriver.bytes("\r\n0\r\n\r\n");
        assertEquals(end.length, decode(end, 0, end.length));
        assertTrue(decoder.isDone());
        assertEquals(size, body.size());
    }

    @Test
    void trailersAreEmptyWhenNoneAndKeptAfterReset() throws RequestException {
        byte[] none = MessageDriver.bytes("0\r\n\r\n");
        decode(none, 0, none.length);
        assertTrue(decoder.trailers().isEmpty());

        decoder.reset();
        byte[] some = MessageDriver.bytes("0\r\nA: 1\r\nb: 2\r\n\r\n");
        decode(some, 0, some.length);
        HttpFields first = decoder.trailers();
        assertEquals("[A=1, b=2]\n", MessageDriver.describe(first));

        decoder.reset();
        assertFalse(decoder.isDone());
        assertNotSame(first, decoder.trailers());
        assertEquals(2, first.size(), "a reset leaves handed-out trailers alone");
    }

    @Test
    void longSplitChunkLineAndQuotedExtension() throws RequestException {
        ChunkedDecoder wide = new ChunkedDecoder(4096, 256, 8);
        String ext = ";n=\"" + "q\\\"".repeat(900) + "\"";
        byte[] buf = MessageDriver.bytes("3" + ext + "\r\nabc\r\n0\r\n\r\n");
        int pos = 0;
        while (pos < buf.length) {
            int limit = Math.min(buf.length, pos + 97);
            pos = wide.decode(buf, pos, limit, (b, o, n) -> body.write(b, o, n));
        }
        assertTrue(wide.isDone());
        assertEquals("abc", body.toString(StandardCharsets.US_ASCII));
    }

    @Test
    void quotedPairMustNotHoldControls() {
        byte[] buf = MessageDriver.bytes("3;n=\"a\\\u0001\"\r\nabc\r\n0\r\n\r\n");
        RequestException e = assertThrows(RequestException.class, () -> decode(buf, 0, buf.length));
        assertEquals(ProtocolRule.CHUNK_EXTENSION_INVALID, e.rule());
    }

    @Test
    void failedDecoderRefusesInputUntilReset() throws RequestException {
        byte[] bad = MessageDriver.bytes("z\r\n");
        assertThrows(RequestException.class, () -> decode(bad, 0, bad.length));
        assertThrows(IllegalStateException.class, () -> decode(bad, 0, bad.length));
        decoder.reset();
        byte[] good = MessageDriver.bytes("0\r\n\r\n");
        assertEquals(good.length, decode(good, 0, good.length));
        assertTrue(decoder.isDone());
    }

    @Test
    void rangeIsChecked() {
        byte[] buf = new byte[4];
        assertThrows(IndexOutOfBoundsException.class, () -> decode(buf, 3, 5));
        assertThrows(IndexOutOfBoundsException.class, () -> decode(buf, 3, 2));
    }
}
