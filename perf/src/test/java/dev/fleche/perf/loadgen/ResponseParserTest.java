package dev.fleche.perf.loadgen;

import org.junit.jupiter.api.Test;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

class ResponseParserTest {
    private static final String TWO = """
            HTTP/1.1 200 OK\r
            Content-Type: text/plain\r
            Content-Length: 13\r
            \r
            Hello, World!HTTP/1.1 200 OK\r
            Transfer-Encoding: chunked\r
            \r
            5\r
            Hello\r
            8\r
            , World!\r
            0\r
            \r
            """;

    /** Feeds {@code text} split at {@code split}; returns the status and body check of every response. */
    private static List<String> feed(ResponseParser p, String text, int split) {
        byte[] b = text.getBytes(StandardCharsets.US_ASCII);
        List<String> seen = new ArrayList<>();
        for (ByteBuffer part : new ByteBuffer[] {ByteBuffer.wrap(b, 0, split), ByteBuffer.wrap(b, split, b.length - split)}) {
            while (part.hasRemaining()) {
                if (p.feed(part)) {
                    seen.add(p.status() + ":" + p.bodyMatches());
                } else {
                    assertFalse(p.failed(), p.failure());
                }
            }
        }
        return seen;
    }

    @Test
    void lengthAndChunkedBodiesAtEverySplit() {
        for (int split = 0; split <= TWO.length(); split++) {
            ResponseParser p = new ResponseParser("Hello, World!".getBytes(StandardCharsets.US_ASCII));
            assertEquals(List.of("200:true", "200:true"), feed(p, TWO, split), "split at " + split);
            assertFalse(p.inProgress());
        }
    }

    @Test
    void wrongBodyAndStatusAreSeen() {
        ResponseParser p = new ResponseParser("Hello".getBytes(StandardCharsets.US_ASCII));
        String r = "HTTP/1.1 404 Not Found\r\nContent-Length: 5\r\n\r\nHellx";
        assertEquals(List.of("404:false"), feed(p, r, 7));
    }

    @Test
    void decodesServerSentEventsAcrossChunks() {
        String r = "HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\nTransfer-Encoding: chunked\r\n\r\n"
                + "19\r\n: hi\n\ndata: 7 1000000\n\nda\r\n" + "10\r\nta:8 1000250\r\n\r\n\r\n0\r\n\r\n";
        for (int split = 0; split <= r.length(); split++) {
            ResponseParser p = new ResponseParser(null);
            assertEquals(List.of("200:true"), feed(p, r, split), "split at " + split);
            assertTrue(p.isEventStream());
            EventStreamDecoder events = p.events();
            assertEquals(2, events.decoded(), "split at " + split);
            assertEquals(List.of(7L, 1_000_000L, 8L, 1_000_250L), List.of(events.number(0), events.sentMicros(0),
                    events.number(1), events.sentMicros(1)), "split at " + split);
            assertEquals(0, events.takeMalformed());
        }
    }

    @Test
    void countsBodyBytesAndSeesTheHead() {
        ResponseParser p = new ResponseParser(null);
        ByteBuffer head = ByteBuffer.wrap("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n3\r\nabc"
                .getBytes(StandardCharsets.US_ASCII));
        assertFalse(p.feed(head));
        assertTrue(p.headReceived());
        assertEquals(3, p.bodyLength());
        assertTrue(p.feed(ByteBuffer.wrap("\r\n2\r\nde\r\n0\r\n\r\n".getBytes(StandardCharsets.US_ASCII))));
        assertEquals(5, p.bodyLength());
    }

    @Test
    void bodyUntilCloseCompletesAtEndOfInput() {
        ResponseParser p = new ResponseParser("abc".getBytes(StandardCharsets.US_ASCII));
        assertEquals(List.of(), feed(p, "HTTP/1.0 200 OK\r\n\r\nabc", 3));
        assertTrue(p.endOfInput());
        assertTrue(p.bodyMatches());
        assertTrue(p.closeRequested());
    }
}
