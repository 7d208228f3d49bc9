package dev.fleche.perf.soak;

import static java.nio.charset.StandardCharsets.US_ASCII;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The soak's own checks can fail: a wrong, malformed, missing or second response is caught, and so is a leak. */
class ChecksTest {

    private static InputStream wire(String text) {
        return new ByteArrayInputStream(text.getBytes(US_ASCII));
    }

    private static String hello(long id) {
        return "HTTP/1.1 200 OK\r\nX-Request-Id: " + id + "\r\nContent-Length: 13\r\n\r\nHello, World!";
    }

    private static final byte[] HELLO = "Hello, World!".getBytes(US_ASCII);

    @Test
    void theRightResponsePasses() throws IOException {
        InputStream in = wire(hello(7));
        assertNull(ResponseCheck.exact(7, HELLO).problem(Response.read(in, false)));
        assertNull(ResponseCheck.nothingMore(in));
    }

    @Test
    void aResponseToAnotherRequestIsDetected() throws IOException {
        assertEquals("request 7: got the response of request 8",
                ResponseCheck.exact(7, HELLO).problem(Response.read(wire(hello(8)), false)));
    }

    @Test
    void aResponseWithoutTheIdIsDetected() throws IOException {
        String noId = "HTTP/1.1 200 OK\r\nContent-Length: 13\r\n\r\nHello, World!";
        assertEquals("request 7: no X-Request-Id in the response",
                ResponseCheck.exact(7, HELLO).problem(Response.read(wire(noId), false)));
    }

    @Test
    void aSecondResponseOnTheConnectionIsDetected() throws IOException {
        InputStream in = wire(hello(7) + hello(7));
        assertNull(ResponseCheck.exact(7, HELLO).problem(Response.read(in, false)));
        assertTrue(ResponseCheck.nothingMore(in).startsWith("bytes after the last response"));
    }

    @Test
    void aWrongStatusOrBodyIsDetected() throws IOException {
        String error = "HTTP/1.1 500 Internal Server Error\r\nX-Request-Id: 7\r\nContent-Length: 0\r\n\r\n";
        assertEquals("request 7: status 500, expected 200",
                ResponseCheck.exact(7, HELLO).problem(Response.read(wire(error), false)));
        String other = "HTTP/1.1 200 OK\r\nX-Request-Id: 7\r\nContent-Length: 13\r\n\r\nHello, Wrold!";
        assertEquals("request 7: body of 13 bytes differs from the 13 expected",
                ResponseCheck.exact(7, HELLO).problem(Response.read(wire(other), false)));
    }

    @Test
    void chunkedResponsesAreDecoded() throws IOException {
        String chunked = "HTTP/1.1 200 OK\r\nX-Request-Id: 3\r\nTransfer-Encoding: chunked\r\n\r\n"
                + "5\r\nHello\r\n8;x=y\r\n, World!\r\n0\r\nT: v\r\n\r\n";
        InputStream in = wire(chunked);
        assertNull(ResponseCheck.exact(3, HELLO).problem(Response.read(in, false)));
        assertNull(ResponseCheck.nothingMore(in));
    }

    @Test
    void malformedResponsesAreRefused() {
        List<String> malformed = List.of(
                "",                                                           // nothing: closed before a response
                "HTTP/1.1 200 OK\nContent-Length: 0\r\n\r\n",                 // bare LF
                "HTTP/1.0 200 OK\r\nContent-Length: 0\r\n\r\n",               // not HTTP/1.1
                "HTTP/1.1 2x0 OK\r\nContent-Length: 0\r\n\r\n",               // status not a number
                "HTTP/1.1 200 OK\r\nContent-Length: 5\r\n\r\nabc",            // body cut short
                "HTTP/1.1 200 OK\r\nContent-Length: 1\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n",
                "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n3\r\nabcd\r\n0\r\n\r\n",
                "HTTP/1.1 200 OK\r\nbad field\r\n\r\n");
        for (String text : malformed) {
            assertThrows(IOException.class, () -> Response.read(wire(text), false), text);
        }
    }

    @Test
    void resourcesOutsideFivePercentOfTheBaselineAreReported() {
        Baseline before = Baseline.of(40, "timers=0 threads=40 heap=10000000");
        assertEquals(List.of(), before.departures(Baseline.of(42, "timers=1 threads=38 heap=10500000")));
        assertEquals(List.of("fds 40 -> 43 (more than ±2)", "timers 0 -> 2 (more than ±1)",
                        "heap 10000000 -> 10600000 (more than ±500000)"),
                before.departures(Baseline.of(43, "timers=2 threads=40 heap=10600000")));
        assertThrows(IllegalArgumentException.class, () -> Baseline.of(1, "timers=0 threads=1"));
    }

    @Test
    void theMixPicksEveryKindByWeight() {
        int total = Traffic.Kind.totalWeight();
        java.util.Set<Traffic.Kind> seen = java.util.EnumSet.noneOf(Traffic.Kind.class);
        for (int roll = 0; roll < total; roll++) {
            seen.add(Traffic.Kind.pick(roll));
        }
        assertEquals(java.util.EnumSet.allOf(Traffic.Kind.class), seen);
        assertThrows(IllegalArgumentException.class, () -> Traffic.Kind.pick(total));
    }
}
