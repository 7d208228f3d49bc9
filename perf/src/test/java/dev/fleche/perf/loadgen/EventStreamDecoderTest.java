package dev.fleche.perf.loadgen;

import org.junit.jupiter.api.Test;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;

class EventStreamDecoderTest {

    /** Feeds {@code body} in two parts split at {@code split}; returns "number@micros" per event, "!" per malformed. */
    private static List<String> decode(String body, int split) {
        EventStreamDecoder d = new EventStreamDecoder();
        d.startBody();
        byte[] b = body.getBytes(StandardCharsets.US_ASCII);
        ByteBuffer in = ByteBuffer.wrap(b);
        d.feed(in, 0, split);
        d.feed(in, split, b.length - split);
        List<String> seen = new ArrayList<>();
        for (int i = 0; i < d.decoded(); i++) {
            seen.add(d.number(i) + "@" + d.sentMicros(i));
        }
        for (int i = d.takeMalformed(); i > 0; i--) {
            seen.add("!");
        }
        return seen;
    }

    @Test
    void eventsWithCommentsOtherFieldsAndBothLineEndsAtEverySplit() {
        String body = ": welcome\n\nevent: tick\nid: 3\ndata: 1 1732200000000001\n\r\n"
                + "data:2 1732200000000002\r\n\r\nretry: 10\n\n";
        for (int split = 0; split <= body.length(); split++) {
            assertEquals(List.of("1@1732200000000001", "2@1732200000000002"), decode(body, split), "split " + split);
        }
    }

    @Test
    void wrongDataIsMalformed() {
        assertEquals(List.of("!"), decode("data: Hello, World!\n\n", 3));
        assertEquals(List.of("!"), decode("data: 1\n\n", 3));
        assertEquals(List.of("!"), decode("data: 1 2 3\n\n", 3));
        assertEquals(List.of("!"), decode("data: 1 2\ndata: 3 4\n\n", 3));
        assertEquals(List.of("!"), decode("data: 1 99999999999999999999\n\n", 3));
    }

    @Test
    void anOverlongLineMakesItsEventMalformedAndDecodingGoesOn() {
        String body = "data: " + "7".repeat(EventStreamDecoder.MAX_LINE) + "\n\ndata: 5 6\n\n";
        assertEquals(List.of("5@6", "!"), decode(body, 100));
    }

    @Test
    void anEventCutByTheEndOfABodyIsForgotten() {
        EventStreamDecoder d = new EventStreamDecoder();
        d.startBody();
        d.feed(ByteBuffer.wrap("data: 1 2\n".getBytes(StandardCharsets.US_ASCII)), 0, 10);
        d.startBody();
        d.feed(ByteBuffer.wrap("\n".getBytes(StandardCharsets.US_ASCII)), 0, 1);
        assertEquals(0, d.decoded());
        assertEquals(0, d.takeMalformed());
    }
}
