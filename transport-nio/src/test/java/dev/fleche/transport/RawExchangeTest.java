package dev.fleche.transport;

import static java.nio.charset.StandardCharsets.ISO_8859_1;
import static java.nio.charset.StandardCharsets.UTF_8;
import static java.util.concurrent.TimeUnit.SECONDS;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.OutputStream;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Whole exchanges over a raw socket, compared byte for byte with the expected response ({@code Date} normalised
 * by {@link RawClient#normalize}). Handlers answer on a worker thread unless a test needs the reactor thread.
 */
class RawExchangeTest {
    private final ExecutorService workers = Executors.newCachedThreadPool();
    private final AtomicReference<Throwable> handlerFailure = new AtomicReference<>();
    private HttpServer server;

    @AfterEach
    void stop() throws Exception {
        if (server != null) {
            server.stop(Duration.ZERO);
        }
        workers.shutdownNow();
        assertNull(handlerFailure.get(), "a handler failed");
    }

    private void start(HttpHandler handler) throws Exception {
        start(RawClient.loopback(), handler);
    }

    private void start(ServerOptions.Builder options, HttpHandler handler) throws Exception {
        server = HttpServer.create(options.build(), handler).start();
    }

    /** Runs {@code work} on a worker thread, recording any failure for {@link #stop()}. */
    private void offReactor(Work work) {
        workers.execute(() -> {
            try {
                work.run();
            } catch (Throwable t) {
                handlerFailure.compareAndSet(null, t);
            }
        });
    }

    interface Work {
        void run() throws Exception;
    }

    private static HttpFields plain() {
        return new HttpFields().add("Content-Type", "text/plain");
    }

    private static byte[] bytes(String text) {
        return text.getBytes(UTF_8);
    }

    /** Answers "METHOD target\n" + the body + one line per trailer, read on a worker thread. */
    private HttpHandler echo() {
        return exchange -> offReactor(() -> {
            StringBuilder text = new StringBuilder()
                    .append(exchange.method()).append(' ').append(exchange.target()).append('\n')
                    .append(RawClient.utf8(exchange.requestBody()));
            exchange.trailers().forEach((name, value) -> text.append('\n').append(name).append(": ").append(value));
            exchange.respond(200, plain(), bytes(text.toString()));
        });
    }

    /** The echo handler's response to a body {@code text}. */
    private static String echoed(String text) {
        return """
                HTTP/1.1 200 OK\r
                Content-Type: text/plain\r
                Date: <date>\r
                Content-Length: %d\r
                \r
                %s""".formatted(text.length(), text);
    }

    // ---------------------------------------------------------------- persistence and pipelining

    @Test
    void keepAliveServesTwoRequestsOnOneConnection() throws Exception {
        start(echo());
        try (RawClient client = RawClient.connect(server)) {
            client.send("""
                    GET /one HTTP/1.1\r
                    Host: test\r
                    \r
                    """);
            assertEquals("""
                    HTTP/1.1 200 OK\r
                    Content-Type: text/plain\r
                    Date: <date>\r
                    Content-Length: 9\r
                    \r
                    GET /one
                    """, client.readResponse());
            client.send("""
                    GET /two?x=1 HTTP/1.1\r
                    Host: test\r
                    \r
                    """);
            assertEquals("""
                    HTTP/1.1 200 OK\r
                    Content-Type: text/plain\r
                    Date: <date>\r
                    Content-Length: 13\r
                    \r
                    GET /two?x=1
                    """, client.readResponse());
        }
        assertEquals(1, server.metrics().acceptedConnections());
        assertEquals(2, server.metrics().requests());
    }

    @Test
    void pipelinedRequestsAreAnsweredInOrderOneAtATime() throws Exception {
        AtomicInteger inFlight = new AtomicInteger();
        AtomicInteger maxInFlight = new AtomicInteger();
        start(exchange -> {
            maxInFlight.accumulateAndGet(inFlight.incrementAndGet(), Math::max);
            offReactor(() -> {
                String text = exchange.method() + " " + exchange.target() + "\n"
                        + RawClient.utf8(exchange.requestBody());
                inFlight.decrementAndGet(); // before the response: the next request may be dispatched at once
                exchange.respond(200, plain(), bytes(text));
            });
        });
        StringBuilder requests = new StringBuilder();
        StringBuilder expected = new StringBuilder();
        for (int i = 0; i < 10; i++) {
            if (i == 4) {
                requests.append("""
                        POST /4 HTTP/1.1\r
                        Host: test\r
                        Content-Length: 11\r
                        \r
                        hello=world""");
                expected.append(echoed("POST /4\nhello=world"));
            } else {
                requests.append("GET /" + i + " HTTP/1.1\r\nHost: test\r\n\r\n");
                expected.append(echoed("GET /" + i + "\n"));
            }
        }
        try (RawClient client = RawClient.connect(server)) {
            client.send(requests.toString()); // one write
            StringBuilder received = new StringBuilder();
            for (int i = 0; i < 10; i++) {
                received.append(client.readResponse());
            }
            assertEquals(expected.toString(), received.toString());
        }
        assertEquals(1, maxInFlight.get(), "a pipelined request was dispatched before the previous response");
    }

    @Test
    void http10WithoutKeepAliveIsClosedAfterTheResponse() throws Exception {
        start(echo());
        try (RawClient client = RawClient.connect(server)) {
            client.send("""
                    GET /ten HTTP/1.0\r
                    \r
                    """);
            assertEquals("""
                    HTTP/1.1 200 OK\r
                    Content-Type: text/plain\r
                    Date: <date>\r
                    Content-Length: 9\r
                    Connection: close\r
                    \r
                    GET /ten
                    """, client.readResponse());
            client.assertEof();
        }
    }

    @Test
    void http10WithKeepAliveStaysOpen() throws Exception {
        start(echo());
        try (RawClient client = RawClient.connect(server)) {
            client.send("""
                    GET /ten HTTP/1.0\r
                    Connection: keep-alive\r
                    \r
                    """);
            assertEquals("""
                    HTTP/1.1 200 OK\r
                    Content-Type: text/plain\r
                    Date: <date>\r
                    Content-Length: 9\r
                    Connection: keep-alive\r
                    \r
                    GET /ten
                    """, client.readResponse());
            client.send("""
                    GET /again HTTP/1.0\r
                    \r
                    """);
            assertEquals("""
                    HTTP/1.1 200 OK\r
                    Content-Type: text/plain\r
                    Date: <date>\r
                    Content-Length: 11\r
                    Connection: close\r
                    \r
                    GET /again
                    """, client.readResponse());
            client.assertEof();
        }
        assertEquals(1, server.metrics().acceptedConnections());
    }

    @Test
    void connectionCloseFromTheClientClosesAfterTheResponse() throws Exception {
        start(echo());
        try (RawClient client = RawClient.connect(server)) {
            client.send("""
                    GET /bye HTTP/1.1\r
                    Host: test\r
                    Connection: close\r
                    \r
                    """);
            assertEquals("""
                    HTTP/1.1 200 OK\r
                    Content-Type: text/plain\r
                    Date: <date>\r
                    Content-Length: 9\r
                    Connection: close\r
                    \r
                    GET /bye
                    """, client.readResponse());
            client.assertEof();
        }
    }

    // ---------------------------------------------------------------- request bodies

    @Test
    void chunkedRequestBodyIsStreamedToTheHandlerWithItsTrailers() throws Exception {
        CompletableFuture<String> firstRead = new CompletableFuture<>();
        start(exchange -> offReactor(() -> {
            assertEquals(-1, exchange.contentLength());
            firstRead.complete(new String(exchange.requestBody().readNBytes(5), UTF_8));
            String rest = RawClient.utf8(exchange.requestBody());
            exchange.respond(200, plain(), bytes(exchange.method() + " " + exchange.target() + "\nhello" + rest
                    + "\nX-Checksum: " + exchange.trailers().get("x-checksum")));
        }));
        try (RawClient client = RawClient.connect(server)) {
            client.send("""
                    POST /upload HTTP/1.1\r
                    Host: test\r
                    Transfer-Encoding: chunked\r
                    \r
                    5\r
                    hello\r
                    """);
            // The handler gets the first chunk while the rest of the body has not been sent.
            assertEquals("hello", firstRead.get(5, SECONDS));
            client.send("""
                    6\r
                     world\r
                    0\r
                    X-Checksum: 42\r
                    \r
                    """);
            assertEquals("""
                    HTTP/1.1 200 OK\r
                    Content-Type: text/plain\r
                    Date: <date>\r
                    Content-Length: 39\r
                    \r
                    POST /upload
                    hello world
                    X-Checksum: 42""", client.readResponse());
        }
    }

    @Test
    void unreadSmallBodyIsDrainedAndTheNextRequestAnswered() throws Exception {
        AtomicInteger calls = new AtomicInteger();
        start(exchange -> {
            calls.incrementAndGet();
            exchange.respond(200, plain(), bytes("ignored\n")); // never reads the body
        });
        String body = "x".repeat(30_000); // above bodyAggregationBytes, below maxDiscardBytes
        try (RawClient client = RawClient.connect(server)) {
            client.send("""
                    POST /ignore HTTP/1.1\r
                    Host: test\r
                    Content-Length: 30000\r
                    \r
                    """);
            assertEquals("""
                    HTTP/1.1 200 OK\r
                    Content-Type: text/plain\r
                    Date: <date>\r
                    Content-Length: 8\r
                    \r
                    ignored
                    """, client.readResponse());
            client.send(body + """
                    GET /next HTTP/1.1\r
                    Host: test\r
                    \r
                    """);
            assertEquals("""
                    HTTP/1.1 200 OK\r
                    Content-Type: text/plain\r
                    Date: <date>\r
                    Content-Length: 8\r
                    \r
                    ignored
                    """, client.readResponse());
        }
        assertEquals(2, calls.get());
    }

    @Test
    void unreadBodyLargerThanMaxDrainBytesClosesTheConnection() throws Exception {
        start(RawClient.loopback().maxDiscardBytes(64 * 1024),
                exchange -> exchange.respond(200, plain(), bytes("ignored\n")));
        try (RawClient client = RawClient.connect(server)) {
            client.send("""
                    POST /ignore HTTP/1.1\r
                    Host: test\r
                    Content-Length: 100000\r
                    \r
                    """);
            assertEquals("""
                    HTTP/1.1 200 OK\r
                    Content-Type: text/plain\r
                    Date: <date>\r
                    Content-Length: 8\r
                    Connection: close\r
                    \r
                    ignored
                    """, client.readResponse());
            client.assertEof();
        }
    }

    // ---------------------------------------------------------------- 100-continue

    @Test
    void continueIsSentOnlyWhenTheHandlerStartsReading() throws Exception {
        CountDownLatch reactorTurnDone = new CountDownLatch(1);
        CountDownLatch mayRead = new CountDownLatch(1);
        start(exchange -> offReactor(() -> {
            // A task queued now runs after the reactor has flushed whatever the dispatch produced.
            exchange.execute(reactorTurnDone::countDown);
            assertTrue(mayRead.await(5, SECONDS));
            String body = RawClient.utf8(exchange.requestBody());
            exchange.respond(200, plain(), bytes(exchange.method() + " " + exchange.target() + "\n" + body));
        }));
        try (RawClient client = RawClient.connect(server)) {
            client.send("""
                    POST /continue HTTP/1.1\r
                    Host: test\r
                    Content-Length: 5\r
                    Expect: 100-continue\r
                    \r
                    """);
            assertTrue(reactorTurnDone.await(5, SECONDS));
            assertEquals(0, client.available(), "100 Continue sent before the handler read the body");
            mayRead.countDown();
            assertEquals("HTTP/1.1 100 Continue\r\n\r\n", client.readResponse());
            client.send("hello");
            assertEquals("""
                    HTTP/1.1 200 OK\r
                    Content-Type: text/plain\r
                    Date: <date>\r
                    Content-Length: 20\r
                    \r
                    POST /continue
                    hello""", client.readResponse());
        }
    }

    @ParameterizedTest
    @CsvSource({"413, Content Too Large", "417, Expectation Failed"})
    void finalAnswerWithoutReadingSkipsContinueAndCloses(int status, String reason) throws Exception {
        start(exchange -> offReactor(() -> exchange.respond(status, plain(), bytes("refused\n"))));
        try (RawClient client = RawClient.connect(server)) {
            client.send("""
                    PUT /big HTTP/1.1\r
                    Host: test\r
                    Content-Length: 5000000\r
                    Expect: 100-continue\r
                    \r
                    """);
            assertEquals("""
                    HTTP/1.1 %d %s\r
                    Content-Type: text/plain\r
                    Date: <date>\r
                    Content-Length: 8\r
                    Connection: close\r
                    \r
                    refused
                    """.formatted(status, reason), client.readResponse());
            client.assertEof();
        }
    }

    // ---------------------------------------------------------------- streamed responses

    @Test
    void chunkedResponseIsFramedAndEachFlushIsWrittenAtOnce() throws Exception {
        CountDownLatch firstChunkSeen = new CountDownLatch(1);
        start(exchange -> offReactor(() -> {
            try (OutputStream body = exchange.startResponse(200, plain(), -1)) {
                body.write(bytes("hello"));
                body.flush();
                assertTrue(firstChunkSeen.await(5, SECONDS), "the first chunk never reached the client");
                body.write(bytes(" chunked"));
                body.flush();
                body.write(bytes(" world"));
            }
        }));
        try (RawClient client = RawClient.connect(server)) {
            client.send("GET /stream HTTP/1.1\r\nHost: test\r\n\r\n");
            assertEquals("""
                    HTTP/1.1 200 OK\r
                    Content-Type: text/plain\r
                    Date: <date>\r
                    Transfer-Encoding: chunked\r
                    \r
                    5\r
                    hello\r
                    """, client.readUntil("hello\r\n"));
            firstChunkSeen.countDown();
            assertEquals("""
                    8\r
                     chunked\r
                    6\r
                     world\r
                    0\r
                    \r
                    """, client.readUntil("0\r\n\r\n"));
            client.send("GET /stream HTTP/1.1\r\nHost: test\r\nConnection: close\r\n\r\n"); // latch open now
            assertEquals("""
                    HTTP/1.1 200 OK\r
                    Content-Type: text/plain\r
                    Date: <date>\r
                    Transfer-Encoding: chunked\r
                    Connection: close\r
                    \r
                    5\r
                    hello\r
                    8\r
                     chunked\r
                    6\r
                     world\r
                    0\r
                    \r
                    """, client.readResponse());
            client.assertEof();
        }
    }

    @Test
    void streamOfUnknownLengthToAnHttp10ClientIsDelimitedByClose() throws Exception {
        // RFC 9112 6.1: no Transfer-Encoding in a response to HTTP/1.0; the end of the body is the close.
        start(exchange -> offReactor(() -> {
            try (OutputStream body = exchange.startResponse(200, plain(), -1)) {
                body.write(bytes("hello"));
                body.flush();
                body.write(bytes(" world"));
            }
        }));
        try (RawClient client = RawClient.connect(server)) {
            client.send("""
                    GET /stream HTTP/1.0\r
                    Connection: keep-alive\r
                    \r
                    """);
            assertEquals("""
                    HTTP/1.1 200 OK\r
                    Content-Type: text/plain\r
                    Date: <date>\r
                    Connection: close\r
                    \r
                    hello world""", client.readToEof());
        }
    }

    @Test
    void streamedResponseWithAKnownLength() throws Exception {
        start(exchange -> offReactor(() -> {
            try (OutputStream body = exchange.startResponse(200, plain(), 11)) {
                body.write(bytes("hello "));
                body.flush();
                body.write(bytes("world"));
            }
        }));
        try (RawClient client = RawClient.connect(server)) {
            client.send("GET /fixed HTTP/1.1\r\nHost: test\r\n\r\n");
            assertEquals("""
                    HTTP/1.1 200 OK\r
                    Content-Type: text/plain\r
                    Date: <date>\r
                    Content-Length: 11\r
                    \r
                    hello world""", client.readResponse());
            client.send("GET /fixed HTTP/1.1\r\nHost: test\r\n\r\n");
            assertTrue(client.readResponse().endsWith("\r\n\r\nhello world"));
        }
    }

    @Test
    void largeStreamedResponseWithAKnownLength() throws Exception {
        int length = 1_000_000;
        byte[] pattern = new byte[length];
        for (int i = 0; i < length; i++) {
            pattern[i] = (byte) ('a' + i % 26);
        }
        start(exchange -> offReactor(() -> {
            try (OutputStream body = exchange.startResponse(200, plain(), length)) {
                for (int at = 0; at < length; at += 1000) {
                    body.write(pattern, at, 1000);
                }
            }
        }));
        try (RawClient client = RawClient.connect(server)) {
            client.send("GET /large HTTP/1.1\r\nHost: test\r\n\r\n");
            assertEquals("""
                    HTTP/1.1 200 OK\r
                    Content-Type: text/plain\r
                    Date: <date>\r
                    Content-Length: 1000000\r
                    \r
                    """ + new String(pattern, ISO_8859_1), client.readResponse());
        }
    }

    // ---------------------------------------------------------------- responses without a body

    @Test
    void headHasTheHeadersOfGetAndNoBody() throws Exception {
        start(exchange -> exchange.respond(200, plain(), bytes("hello")));
        try (RawClient client = RawClient.connect(server)) {
            client.send("GET /r HTTP/1.1\r\nHost: test\r\n\r\n");
            assertEquals("""
                    HTTP/1.1 200 OK\r
                    Content-Type: text/plain\r
                    Date: <date>\r
                    Content-Length: 5\r
                    \r
                    hello""", client.readResponse());
            client.send("HEAD /r HTTP/1.1\r\nHost: test\r\n\r\n");
            assertEquals("""
                    HTTP/1.1 200 OK\r
                    Content-Type: text/plain\r
                    Date: <date>\r
                    Content-Length: 5\r
                    \r
                    """, client.readHeadResponse());
            // Had the body been sent after the HEAD response, this response would start with it.
            client.send("GET /r HTTP/1.1\r\nHost: test\r\n\r\n");
            assertTrue(client.readResponse().startsWith("HTTP/1.1 200 OK\r\n"));
        }
    }

    @Test
    void headOnAStreamedResponseOfKnownLengthNeedsNoBodyBytes() throws Exception {
        start(exchange -> offReactor(() -> {
            // A HEAD handler declares the GET length and writes nothing: the connection must stay usable.
            exchange.startResponse(200, plain(), 11).close();
        }));
        try (RawClient client = RawClient.connect(server)) {
            client.send("HEAD /known HTTP/1.1\r\nHost: test\r\n\r\n");
            assertEquals("""
                    HTTP/1.1 200 OK\r
                    Content-Type: text/plain\r
                    Date: <date>\r
                    Content-Length: 11\r
                    \r
                    """, client.readHeadResponse());
            client.send("HEAD /known HTTP/1.1\r\nHost: test\r\n\r\n");
            assertTrue(client.readHeadResponse().startsWith("HTTP/1.1 200 OK\r\n"));
        }
    }

    @Test
    void headOnAChunkedStreamedResponseSendsNoBodyBytes() throws Exception {
        start(exchange -> offReactor(() -> {
            try (OutputStream body = exchange.startResponse(200, plain(), -1)) {
                body.write(bytes("hello"));
                body.flush();
                body.write(bytes(" world"));
            }
        }));
        try (RawClient client = RawClient.connect(server)) {
            client.send("HEAD /stream HTTP/1.1\r\nHost: test\r\n\r\n");
            assertEquals("""
                    HTTP/1.1 200 OK\r
                    Content-Type: text/plain\r
                    Date: <date>\r
                    Transfer-Encoding: chunked\r
                    \r
                    """, client.readHeadResponse());
            client.send("GET /stream HTTP/1.1\r\nHost: test\r\n\r\n");
            assertEquals("""
                    HTTP/1.1 200 OK\r
                    Content-Type: text/plain\r
                    Date: <date>\r
                    Transfer-Encoding: chunked\r
                    \r
                    5\r
                    hello\r
                    6\r
                     world\r
                    0\r
                    \r
                    """, client.readResponse());
        }
    }

    @Test
    void noContentAndNotModifiedCarryNoBodyAndNoLength() throws Exception {
        start(exchange -> {
            if (exchange.path().equals("/204")) {
                // A body given for 204 must not be sent.
                exchange.respond(204, new HttpFields(), bytes("not sent"));
            } else {
                exchange.respond(304, new HttpFields().add("ETag", "\"v1\""), new byte[0]);
            }
        });
        try (RawClient client = RawClient.connect(server)) {
            client.send("DELETE /204 HTTP/1.1\r\nHost: test\r\n\r\n");
            assertEquals("""
                    HTTP/1.1 204 No Content\r
                    Date: <date>\r
                    \r
                    """, client.readResponse());
            client.send("GET /304 HTTP/1.1\r\nHost: test\r\nIf-None-Match: \"v1\"\r\n\r\n");
            assertEquals("""
                    HTTP/1.1 304 Not Modified\r
                    ETag: "v1"\r
                    Date: <date>\r
                    \r
                    """, client.readResponse());
            client.send("GET /304 HTTP/1.1\r\nHost: test\r\nConnection: close\r\n\r\n");
            assertEquals("""
                    HTTP/1.1 304 Not Modified\r
                    ETag: "v1"\r
                    Date: <date>\r
                    Connection: close\r
                    \r
                    """, client.readResponse());
            client.assertEof(); // nothing else arrived: no stray body bytes
        }
    }

    // ---------------------------------------------------------------- errors from the transport

    private void assertRejected(String request, String expected) throws Exception {
        try (RawClient client = RawClient.connect(server)) {
            client.send(request);
            assertEquals(expected, client.readResponse());
            client.assertEof();
        }
        Await.until("protocol error counted", () -> server.metrics().protocolErrors() == 1);
    }

    @Test
    void badRequestLineIs400() throws Exception {
        start(echo());
        assertRejected("GET  / HTTP/1.1\r\nHost: test\r\n\r\n", """
                HTTP/1.1 400 Bad Request\r
                Content-Type: text/plain; charset=utf-8\r
                Date: <date>\r
                Content-Length: 23\r
                Connection: close\r
                \r
                Malformed request line
                """);
    }

    @Test
    void requestLineTooLongIs414() throws Exception {
        start(echo());
        assertRejected("GET /" + "a".repeat(8200), """
                HTTP/1.1 414 URI Too Long\r
                Content-Type: text/plain; charset=utf-8\r
                Date: <date>\r
                Content-Length: 22\r
                Connection: close\r
                \r
                Request line too long
                """);
    }

    @Test
    void headerSectionTooLargeIs431() throws Exception {
        start(echo());
        assertRejected("GET / HTTP/1.1\r\nHost: test\r\nX-Big: " + "a".repeat(17_000), """
                HTTP/1.1 431 Request Header Fields Too Large\r
                Content-Type: text/plain; charset=utf-8\r
                Date: <date>\r
                Content-Length: 32\r
                Connection: close\r
                \r
                Request header fields too large
                """);
    }

    @Test
    void contentLengthOverMaxBodyBytesIs413WithoutReadingTheBody() throws Exception {
        AtomicInteger calls = new AtomicInteger();
        start(RawClient.loopback().maxBodyBytes(1000), exchange -> calls.incrementAndGet());
        // Only the head is sent: the answer must not wait for the 1001 bytes announced.
        assertRejected("""
                POST /upload HTTP/1.1\r
                Host: test\r
                Content-Length: 1001\r
                \r
                """, """
                HTTP/1.1 413 Content Too Large\r
                Content-Type: text/plain; charset=utf-8\r
                Date: <date>\r
                Content-Length: 36\r
                Connection: close\r
                \r
                request body larger than 1000 bytes
                """);
        assertEquals(0, calls.get(), "the handler was called");
    }

    @Test
    void chunkedBodyOverMaxBodyBytesIs413AndFailsTheReader() throws Exception {
        CompletableFuture<Throwable> readerFailure = new CompletableFuture<>();
        start(RawClient.loopback().maxBodyBytes(10), exchange -> workers.execute(() -> {
            try {
                exchange.requestBody().readAllBytes();
                readerFailure.complete(null);
            } catch (Throwable t) {
                readerFailure.complete(t);
            }
        }));
        assertRejected("""
                POST /upload HTTP/1.1\r
                Host: test\r
                Transfer-Encoding: chunked\r
                \r
                5\r
                hello\r
                6\r
                 world\r
                """, """
                HTTP/1.1 413 Content Too Large\r
                Content-Type: text/plain; charset=utf-8\r
                Date: <date>\r
                Content-Length: 34\r
                Connection: close\r
                \r
                request body larger than 10 bytes
                """);
        assertTrue(readerFailure.get(5, SECONDS) instanceof java.io.IOException,
                "the handler's read ended with " + readerFailure.get());
    }

    @Test
    void unsupportedVersionIs505() throws Exception {
        start(echo());
        assertRejected("GET / HTTP/2.0\r\nHost: test\r\n\r\n", """
                HTTP/1.1 505 HTTP Version Not Supported\r
                Content-Type: text/plain; charset=utf-8\r
                Date: <date>\r
                Content-Length: 27\r
                Connection: close\r
                \r
                HTTP version not supported
                """);
    }

    @Test
    void contentLengthWithTransferEncodingIs400() throws Exception {
        start(echo());
        assertRejected("""
                POST / HTTP/1.1\r
                Host: test\r
                Content-Length: 5\r
                Transfer-Encoding: chunked\r
                \r
                0\r
                \r
                """, """
                HTTP/1.1 400 Bad Request\r
                Content-Type: text/plain; charset=utf-8\r
                Date: <date>\r
                Content-Length: 38\r
                Connection: close\r
                \r
                Content-Length with Transfer-Encoding
                """);
    }

    // ---------------------------------------------------------------- handler failures

    @Test
    void handlerThatThrowsGets500AndTheConnectionStaysUsable() throws Exception {
        start(exchange -> {
            if (exchange.path().equals("/boom")) {
                throw new IllegalStateException("boom");
            }
            exchange.respond(200, plain(), bytes("fine\n"));
        });
        try (RawClient client = RawClient.connect(server)) {
            client.send("GET /boom HTTP/1.1\r\nHost: test\r\n\r\n");
            assertEquals("""
                    HTTP/1.1 500 Internal Server Error\r
                    Content-Type: text/plain; charset=utf-8\r
                    Date: <date>\r
                    Content-Length: 22\r
                    \r
                    internal server error
                    """, client.readResponse());
            client.send("GET /ok HTTP/1.1\r\nHost: test\r\n\r\n");
            assertEquals("""
                    HTTP/1.1 200 OK\r
                    Content-Type: text/plain\r
                    Date: <date>\r
                    Content-Length: 5\r
                    \r
                    fine
                    """, client.readResponse());
        }
        assertEquals(1, server.metrics().handlerErrors());
    }

    @Test
    void responseHeaderValueWithCrLfIsRefused() throws Exception {
        start(exchange -> exchange.respond(200,
                new HttpFields().add("X-Note", "a\r\nSet-Cookie: stolen=1"), bytes("hello")));
        try (RawClient client = RawClient.connect(server)) {
            client.send("GET /split HTTP/1.1\r\nHost: test\r\n\r\n");
            assertEquals("""
                    HTTP/1.1 500 Internal Server Error\r
                    Content-Type: text/plain; charset=utf-8\r
                    Date: <date>\r
                    Content-Length: 24\r
                    Connection: close\r
                    \r
                    invalid response header
                    """, client.readToEof());
        }
    }

    @Test
    void refusedResponseHeaderDoesNotDiscardTheResponseBeforeIt() throws Exception {
        // Both answered on the reactor while it is still parsing the same read: the first response is staged,
        // not yet written, when the second one is refused.
        start(exchange -> exchange.respond(200, exchange.path().equals("/split")
                ? new HttpFields().add("X-Note", "a\r\nSet-Cookie: stolen=1") : plain(), bytes("hello")));
        try (RawClient client = RawClient.connect(server)) {
            client.send("""
                    GET /ok HTTP/1.1\r
                    Host: test\r
                    \r
                    GET /split HTTP/1.1\r
                    Host: test\r
                    \r
                    """);
            assertEquals("""
                    HTTP/1.1 200 OK\r
                    Content-Type: text/plain\r
                    Date: <date>\r
                    Content-Length: 5\r
                    \r
                    helloHTTP/1.1 500 Internal Server Error\r
                    Content-Type: text/plain; charset=utf-8\r
                    Date: <date>\r
                    Content-Length: 24\r
                    Connection: close\r
                    \r
                    invalid response header
                    """, client.readToEof());
        }
    }

    @Test
    void streamedResponseHeaderValueWithCrLfIsRefused() throws Exception {
        start(exchange -> offReactor(() -> {
            try (OutputStream body = exchange.startResponse(200,
                    new HttpFields().add("X-Note", "a\nSet-Cookie: stolen=1"), -1)) {
                body.write(bytes("hello"));
            } catch (java.io.IOException expected) {
                // the connection is closed after the 500
            }
        }));
        try (RawClient client = RawClient.connect(server)) {
            client.send("GET /split HTTP/1.1\r\nHost: test\r\n\r\n");
            assertEquals("""
                    HTTP/1.1 500 Internal Server Error\r
                    Content-Type: text/plain; charset=utf-8\r
                    Date: <date>\r
                    Content-Length: 24\r
                    Connection: close\r
                    \r
                    invalid response header
                    """, client.readToEof());
        }
    }
}
