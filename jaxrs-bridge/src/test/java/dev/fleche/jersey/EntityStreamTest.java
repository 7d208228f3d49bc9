package dev.fleche.jersey;

import jakarta.annotation.Priority;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.container.ContainerRequestContext;
import jakarta.ws.rs.container.ContainerResponseContext;
import jakarta.ws.rs.container.ContainerResponseFilter;
import jakarta.ws.rs.container.DynamicFeature;
import jakarta.ws.rs.container.ResourceInfo;
import jakarta.ws.rs.core.FeatureContext;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import jakarta.ws.rs.core.StreamingOutput;
import jakarta.ws.rs.ext.ExceptionMapper;
import jakarta.ws.rs.ext.WriterInterceptor;
import jakarta.ws.rs.ext.WriterInterceptorContext;
import org.glassfish.grizzly.http.server.HttpServer;
import org.glassfish.jersey.grizzly2.httpserver.GrizzlyHttpServerFactory;
import org.glassfish.jersey.logging.LoggingFeature;
import org.glassfish.jersey.server.ChunkedOutput;
import org.glassfish.jersey.server.ResourceConfig;
import org.glassfish.jersey.server.ServerProperties;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.io.FilterOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
import java.util.logging.Handler;
import java.util.logging.Level;
import java.util.logging.LogRecord;
import java.util.logging.Logger;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Entities written through a stream that someone other than Jersey installed — a response filter's
 * {@code setEntityStream}, Jersey's {@code LoggingFeature} with payload logging, a {@code WriterInterceptor} — reach
 * the client as that stream makes them, with the framing Jersey's buffer gives on its other containers: a
 * {@code Content-Length} up to 8 KiB, chunked beyond (issue 35). Each application is served by Fleche and by Jersey's
 * Grizzly container, and every answer is compared byte for byte, framing included, over a raw socket.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class EntityStreamTest {
    private static final String LETTERS = "abcdefghijklmnopqrstuvwxyz";
    private static final BlockingQueue<String> PAYLOAD_LOG = new LinkedBlockingQueue<>();
    private static final Logger PAYLOAD_LOGGER = Logger.getLogger(EntityStreamTest.class.getName() + ".payload");
    private static final List<AutoCloseable> SERVERS = new ArrayList<>();

    private static Pair filtered;
    private static Pair dynamicallyFiltered;
    private static Pair logged;
    private static Pair interceptedAndFiltered;
    private static Pair interceptedFirst;
    private static Pair plain;

    /** {@code n} lower-case letters. */
    static String letters(int n) {
        StringBuilder text = new StringBuilder(n);
        while (text.length() < n) {
            text.append(LETTERS, 0, Math.min(LETTERS.length(), n - text.length()));
        }
        return text.toString();
    }

    @Path("/")
    @Produces(MediaType.TEXT_PLAIN)
    public static class Resource {
        @GET
        @Path("text/{n}")
        public String text(@PathParam("n") int n) {
            return letters(n);
        }

        /** Three chunks of a {@code ChunkedOutput}, written after the head from another thread. */
        @GET
        @Path("chunks")
        public ChunkedOutput<String> chunks() {
            ChunkedOutput<String> output = new ChunkedOutput<>(String.class);
            new Thread(() -> {
                try (output) {
                    for (String chunk : List.of("abc", "def", "ghi")) {
                        output.write(chunk);
                    }
                } catch (IOException e) {
                    throw new UncheckedIOException(e);
                }
            }).start();
            return output;
        }

        /** {@code n} letters, then the entity's writer fails. */
        @GET
        @Path("fail/{n}")
        public StreamingOutput fail(@PathParam("n") int n) {
            return out -> {
                byte[] bytes = letters(n).getBytes(StandardCharsets.US_ASCII);
                for (int at = 0; at < n; at += 1000) {
                    out.write(bytes, at, Math.min(1000, n - at));
                }
                throw new Refused("the entity's writer fails after " + n + " bytes");
            };
        }
    }

    /** What the failing entity throws: mapped to {@code 418} by {@link RefusedMapper}. */
    public static class Refused extends RuntimeException {
        Refused(String message) {
            super(message);
        }
    }

    public static class RefusedMapper implements ExceptionMapper<Refused> {
        @Override
        public Response toResponse(Refused refused) {
            return Response.status(418).type(MediaType.TEXT_PLAIN).entity("mapped").build();
        }
    }

    /** A response filter that upper-cases the entity, through {@code setEntityStream}. */
    public static class UpperCase implements ContainerResponseFilter {
        @Override
        public void filter(ContainerRequestContext request, ContainerResponseContext response) {
            response.setEntityStream(new FilterOutputStream(response.getEntityStream()) {
                @Override
                public void write(int b) throws IOException {
                    out.write(Character.toUpperCase(b));
                }

                @Override
                public void write(byte[] bytes, int offset, int length) throws IOException {
                    byte[] upper = new String(bytes, offset, length, StandardCharsets.ISO_8859_1)
                            .toUpperCase(Locale.ROOT).getBytes(StandardCharsets.ISO_8859_1);
                    out.write(upper);
                }
            });
        }
    }

    /** {@link UpperCase} on every resource method, from a dynamic feature (not a filter of the configuration). */
    public static class UpperCaseEverywhere implements DynamicFeature {
        @Override
        public void configure(ResourceInfo resource, FeatureContext context) {
            context.register(UpperCase.class);
        }
    }

    /** A writer interceptor that replaces every {@code a} with {@code @}, through {@code setOutputStream}. */
    public static class AtSign implements WriterInterceptor {
        @Override
        public void aroundWriteTo(WriterInterceptorContext context) throws IOException {
            context.setOutputStream(new FilterOutputStream(context.getOutputStream()) {
                @Override
                public void write(int b) throws IOException {
                    out.write(b == 'a' ? '@' : b);
                }

                @Override
                public void write(byte[] bytes, int offset, int length) throws IOException {
                    byte[] copy = new byte[length];
                    for (int i = 0; i < length; i++) {
                        copy[i] = bytes[offset + i] == 'a' ? (byte) '@' : bytes[offset + i];
                    }
                    out.write(copy);
                }
            });
            context.proceed();
        }
    }

    /** The same as {@link AtSign}, at the first priority there is: it may run before Fleche's own interceptor. */
    @Priority(Integer.MIN_VALUE)
    public static class EarliestAtSign extends AtSign {
    }

    /** One application on both containers. */
    record Pair(int fleche, int grizzly) {
        /** The answer of each container to {@code GET target}, checked to be the same, then Fleche's. */
        RawHttp get(String target) throws IOException {
            RawHttp onFleche = RawHttp.get(fleche, target);
            RawHttp onGrizzly = RawHttp.get(grizzly, target);
            assertEquals(onGrizzly.status(), onFleche.status(), target + ": status");
            assertEquals(onGrizzly.body(), onFleche.body(), target + ": body");
            assertEquals(onGrizzly.chunked(), onFleche.chunked(), target + ": chunked");
            assertEquals(onGrizzly.contentLength(), onFleche.contentLength(), target + ": Content-Length");
            assertEquals(onGrizzly.complete(), onFleche.complete(), target + ": complete");
            return onFleche;
        }
    }

    private static Pair serve(Supplier<ResourceConfig> application) {
        FlecheHttpServer fleche = FlecheHttpServerFactory.createServer(URI.create("http://127.0.0.1:0/"),
                application.get());
        SERVERS.add(() -> fleche.stop(Duration.ZERO));
        HttpServer grizzly = GrizzlyHttpServerFactory.createHttpServer(URI.create("http://127.0.0.1:0/"),
                application.get());
        SERVERS.add(grizzly::shutdownNow);
        return new Pair(fleche.port(), grizzly.getListeners().iterator().next().getPort());
    }

    private static ResourceConfig app(Object... components) {
        ResourceConfig config = new ResourceConfig(Resource.class, RefusedMapper.class)
                .property(ServerProperties.WADL_FEATURE_DISABLE, true);
        for (Object component : components) {
            if (component instanceof Class<?> type) {
                config.register(type);
            } else {
                config.register(component);
            }
        }
        return config;
    }

    @BeforeAll
    static void start() {
        PAYLOAD_LOGGER.setUseParentHandlers(false);
        PAYLOAD_LOGGER.setLevel(Level.ALL);
        PAYLOAD_LOGGER.addHandler(new Handler() {
            @Override
            public void publish(LogRecord record) {
                PAYLOAD_LOG.add(record.getMessage());
            }

            @Override
            public void flush() {
            }

            @Override
            public void close() {
            }
        });
        plain = serve(() -> app());
        filtered = serve(() -> app(UpperCase.class));
        dynamicallyFiltered = serve(() -> app(UpperCaseEverywhere.class));
        interceptedAndFiltered = serve(() -> app(UpperCase.class, AtSign.class));
        interceptedFirst = serve(() -> app(EarliestAtSign.class));
        logged = serve(() -> app(new LoggingFeature(PAYLOAD_LOGGER, Level.INFO, LoggingFeature.Verbosity.PAYLOAD_TEXT,
                100_000)));
    }

    @AfterAll
    static void stop() throws Exception {
        for (AutoCloseable server : SERVERS) {
            server.close();
        }
    }

    /** Within Jersey's 8 KiB buffer: a {@code Content-Length}; beyond it: chunked. As Grizzly does. */
    private static void assertFraming(RawHttp response, int n) {
        assertTrue(response.complete(), "complete");
        if (n <= 8192) {
            assertEquals(n, response.contentLength(), "Content-Length");
            assertFalse(response.chunked(), "chunked");
        } else {
            assertTrue(response.chunked(), "chunked");
            assertEquals(-1, response.contentLength(), "Content-Length");
        }
    }

    @ParameterizedTest
    @ValueSource(ints = {0, 5, 8192, 8193, 20_000})
    void aFilterThatReplacesTheEntityStreamSeesEveryByte(int n) throws IOException {
        RawHttp response = filtered.get("/text/" + n);
        assertEquals(200, response.status());
        assertEquals(letters(n).toUpperCase(Locale.ROOT), response.body());
        assertFraming(response, n);
    }

    @ParameterizedTest
    @ValueSource(ints = {0, 5, 8192, 8193, 20_000})
    void aFilterFromADynamicFeatureSeesEveryByte(int n) throws IOException {
        RawHttp response = dynamicallyFiltered.get("/text/" + n);
        assertEquals(letters(n).toUpperCase(Locale.ROOT), response.body());
        assertFraming(response, n);
    }

    @ParameterizedTest
    @ValueSource(ints = {0, 5, 8192, 8193, 20_000})
    void withNothingInstalledTheEntityIsAsWritten(int n) throws IOException {
        RawHttp response = plain.get("/text/" + n);
        assertEquals(letters(n), response.body());
        assertFraming(response, n);
    }

    @ParameterizedTest
    @ValueSource(ints = {5, 8192, 8193, 20_000})
    void loggingFeatureWithPayloadTextLogsTheBody(int n) throws IOException, InterruptedException {
        PAYLOAD_LOG.clear();
        RawHttp response = logged.get("/text/" + n); // one request to each container: two response records
        assertEquals(letters(n), response.body());
        assertFraming(response, n);
        for (int record = 0; record < 2; record++) {
            String logged = nextResponseRecord();
            assertTrue(logged.contains(letters(n)), () -> "the response record has the body: " + logged);
        }
    }

    /** The next record of a response, awaited (the logging interceptor writes it as the entity ends). */
    private static String nextResponseRecord() throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (System.nanoTime() < deadline) {
            String record = PAYLOAD_LOG.poll(deadline - System.nanoTime(), TimeUnit.NANOSECONDS);
            if (record != null && record.contains("Server responded with a response")) {
                return record;
            }
        }
        throw new AssertionError("no response record logged");
    }

    @ParameterizedTest
    @ValueSource(ints = {0, 5, 8192, 8193, 20_000})
    void aWriterInterceptorAndAFilterTogether(int n) throws IOException {
        RawHttp response = interceptedAndFiltered.get("/text/" + n);
        assertEquals(letters(n).replace('a', '@').toUpperCase(Locale.ROOT), response.body());
        assertFraming(response, n);
    }

    @ParameterizedTest
    @ValueSource(ints = {0, 5, 8192, 8193, 20_000})
    void aWriterInterceptorThatMayRunFirst(int n) throws IOException {
        RawHttp response = interceptedFirst.get("/text/" + n);
        assertEquals(letters(n).replace('a', '@'), response.body());
        assertFraming(response, n);
    }

    /** Within the buffer nothing was sent: the failure is mapped, on both containers. */
    /** Every chunk of a {@code ChunkedOutput} goes through the filter's stream as it is written. */
    @Test
    void chunksGoThroughAFilterThatReplacesTheEntityStream() throws IOException {
        RawHttp response = filtered.get("/chunks");
        assertEquals("ABCDEFGHI", response.body());
        assertTrue(response.chunked());
        assertTrue(response.complete());
    }

    @Test
    void anEntityFailingWithinTheBufferIsMapped() throws IOException {
        RawHttp response = plain.get("/fail/5");
        assertEquals(418, response.status());
        assertEquals("mapped", response.body());
    }

    /**
     * Under a filter's stream too: Jersey buffers the entity below that stream, as on Grizzly, so nothing was sent
     * and the failure is mapped (the mapper's entity goes through the same filter).
     */
    @Test
    void anEntityFailingWithinTheBufferUnderAFilterIsMapped() throws IOException {
        for (Pair pair : List.of(filtered, dynamicallyFiltered)) {
            RawHttp response = pair.get("/fail/5");
            assertEquals(418, response.status());
            assertEquals("MAPPED", response.body());
        }
    }

    /**
     * Past the buffer the head is out: Grizzly ends the response as if the entity were whole (a silent
     * truncation); Fleche cuts the connection, so the client sees an incomplete body (the switching guide's row).
     */
    @Test
    void anEntityFailingAfterTheBufferIsCutOnFlecheAndEndedOnGrizzly() throws IOException {
        for (Pair pair : List.of(plain, filtered)) {
            RawHttp onFleche = RawHttp.get(pair.fleche(), "/fail/20000");
            RawHttp onGrizzly = RawHttp.get(pair.grizzly(), "/fail/20000");
            assertEquals(200, onFleche.status());
            assertEquals(200, onGrizzly.status());
            assertTrue(onGrizzly.complete(), "Grizzly ends the chunked body normally");
            assertFalse(onFleche.complete(), "Fleche cuts it");
            assertNotNull(onFleche.fields().get("transfer-encoding"));
        }
    }
}
