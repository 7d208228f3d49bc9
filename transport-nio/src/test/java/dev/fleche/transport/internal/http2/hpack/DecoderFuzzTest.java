package dev.fleche.transport.internal.http2.hpack;

import com.code_intelligence.jazzer.junit.FuzzTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Random;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Whatever the bytes, the decoder returns or throws {@link HpackException}: never another exception, never more
 * delivered than the header list limit allows. Blocks are Appendix C's and the encoder's, cut at every position
 * and with random bits flipped; {@code JAZZER_FUZZ=1} fuzzes {@link #anyBytes} for real.
 */
@Timeout(60)
class DecoderFuzzTest {
    private static final String[] SEEDS = {
        "8286 8441 0f77 7777 2e65 7861 6d70 6c65 2e63 6f6d",
        "8287 85bf 4088 25a8 49e9 5ba9 7d7f 8925 a849 e95b b8e8 b4bf",
        "4882 6402 5885 aec3 771a 4b61 96d0 7abe 9410 54d4 44a8 2005 9504 0b81 66e0 82a6 2d1b ff6e 919d 29ad 1718"
                + " 63c7 8f0b 97c8 e9ae 82ae 43d3",
        "3fe101 1008 7061 7373 776f 7264 0673 6563 7265 74 be",
    };
    private static final int LIMIT = 300;

    @Test
    void everyCutOfEverySeed() {
        for (String seed : SEEDS) {
            byte[] bytes = HexFormat.of().parseHex(seed.replace(" ", ""));
            for (int cut = 0; cut <= bytes.length; cut++) {
                decodeTwice(bytes, cut);
            }
        }
    }

    @Test
    void randomBitFlips() {
        Random random = new Random(7541);
        List<byte[]> seeds = new ArrayList<>();
        for (String seed : SEEDS) {
            seeds.add(HexFormat.of().parseHex(seed.replace(" ", "")));
        }
        seeds.add(encoded(random));
        for (int round = 0; round < 20_000; round++) {
            byte[] bytes = seeds.get(random.nextInt(seeds.size())).clone();
            for (int flips = 1 + random.nextInt(3); flips > 0; flips--) {
                bytes[random.nextInt(bytes.length)] ^= (byte) (1 << random.nextInt(8));
            }
            decodeTwice(bytes, random.nextInt(bytes.length + 1));
        }
    }

    @Test
    void randomBytes() {
        Random random = new Random(9113);
        for (int round = 0; round < 20_000; round++) {
            byte[] bytes = new byte[random.nextInt(40)];
            random.nextBytes(bytes);
            decodeTwice(bytes, random.nextInt(bytes.length + 1));
        }
    }

    @FuzzTest(maxDuration = "30s")
    void anyBytes(byte[] raw) {
        decodeTwice(raw, raw.length == 0 ? 0 : (raw[0] & 0xFF) % (raw.length + 1));
    }

    /** Decodes {@code bytes[0, cut)} then {@code bytes[cut, end)} as two blocks on one decoder. */
    private static void decodeTwice(byte[] bytes, int cut) {
        HpackDecoder decoder = new HpackDecoder(256, LIMIT);
        if (decodeOne(decoder, ByteBuffer.wrap(bytes, 0, cut))) {
            decodeOne(decoder, ByteBuffer.wrap(bytes, cut, bytes.length - cut));
        }
    }

    /** Whether the connection would go on (a success or a stream error). */
    private static boolean decodeOne(HpackDecoder decoder, ByteBuffer block) {
        long[] delivered = {0};
        try {
            decoder.decode(block, (name, value) -> delivered[0] += name.length() + value.length() + 32);
            assertTrue(delivered[0] <= LIMIT);
            return true;
        } catch (HpackException e) {
            assertTrue(delivered[0] <= LIMIT);
            if (e.kind() == HpackException.Kind.HEADER_LIST_TOO_LARGE) {
                assertEquals(0, block.remaining(), "a stream error reads the whole block");
                return true;
            }
            assertTrue(e.getMessage().startsWith("RFC 7541 §"), e.getMessage());
            return false;
        }
    }

    private static byte[] encoded(Random random) {
        HpackEncoder encoder = new HpackEncoder(256);
        ByteBuffer out = ByteBuffer.allocate(4096);
        for (int i = 0; i < 20; i++) {
            encoder.encode("x-" + random.nextInt(5), "value " + random.nextInt(5), out);
        }
        encoder.encodeStatus(302, out);
        encoder.encode("authorization", "secret", out);
        byte[] bytes = new byte[out.flip().remaining()];
        out.get(bytes);
        return bytes;
    }
}
