package dev.fleche.perf.soak;

import static java.nio.charset.StandardCharsets.US_ASCII;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.InputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.util.function.LongFunction;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The soak's clients against a fake server on a real socket: a correct answer is checked, and the answer of another
 * request, or one response too many, is counted as a problem (so the soak cannot pass with a server that mixes up
 * its responses).
 */
@Timeout(30)
class TrafficTest {

    /** Serves one connection: reads the head, takes its X-Request-Id, writes {@code answer(id)}, closes. */
    private static Thread serveOnce(ServerSocket listener, LongFunction<String> answer) {
        Thread thread = new Thread(() -> {
            try (Socket socket = listener.accept()) {
                InputStream in = socket.getInputStream();
                StringBuilder head = new StringBuilder();
                while (head.indexOf("\r\n\r\n") < 0) {
                    int b = in.read();
                    if (b < 0) {
                        return;
                    }
                    head.append((char) b);
                }
                int at = head.indexOf("X-Request-Id: ") + "X-Request-Id: ".length();
                long id = Long.parseLong(head.substring(at, head.indexOf("\r\n", at)));
                socket.getOutputStream().write(answer.apply(id).getBytes(US_ASCII));
            } catch (IOException e) {
                throw new java.io.UncheckedIOException(e);
            }
        });
        thread.start();
        return thread;
    }

    private static String hello(long id) {
        return "HTTP/1.1 200 OK\r\nX-Request-Id: " + id + "\r\nContent-Length: 13\r\n\r\nHello, World!";
    }

    private static Tally helloAgainst(LongFunction<String> answer) throws Exception {
        try (ServerSocket listener = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            Tally tally = new Tally();
            Thread server = serveOnce(listener, answer);
            new Traffic(listener.getLocalPort(), tally).run(Traffic.Kind.HELLO);
            server.join(10_000);
            return tally;
        }
    }

    @Test
    void aCorrectAnswerIsChecked() throws Exception {
        Tally tally = helloAgainst(TrafficTest::hello);
        assertEquals(1, tally.checkedTotal());
        assertEquals(0, tally.problemTotal(), tally.problems().toString());
    }

    @Test
    void theAnswerOfAnotherRequestIsAProblem() throws Exception {
        Tally tally = helloAgainst(id -> hello(id + 1));
        assertEquals(0, tally.checkedTotal());
        assertEquals(1, tally.problemTotal());
        assertTrue(tally.problems().get(0).contains("got the response of request"), tally.problems().toString());
    }

    @Test
    void aSecondResponseIsAProblem() throws Exception {
        Tally tally = helloAgainst(id -> hello(id) + hello(id));
        assertEquals(1, tally.problemTotal());
        assertTrue(tally.problems().get(0).contains("bytes after the last response"), tally.problems().toString());
    }

    @Test
    void aCloseWithoutAnswerIsAProblem() throws Exception {
        Tally tally = helloAgainst(id -> "");
        assertEquals(1, tally.problemTotal());
        assertTrue(tally.problems().get(0).contains("closed before a response"), tally.problems().toString());
    }
}
