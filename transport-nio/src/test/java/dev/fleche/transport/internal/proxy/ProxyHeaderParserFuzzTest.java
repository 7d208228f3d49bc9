package dev.fleche.transport.internal.proxy;

import dev.fleche.transport.internal.rules.Refusal;
import static java.nio.charset.StandardCharsets.ISO_8859_1;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.code_intelligence.jazzer.junit.FuzzTest;
import dev.fleche.transport.ProxyInfo;
import dev.fleche.transport.internal.proxy.ProxyHeaderParser.ProxyHeaderException;

import java.net.Inet4Address;
import java.util.Arrays;

/**
 * Fuzzes {@link ProxyHeaderParser} with arbitrary bytes fed in pieces. Input: byte 0 chooses {@code maxHeaderBytes}
 * (232 + 16 × it), byte 1 the piece size (1..256), the rest is the stream. On every input:
 * <ul>
 *   <li>nothing but {@link ProxyHeaderException} escapes, naming one of the {@code PROXY_} rules, with a detail;</li>
 *   <li>each feed takes within what it was given, and all of it unless the header is done;</li>
 *   <li>bounded: a header taken is at most 107 bytes (version 1) or {@code maxHeaderBytes} (version 2), and the
 *       parser refuses by the time it has been fed one byte past that;</li>
 *   <li>a header taken with a client carries both addresses; a version 1 one, written out again, parses to the
 *       same {@link ProxyInfo} (round trip).</li>
 * </ul>
 * Seeds: {@code ProxyHeaderParserFuzzTestInputs/headerInPieces/}; {@code JAZZER_FUZZ=1} fuzzes (FUZZING.md).
 */
class ProxyHeaderParserFuzzTest {

    @FuzzTest(maxDuration = "50s")
    void headerInPieces(byte[] raw) {
        if (raw.length < 2) {
            return;
        }
        int max = 232 + 16 * (raw[0] & 0xFF);
        int piece = 1 + (raw[1] & 0xFF);
        byte[] stream = Arrays.copyOfRange(raw, 2, raw.length);
        ProxyHeaderParser parser = new ProxyHeaderParser(max);
        int consumed = 0;
        try {
            for (int at = 0; at < stream.length && !parser.done(); at += piece) {
                int to = Math.min(stream.length, at + piece);
                byte[] copy = Arrays.copyOfRange(stream, at, to); // its own array, as a read buffer would be
                int taken = parser.feed(copy, 0, copy.length);
                assertTrue(taken >= 0 && taken <= copy.length, "took " + taken + " of " + copy.length);
                assertTrue(parser.done() || taken == copy.length, "not done, yet left bytes");
                consumed += taken;
            }
        } catch (ProxyHeaderException e) {
            assertTrue(e.rule().name().startsWith("PROXY_") && e.rule() != Refusal.PROXY_SOURCE_UNTRUSTED
                    && e.rule() != Refusal.PROXY_HEADER_TIMEOUT, e.rule().name());
            assertFalse(e.getMessage() == null || e.getMessage().isEmpty(), "a refusal says why");
            return;
        }
        if (!parser.done()) {
            assertTrue(consumed <= Math.max(ProxyHeaderParser.V1_MAX_BYTES, max), "fed " + consumed
                    + " bytes without a verdict, beyond the bounds");
            assertNotNull(parser.ended(), "an end now is a named refusal");
            return;
        }
        ProxyInfo info = parser.result();
        assertTrue(consumed <= (info.version() == 1 ? ProxyHeaderParser.V1_MAX_BYTES : max), consumed + " bytes");
        if (!info.local()) {
            assertNotNull(info.source());
            assertNotNull(info.destination());
        }
        if (info.version() == 1 && !info.local()) {
            String family = info.source().getAddress() instanceof Inet4Address ? "TCP4" : "TCP6";
            byte[] again = ("PROXY " + family + " " + info.source().getAddress().getHostAddress() + " "
                    + info.destination().getAddress().getHostAddress() + " " + info.source().getPort() + " "
                    + info.destination().getPort() + "\r\n").getBytes(ISO_8859_1);
            ProxyHeaderParser second = new ProxyHeaderParser(max);
            try {
                assertEquals(again.length, second.feed(again, 0, again.length));
            } catch (ProxyHeaderException e) {
                throw new AssertionError("the header written out again is refused: " + e.getMessage(), e);
            }
            assertEquals(info, second.result());
        }
    }
}
