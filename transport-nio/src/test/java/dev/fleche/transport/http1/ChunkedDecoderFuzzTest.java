package dev.fleche.transport.http1;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import com.code_intelligence.jazzer.junit.FuzzTest;
import dev.fleche.transport.HttpFields;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;

/**
 * Fuzzes {@link ChunkedDecoder} with arbitrary bytes cut at arbitrary points (see {@link FuzzInput}). On every
 * input:
 * <ul>
 *   <li>nothing but {@link RequestException} escapes, and every refusal names its {@link ProtocolRule} with the
 *       rule's status;</li>
 *   <li>each call consumes within its range and either ends the body or consumes all it was given; the sink only
 *       ever sees non-empty slices of the range it was given, and never more bytes than were consumed;</li>
 *   <li>accepted trailers are within their limits;</li>
 *   <li>a body the decoder accepts, encoded again (one chunk and the same trailers), decodes to the same bytes and
 *       trailers (round trip).</li>
 * </ul>
 */
class ChunkedDecoderFuzzTest {

    @FuzzTest(maxDuration = "50s")
    void bodyInPieces(byte[] raw) {
        FuzzInput input = FuzzInput.of(raw);
        int line = input.limit(0);
        int section = input.limit(1);
        int count = input.limit(2);
        ChunkedDecoder decoder = new ChunkedDecoder(line, section, count);
        ByteArrayOutputStream data = new ByteArrayOutputStream();
        long consumed = 0;
        try {
            for (FuzzInput.Piece piece : input.pieces()) {
                int pos = piece.offset();
                while (pos < piece.limit() && !decoder.isDone()) {
                    int from = pos;
                    int limit = piece.limit();
                    int next = decoder.decode(piece.buf(), pos, limit, (b, o, n) -> {
                        if (b != piece.buf() || n < 1 || o < from || o + n > limit) {
                            fail("sink given [" + o + ", " + (o + n) + ") outside [" + from + ", " + limit + ")");
                        }
                        data.write(b, o, n);
                    });
                    FuzzChecks.progress(pos, next, limit, decoder.isDone());
                    consumed += next - pos;
                    pos = next;
                }
                piece.scrub();
            }
        } catch (RequestException e) {
            FuzzChecks.namedRefusal(e);
            return;
        }
        assertTrue(data.size() <= consumed, data.size() + " data bytes out of " + consumed + " consumed");
        if (decoder.isDone()) {
            HttpFields trailers = decoder.trailers();
            assertTrue(trailers.size() <= count, trailers.size() + " trailers accepted; limit " + count);
            int least = FuzzChecks.fieldLineBytes(trailers) - trailers.size();
            assertTrue(least <= section, "trailer section of at least " + least + " bytes accepted; limit " + section);
            roundTrip(data.toByteArray(), trailers, section, count);
        }
    }

    private static void roundTrip(byte[] body, HttpFields trailers, int section, int count) {
        StringBuilder text = new StringBuilder();
        if (body.length > 0) {
            text.append(Integer.toHexString(body.length)).append("\r\n")
                    .append(new String(body, StandardCharsets.ISO_8859_1)).append("\r\n");
        }
        text.append("0\r\n");
        FuzzChecks.writeFields(text, trailers);
        text.append("\r\n");
        byte[] bytes = text.toString().getBytes(StandardCharsets.ISO_8859_1);
        ChunkedDecoder again = new ChunkedDecoder(16, section + count, count);
        ByteArrayOutputStream copy = new ByteArrayOutputStream();
        try {
            int end = again.decode(bytes, 0, bytes.length, copy::write);
            assertEquals(bytes.length, end, "re-encoded body not consumed whole");
        } catch (RequestException e) {
            fail("re-encoded body refused: " + e.rule());
        }
        assertTrue(again.isDone(), "re-encoded body incomplete");
        assertArrayEquals(body, copy.toByteArray(), "body");
        FuzzChecks.sameFields(trailers, again.trailers());
    }
}
