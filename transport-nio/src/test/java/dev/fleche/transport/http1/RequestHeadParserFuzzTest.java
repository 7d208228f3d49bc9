package dev.fleche.transport.http1;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import com.code_intelligence.jazzer.junit.FuzzTest;
import java.nio.charset.StandardCharsets;

/**
 * Fuzzes {@link RequestHeadParser} with arbitrary bytes cut at arbitrary points (see {@link FuzzInput}), parsing
 * pipelined heads until the input ends or a refusal. On every input:
 * <ul>
 *   <li>nothing but {@link RequestException} escapes, and every refusal names its {@link ProtocolRule} with the
 *       rule's status (Jazzer reports any other throwable as a finding);</li>
 *   <li>each call consumes within its range and either completes a head or consumes all it was given;</li>
 *   <li>the bytes consumed for one head never exceed what the limits allow (leading empty lines, the request line,
 *       the header section, their CRLFs), and an accepted head is within its limits;</li>
 *   <li>an accepted head, written out again, parses to the same head (round trip).</li>
 * </ul>
 * Plain {@code mvn verify} replays the corpus under {@code RequestHeadParserFuzzTestInputs/}; {@code JAZZER_FUZZ=1}
 * fuzzes (see FUZZING.md).
 */
class RequestHeadParserFuzzTest {

    @FuzzTest(maxDuration = "50s")
    void headsInPieces(byte[] raw) {
        FuzzInput input = FuzzInput.of(raw);
        int line = input.limit(0);
        int section = input.limit(1);
        int count = input.limit(2);
        long mostPerHead = 2L * RequestHeadParser.MAX_LEADING_EMPTY_LINES + line + 2 + section + 2;
        RequestHeadParser parser = new RequestHeadParser(line, section, count);
        long consumedForHead = 0;
        try {
            for (FuzzInput.Piece piece : input.pieces()) {
                int pos = piece.offset();
                while (pos < piece.limit()) {
                    int next = parser.parse(piece.buf(), pos, piece.limit());
                    FuzzChecks.progress(pos, next, piece.limit(), parser.isComplete());
                    consumedForHead += next - pos;
                    if (consumedForHead > mostPerHead) {
                        fail("consumed " + consumedForHead + " bytes for one head; limits allow " + mostPerHead);
                    }
                    pos = next;
                    if (parser.isComplete()) {
                        RequestHead head = parser.take();
                        withinLimits(head, line, section, count);
                        roundTrip(head, line, section, count);
                        consumedForHead = 0;
                    }
                }
                piece.scrub();
            }
        } catch (RequestException e) {
            FuzzChecks.namedRefusal(e);
        }
    }

    private static void withinLimits(RequestHead head, int line, int section, int count) {
        int lineBytes = head.method().length() + 1 + head.target().length() + " HTTP/1.x".length();
        assertTrue(lineBytes <= line, "request line of " + lineBytes + " bytes accepted; limit " + line);
        assertTrue(head.headers().size() <= count, head.headers().size() + " fields accepted; limit " + count);
        int least = FuzzChecks.fieldLineBytes(head.headers()) - head.headers().size();
        assertTrue(least <= section, "header section of at least " + least + " bytes accepted; limit " + section);
    }

    /** Writes the head out in its plainest form and parses that with room for the added spaces. */
    private static void roundTrip(RequestHead head, int line, int section, int count) {
        StringBuilder text = new StringBuilder()
                .append(head.method()).append(' ').append(head.target()).append(" HTTP/1.").append(head.minorVersion())
                .append("\r\n");
        FuzzChecks.writeFields(text, head.headers());
        text.append("\r\n");
        byte[] bytes = text.toString().getBytes(StandardCharsets.ISO_8859_1);
        RequestHeadParser again = new RequestHeadParser(line, section + count, count);
        int end;
        try {
            end = again.parse(bytes, 0, bytes.length);
        } catch (RequestException e) {
            throw new AssertionError("re-serialised head refused: " + e.rule(), e);
        }
        assertTrue(again.isComplete(), "re-serialised head incomplete");
        assertEquals(bytes.length, end, "re-serialised head not consumed whole");
        RequestHead copy = again.take();
        assertEquals(head.method(), copy.method());
        assertEquals(head.target(), copy.target());
        assertEquals(head.path(), copy.path());
        assertEquals(head.query(), copy.query());
        assertEquals(head.minorVersion(), copy.minorVersion());
        FuzzChecks.sameFields(head.headers(), copy.headers());
        assertEquals(head.host(), copy.host());
        assertEquals(head.contentLength(), copy.contentLength());
        assertEquals(head.chunked(), copy.chunked());
        assertEquals(head.keepAlive(), copy.keepAlive());
        assertEquals(head.expectContinue(), copy.expectContinue());
    }
}
