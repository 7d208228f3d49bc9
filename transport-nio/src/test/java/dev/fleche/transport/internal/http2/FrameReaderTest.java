package dev.fleche.transport.internal.http2;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Frames of RFC 9113 section 6 as exact bytes: what the reader reports, and every frame-level refusal. */
@Timeout(10)
class FrameReaderTest {

    /** Records what the reader reports, as text. */
    private static final class Recorder implements FrameReader.Listener {
        final List<String> seen = new ArrayList<>();

        private static String text(ByteBuffer b) {
            byte[] bytes = new byte[b.remaining()];
            b.duplicate().get(bytes);
            return new String(bytes, StandardCharsets.ISO_8859_1);
        }

        @Override public void data(int stream, ByteBuffer payload, int flowLength, boolean endStream) {
            seen.add("DATA " + stream + " " + text(payload) + " flow=" + flowLength + (endStream ? " END" : ""));
        }
        @Override public void headers(int stream, ByteBuffer fragment, boolean endStream, boolean endHeaders) {
            seen.add("HEADERS " + stream + " " + text(fragment) + (endStream ? " END" : "") + (endHeaders ? " EH" : ""));
        }
        @Override public void continuation(int stream, ByteBuffer fragment, boolean endHeaders) {
            seen.add("CONTINUATION " + stream + " " + text(fragment) + (endHeaders ? " EH" : ""));
        }
        @Override public void priority(int stream) { seen.add("PRIORITY " + stream); }
        @Override public void rstStream(int stream, int errorCode) { seen.add("RST_STREAM " + stream + " " + errorCode); }
        @Override public void setting(int identifier, long value) { seen.add("SETTING " + identifier + "=" + value); }
        @Override public void settingsEnd() { seen.add("SETTINGS END"); }
        @Override public void settingsAck() { seen.add("SETTINGS ACK"); }
        @Override public void ping(long opaque, boolean ack) { seen.add("PING " + opaque + (ack ? " ACK" : "")); }
        @Override public void goAway(int lastStream, int errorCode) { seen.add("GOAWAY " + lastStream + " " + errorCode); }
        @Override public void windowUpdate(int stream, int increment) { seen.add("WINDOW_UPDATE " + stream + " " + increment); }
        @Override public void unknown(int type, int stream) { seen.add("UNKNOWN " + type + " " + stream); }
    }

    private static ByteBuffer hex(String hex) {
        return ByteBuffer.wrap(HexFormat.of().parseHex(hex.replace(" ", "")));
    }

    private static List<String> read(String hex) throws Http2Exception {
        Recorder recorder = new Recorder();
        FrameReader reader = new FrameReader(16_384);
        ByteBuffer in = hex(hex);
        while (reader.read(in, recorder)) {
            // every whole frame
        }
        assertEquals(0, in.remaining(), "every byte read");
        return recorder.seen;
    }

    private static Http2Exception refused(String hex) {
        return assertThrows(Http2Exception.class, () -> read(hex));
    }

    private static void connectionError(Http2Error error, String hex) {
        Http2Exception e = refused(hex);
        assertTrue(e.isConnectionError(), e.getMessage());
        assertEquals(error, e.error(), e.getMessage());
    }

    private static void streamError(int stream, Http2Error error, String hex) {
        Http2Exception e = refused(hex);
        assertEquals(stream, e.stream(), e.getMessage());
        assertEquals(error, e.error(), e.getMessage());
    }

    @Test
    void framesAsTheyCome() throws Exception {
        assertEquals(List.of("DATA 1 abc flow=3 END"), read("000003 00 01 00000001 616263"));
        // padded: pad length 2, "ab", two pad bytes; flow control counts all 6 bytes
        assertEquals(List.of("DATA 3 ab flow=5"), read("000005 00 08 00000003 02 6162 0000"));
        // priority fields are removed from HEADERS
        assertEquals(List.of("HEADERS 1 xy END EH"), read("000007 01 25 00000001 00000000 10 7879"));
        assertEquals(List.of("PRIORITY 5"), read("000005 02 00 00000005 00000003 10"));
        assertEquals(List.of("RST_STREAM 1 8"), read("000004 03 00 00000001 00000008"));
        assertEquals(List.of("SETTING 4=65536", "SETTING 5=16384", "SETTINGS END"),
                read("00000c 04 00 00000000 0004 00010000 0005 00004000"));
        assertEquals(List.of("SETTINGS ACK"), read("000000 04 01 00000000"));
        assertEquals(List.of("PING 1 ACK"), read("000008 06 01 00000000 0000000000000001"));
        assertEquals(List.of("GOAWAY 7 0"), read("000008 07 00 00000000 00000007 00000000"));
        assertEquals(List.of("WINDOW_UPDATE 0 1024"), read("000004 08 00 00000000 00000400"));
        assertEquals(List.of("UNKNOWN 255 0"), read("000002 ff 00 00000000 0000"));
        // the reserved bit of the stream id is ignored
        assertEquals(List.of("RST_STREAM 1 0"), read("000004 03 00 80000001 00000000"));
    }

    @Test
    void headerBlockWithContinuations() throws Exception {
        assertEquals(List.of("HEADERS 1 a", "CONTINUATION 1 b", "CONTINUATION 1 c EH"),
                read("000001 01 00 00000001 61  000001 09 00 00000001 62  000001 09 04 00000001 63"));
    }

    @Test
    void aFrameIsTakenOnlyWhenWhole() throws Exception {
        byte[] frame = HexFormat.of().parseHex("000003000100000001616263");
        for (int split = 0; split < frame.length; split++) {
            Recorder recorder = new Recorder();
            FrameReader reader = new FrameReader(16_384);
            ByteBuffer part = ByteBuffer.wrap(frame, 0, split);
            assertFalse(reader.read(part, recorder));
            assertEquals(0, part.position(), "nothing taken at split " + split);
            assertTrue(reader.read(ByteBuffer.wrap(frame), recorder));
            assertEquals(List.of("DATA 1 abc flow=3 END"), recorder.seen);
        }
    }

    @Test
    void frameLevelRefusals() {
        // RFC 9113 4.2: beyond SETTINGS_MAX_FRAME_SIZE, refused from the header alone
        Http2Exception tooLarge = assertThrows(Http2Exception.class,
                () -> new FrameReader(16_384).read(hex("004001 00 00 00000001"), new Recorder()));
        assertEquals(Http2Error.FRAME_SIZE_ERROR, tooLarge.error());
        connectionError(Http2Error.PROTOCOL_ERROR, "000000 00 01 00000000");                 // DATA on stream 0
        connectionError(Http2Error.PROTOCOL_ERROR, "000003 00 08 00000001 03 0000");          // padding = payload
        connectionError(Http2Error.PROTOCOL_ERROR, "000000 01 04 00000000");                 // HEADERS on stream 0
        streamError(3, Http2Error.PROTOCOL_ERROR, "000005 01 24 00000003 00000003 10");       // depends on itself
        streamError(3, Http2Error.FRAME_SIZE_ERROR, "000004 02 00 00000003 00000001");        // PRIORITY of 4 bytes
        connectionError(Http2Error.PROTOCOL_ERROR, "000005 02 00 00000000 00000001 10");      // PRIORITY on stream 0
        connectionError(Http2Error.FRAME_SIZE_ERROR, "000003 03 00 00000001 000000");         // RST_STREAM of 3 bytes
        connectionError(Http2Error.PROTOCOL_ERROR, "000004 03 00 00000000 00000000");         // RST_STREAM on stream 0
        connectionError(Http2Error.PROTOCOL_ERROR, "000000 04 00 00000001");                 // SETTINGS on a stream
        connectionError(Http2Error.FRAME_SIZE_ERROR, "000005 04 00 00000000 0001000000");     // not a multiple of 6
        connectionError(Http2Error.FRAME_SIZE_ERROR, "000006 04 01 00000000 000100000000");   // ACK with a payload
        connectionError(Http2Error.PROTOCOL_ERROR, "000006 04 00 00000000 000200000002");     // ENABLE_PUSH=2
        connectionError(Http2Error.FLOW_CONTROL_ERROR, "000006 04 00 00000000 000480000000"); // window 2^31
        connectionError(Http2Error.PROTOCOL_ERROR, "000006 04 00 00000000 000500003fff");     // MAX_FRAME_SIZE 16383
        connectionError(Http2Error.PROTOCOL_ERROR, "000000 05 04 00000001");                 // PUSH_PROMISE
        connectionError(Http2Error.FRAME_SIZE_ERROR, "000007 06 00 00000000 00000000000000"); // PING of 7 bytes
        connectionError(Http2Error.PROTOCOL_ERROR, "000008 06 00 00000001 0000000000000000"); // PING on a stream
        connectionError(Http2Error.FRAME_SIZE_ERROR, "000007 07 00 00000000 00000000000000"); // GOAWAY of 7 bytes
        connectionError(Http2Error.PROTOCOL_ERROR, "000008 07 00 00000001 0000000000000000"); // GOAWAY on a stream
        connectionError(Http2Error.FRAME_SIZE_ERROR, "000003 08 00 00000000 000001");         // WINDOW_UPDATE of 3
        connectionError(Http2Error.PROTOCOL_ERROR, "000004 08 00 00000000 00000000");         // increment 0, conn
        streamError(1, Http2Error.PROTOCOL_ERROR, "000004 08 00 00000001 00000000");          // increment 0, stream
        connectionError(Http2Error.PROTOCOL_ERROR, "000001 09 04 00000001 61");               // CONTINUATION alone
        // RFC 9113 6.10: nothing but the block's CONTINUATIONs inside a header block
        connectionError(Http2Error.PROTOCOL_ERROR, "000001 01 00 00000001 61  000008 06 00 00000000 0000000000000000");
        connectionError(Http2Error.PROTOCOL_ERROR, "000001 01 00 00000001 61  000001 09 04 00000003 62");
    }

    @Test
    void writerBytes() {
        ByteBuffer out = ByteBuffer.allocate(64);
        FrameWriter.settings(out, Frames.SETTINGS_MAX_CONCURRENT_STREAMS, 100, Frames.SETTINGS_INITIAL_WINDOW_SIZE, 65536);
        assertEquals("00000c040000000000000300000064000400010000", hex(out));
        FrameWriter.settingsAck(out);
        assertEquals("000000040100000000", hex(out));
        FrameWriter.ping(out, 0x0102030405060708L, true);
        assertEquals("0000080601000000000102030405060708", hex(out));
        FrameWriter.goAway(out, 5, Http2Error.ENHANCE_YOUR_CALM, "x".getBytes(StandardCharsets.US_ASCII));
        assertEquals("000009070000000000000000050000000b78", hex(out));
        FrameWriter.rstStream(out, 3, Http2Error.REFUSED_STREAM);
        assertEquals("00000403000000000300000007", hex(out));
        FrameWriter.windowUpdate(out, 1, 32768);
        assertEquals("00000408000000000100008000", hex(out));
    }

    private static String hex(ByteBuffer out) {
        out.flip();
        byte[] bytes = new byte[out.remaining()];
        out.get(bytes);
        out.clear();
        return HexFormat.of().formatHex(bytes);
    }
}
