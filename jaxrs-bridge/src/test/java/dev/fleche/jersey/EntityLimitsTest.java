package dev.fleche.jersey;

import com.fasterxml.jackson.jakarta.rs.json.JacksonJsonProvider;
import jakarta.annotation.Priority;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.ext.ReaderInterceptor;
import jakarta.ws.rs.ext.ReaderInterceptorContext;
import org.glassfish.jersey.server.ResourceConfig;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.io.ByteArrayOutputStream;
import java.io.FilterInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Arrays;
import java.util.concurrent.atomic.AtomicLong;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The default limits of request entities on Fleche + Jersey, in raw exchanges with exact bytes: an entity Jersey
 * buffers is held to {@value FlecheProperties#MAX_BUFFERED_ENTITY_BYTES} (10 MiB by default), refused before its
 * body is read (and before any {@code 100 Continue}) when its declared length says so, and as soon as a chunk goes
 * beyond; an entity the application streams has no limit by default.
 */
@Timeout(60)
class EntityLimitsTest {
    private static final long TEN_GIB = 10L << 30;
    private static final long DEFAULT_LIMIT = 10L << 20;
    /** What the reader of a buffered entity was given, in bytes (the counting interceptor below). */
    static final AtomicLong READ_BY_PROVIDER = new AtomicLong();

    private FlecheHttpServer server;

    public record Payment(String name, double amount) {
    }

    @Path("/")
    public static class Resource {
        @POST
        @Path("json")
        @Consumes(MediaType.APPLICATION_JSON)
        public Payment json(Payment payment) {
            return payment;
        }

        @POST
        @Path("text")
        public String text(String body) {
            return "read " + body.length();
        }

        /** Reads {@code bytes} bytes of the body (all of it when absent) and says how many it read. */
        @POST
        @Path("stream")
        public String stream(InputStream in, @QueryParam("bytes") Long bytes) throws IOException {
            long want = bytes == null ? Long.MAX_VALUE : bytes;
            byte[] buffer = new byte[64 * 1024];
            long total = 0;
            while (total < want) {
                int n = in.read(buffer, 0, (int) Math.min(buffer.length, want - total));
                if (n < 0) {
                    break;
                }
                total += n;
            }
            return "read " + total;
        }
    }

    /** Counts the bytes the entity providers take from the body. */
    @Priority(1)
    public static class Counting implements ReaderInterceptor {
        @Override
        public Object aroundReadFrom(ReaderInterceptorContext context) throws IOException {
            context.setInputStream(new FilterInputStream(context.getInputStream()) {
                @Override
                public int read() throws IOException {
                    int b = super.read();
                    if (b >= 0) {
                        READ_BY_PROVIDER.incrementAndGet();
                    }
                    return b;
                }

                @Override
                public int read(byte[] bytes, int offset, int length) throws IOException {
                    int n = super.read(bytes, offset, length);
                    if (n > 0) {
                        READ_BY_PROVIDER.addAndGet(n);
                    }
                    return n;
                }
            });
            return context.proceed();
        }
    }

    private void start(ResourceConfig config) {
        READ_BY_PROVIDER.set(0);
        server = FlecheHttpServerFactory.createServer(URI.create("http://127.0.0.1:0/"), config);
    }

    private static ResourceConfig application() {
        return new ResourceConfig(Resource.class).register(JacksonJsonProvider.class).register(Counting.class);
    }

    @AfterEach
    void stop() throws InterruptedException {
        if (server != null) {
            server.stop(Duration.ofSeconds(1));
        }
    }

    private static String tooLarge(long limit) {
        String body = "{\"type\":\"about:blank\",\"title\":\"Content Too Large\",\"status\":413,"
                + "\"detail\":\"request body larger than " + limit + " bytes\"}";
        return "HTTP/1.1 413 Content Too Large\r\n"
                + "Content-Type: application/problem+json\r\n"
                + "Date: *\r\n"
                + "Content-Length: " + body.length() + "\r\n"
                + "Connection: close\r\n"
                + "\r\n" + body;
    }

    @Test
    void tenGibibytesDeclaredToAJsonResourceIs413AtOnceWithoutContinue() throws Exception {
        start(application());
        String head = "POST /json HTTP/1.1\r\nHost: h\r\nContent-Type: application/json\r\n"
                + "Expect: 100-continue\r\nContent-Length: " + TEN_GIB + "\r\n\r\n";
        try (Exchange warmUp = new Exchange(server.port())) {
            warmUp.send(head);
            assertEquals(tooLarge(DEFAULT_LIMIT), warmUp.readToEnd());
        }
        long[] nanos = new long[5];
        for (int i = 0; i < nanos.length; i++) {
            try (Exchange raw = new Exchange(server.port())) {
                long start = System.nanoTime();
                raw.send(head);
                // no 100 Continue first, and nothing of the body was sent: the refusal comes before the body
                assertEquals(tooLarge(DEFAULT_LIMIT), raw.readToEnd());
                nanos[i] = System.nanoTime() - start;
            }
        }
        Arrays.sort(nanos);
        assertTrue(nanos[2] < 100_000_000L, "median time to the 413: " + nanos[2] / 1_000_000 + " ms");
        assertEquals(0, READ_BY_PROVIDER.get(), "no body byte reached an entity provider");
    }

    @Test
    void tenGibibytesDeclaredToAStreamingResourceGetsContinueAndStreams() throws Exception {
        start(application());
        long streamed = 200L << 20;
        try (Exchange raw = new Exchange(server.port())) {
            raw.send("POST /stream?bytes=" + streamed + " HTTP/1.1\r\nHost: h\r\nContent-Type: application/octet-stream\r\n"
                    + "Expect: 100-continue\r\nContent-Length: " + TEN_GIB + "\r\n\r\n");
            assertEquals("HTTP/1.1 100 Continue\r\n\r\n", raw.readHead());
            byte[] megabyte = new byte[1 << 20];
            for (long sent = 0; sent < streamed; sent += megabyte.length) {
                raw.out.write(megabyte);
            }
            raw.out.flush();
            String response = raw.readHead();
            assertTrue(response.startsWith("HTTP/1.1 200 OK\r\n"), response);
            assertEquals("read " + streamed, raw.readBody(response));
        }
    }

    @Test
    void aStreamedBodyOfKnownLengthHasNoLimit() throws Exception {
        start(application());
        long length = 64L << 20; // over the buffered limit
        try (Exchange raw = new Exchange(server.port())) {
            raw.send("POST /stream HTTP/1.1\r\nHost: h\r\nContent-Type: application/octet-stream\r\n"
                    + "Content-Length: " + length + "\r\n\r\n");
            byte[] megabyte = new byte[1 << 20];
            for (long sent = 0; sent < length; sent += megabyte.length) {
                raw.out.write(megabyte);
            }
            String response = raw.readHead();
            assertTrue(response.startsWith("HTTP/1.1 200 OK\r\n"), response);
            assertEquals("read " + length, raw.readBody(response));
        }
    }

    @Test
    void chunkedOverTheBufferedLimitIs413OnceCrossedAndNothingBeyondIsRead() throws Exception {
        long limit = 64 * 1024;
        start(application().property(FlecheProperties.MAX_BUFFERED_ENTITY_BYTES, limit));
        try (Exchange raw = new Exchange(server.port())) {
            raw.send("POST /text HTTP/1.1\r\nHost: h\r\nContent-Type: text/plain\r\nTransfer-Encoding: chunked\r\n\r\n");
            byte[] chunk = ("2000\r\n" + "c".repeat(0x2000) + "\r\n").getBytes(StandardCharsets.US_ASCII);
            try {
                for (int i = 0; i < 256; i++) { // 2 MiB at most, far beyond the limit
                    raw.out.write(chunk);
                    raw.out.flush();
                }
            } catch (IOException closedByTheServer) {
                // the server may close before all of it is sent
            }
            assertEquals(tooLarge(limit), raw.readToEnd());
        }
        assertTrue(READ_BY_PROVIDER.get() <= limit, "read by the provider: " + READ_BY_PROVIDER.get());
    }

    @Test
    void aChunkAnnouncingAGibibyteIsRefusedOnItsSizeLine() throws Exception {
        start(application());
        try (Exchange raw = new Exchange(server.port())) {
            raw.send("POST /json HTTP/1.1\r\nHost: h\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n"
                    + "\r\n1\r\n{\r\n40000000\r\n\"name\"");
            assertEquals(tooLarge(DEFAULT_LIMIT), raw.readToEnd());
        }
    }

    @Test
    void aContentLengthOverTheLimitIs413AndTheResourceIsNotCalled() throws Exception {
        start(application().property(FlecheProperties.MAX_BUFFERED_ENTITY_BYTES, 1000));
        try (Exchange raw = new Exchange(server.port())) {
            raw.send("POST /text HTTP/1.1\r\nHost: h\r\nContent-Type: text/plain\r\nContent-Length: 1001\r\n\r\n"
                    + "x".repeat(1001));
            assertEquals(tooLarge(1000), raw.readToEnd());
        }
        try (Exchange raw = new Exchange(server.port())) {
            raw.send("POST /text HTTP/1.1\r\nHost: h\r\nContent-Type: text/plain\r\nContent-Length: 1000\r\n"
                    + "Connection: close\r\n\r\n" + "x".repeat(1000));
            String response = raw.readHead();
            assertTrue(response.startsWith("HTTP/1.1 200 OK\r\n"), response);
            assertEquals("read 1000", raw.readBody(response));
        }
    }

    @Test
    void minusOneMeansNoLimit() throws Exception {
        start(application().property(FlecheProperties.MAX_BUFFERED_ENTITY_BYTES, -1));
        long length = 12L << 20; // over the default
        try (Exchange raw = new Exchange(server.port())) {
            raw.send("POST /text HTTP/1.1\r\nHost: h\r\nContent-Type: text/plain\r\nContent-Length: " + length
                    + "\r\n\r\n");
            byte[] megabyte = "y".repeat(1 << 20).getBytes(StandardCharsets.US_ASCII);
            for (long sent = 0; sent < length; sent += megabyte.length) {
                raw.out.write(megabyte);
            }
            String response = raw.readHead();
            assertTrue(response.startsWith("HTTP/1.1 200 OK\r\n"), response);
            assertEquals("read " + length, raw.readBody(response));
        }
    }

    @Test
    void theRequestBodyLimitBoundsStreamedEntitiesToo() throws Exception {
        start(application().property(FlecheProperties.MAX_REQUEST_BODY_BYTES, 4096));
        try (Exchange raw = new Exchange(server.port())) {
            raw.send("POST /stream HTTP/1.1\r\nHost: h\r\nContent-Type: application/octet-stream\r\n"
                    + "Expect: 100-continue\r\nContent-Length: 4097\r\n\r\n");
            assertEquals(tooLarge(4096), raw.readToEnd());
        }
    }

    /** One raw connection: writes bytes, reads the answer as ISO-8859-1 text with the {@code Date} value masked. */
    static final class Exchange implements AutoCloseable {
        private final Socket socket;
        final OutputStream out;
        private final InputStream in;

        Exchange(int port) throws IOException {
            socket = new Socket("127.0.0.1", port);
            socket.setSoTimeout(20_000);
            out = socket.getOutputStream();
            in = socket.getInputStream();
        }

        void send(String text) throws IOException {
            out.write(text.getBytes(StandardCharsets.ISO_8859_1));
            out.flush();
        }

        /** Everything until the server closes. */
        String readToEnd() throws IOException {
            ByteArrayOutputStream all = new ByteArrayOutputStream();
            byte[] buffer = new byte[8192];
            try {
                for (int n; (n = in.read(buffer)) >= 0; ) {
                    all.write(buffer, 0, n);
                }
            } catch (java.net.SocketException reset) {
                // a reset after the answer (the server stopped reading the rest of our body) ends it too
            }
            return masked(all.toString(StandardCharsets.ISO_8859_1));
        }

        /** One response head, up to and including its empty line. */
        String readHead() throws IOException {
            StringBuilder head = new StringBuilder();
            while (!head.toString().endsWith("\r\n\r\n")) {
                int b = in.read();
                if (b < 0) {
                    break;
                }
                head.append((char) b);
            }
            return masked(head.toString());
        }

        /** The body of the response whose head is {@code head} (by its {@code Content-Length}). */
        String readBody(String head) throws IOException {
            int at = head.indexOf("Content-Length: ");
            int length = Integer.parseInt(head.substring(at + 16, head.indexOf("\r\n", at)));
            return new String(in.readNBytes(length), StandardCharsets.ISO_8859_1);
        }

        private static String masked(String text) {
            return text.replaceFirst("Date: [^\r]*\r\n", "Date: *\r\n");
        }

        @Override
        public void close() throws IOException {
            socket.close();
        }
    }
}
