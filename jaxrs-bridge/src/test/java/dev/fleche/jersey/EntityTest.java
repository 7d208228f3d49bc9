package dev.fleche.jersey;

import com.fasterxml.jackson.jakarta.rs.json.JacksonJsonProvider;
import dev.fleche.transport.testing.RawHttp;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.client.Entity;
import jakarta.ws.rs.core.Application;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import jakarta.ws.rs.core.StreamingOutput;
import org.glassfish.jersey.server.ChunkedOutput;
import org.glassfish.jersey.server.ResourceConfig;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.io.InputStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

/** Content negotiation, JSON through Jackson, and large streamed entities both ways. */
class EntityTest extends FlecheJerseyTest {
    static final long BIG = 64L * 1024 * 1024;
    static final CountDownLatch FIRST_PART_SEEN = new CountDownLatch(1);

    /** A JSON bean. */
    public static class Payment {
        public String name;
        public double amount;

        public Payment() {
        }

        Payment(String name, double amount) {
            this.name = name;
            this.amount = amount;
        }
    }

    @Path("entity")
    public static class Entities {
        @GET
        @Path("negotiate")
        @Produces({MediaType.TEXT_PLAIN, MediaType.APPLICATION_JSON, MediaType.TEXT_HTML})
        public Response negotiate(@jakarta.ws.rs.core.Context jakarta.ws.rs.core.HttpHeaders headers) {
            MediaType type = headers.getAcceptableMediaTypes().get(0);
            String body = type.isCompatible(MediaType.APPLICATION_JSON_TYPE) ? "{\"kind\":\"json\"}"
                    : type.isCompatible(MediaType.TEXT_HTML_TYPE) ? "<p>html</p>" : "plain";
            return Response.ok(body).build();
        }

        @GET
        @Path("variants")
        @Produces(MediaType.TEXT_PLAIN)
        public String plain() {
            return "plain variant";
        }

        @GET
        @Path("variants")
        @Produces(MediaType.APPLICATION_JSON)
        public Payment json() {
            return new Payment("json variant", 1.5);
        }

        @POST
        @Path("echo")
        @Consumes(MediaType.APPLICATION_JSON)
        @Produces(MediaType.APPLICATION_JSON)
        public Payment echo(Payment payment) {
            return new Payment(payment.name + "!", payment.amount * 2);
        }

        @POST
        @Path("upload")
        @Consumes(MediaType.APPLICATION_OCTET_STREAM)
        @Produces(MediaType.TEXT_PLAIN)
        public String upload(InputStream in) throws IOException {
            byte[] buffer = new byte[65536];
            long count = 0;
            long mismatches = 0;
            for (int n = in.read(buffer); n >= 0; n = in.read(buffer)) {
                for (int i = 0; i < n; i++) {
                    if (buffer[i] != pattern(count + i)) {
                        mismatches++;
                    }
                }
                count += n;
            }
            return count + " bytes, " + mismatches + " mismatches";
        }

        @GET
        @Path("download")
        @Produces(MediaType.APPLICATION_OCTET_STREAM)
        public StreamingOutput download(@QueryParam("size") long size) {
            return out -> {
                byte[] buffer = new byte[65536];
                for (long at = 0; at < size; at += buffer.length) {
                    int n = (int) Math.min(buffer.length, size - at);
                    for (int i = 0; i < n; i++) {
                        buffer[i] = pattern(at + i);
                    }
                    out.write(buffer, 0, n);
                }
            };
        }

        /**
         * An entity that fails after some bytes: within the first 8 KiB nothing was committed, so the failure is
         * mapped to a whole response; past them the response is streamed and can only be cut.
         */
        @GET
        @Path("fails")
        @Produces(MediaType.TEXT_PLAIN)
        public StreamingOutput fails(@QueryParam("after") int after) {
            return out -> {
                out.write("x".repeat(after).getBytes(StandardCharsets.UTF_8));
                out.flush();
                throw new jakarta.ws.rs.WebApplicationException(
                        Response.status(418).entity("mapped").type(MediaType.TEXT_PLAIN).build());
            };
        }

        /** Jersey buffers the first 8 KiB to learn the length (flushes included): the first part is larger. */
        @GET
        @Path("flush")
        @Produces(MediaType.TEXT_PLAIN)
        public StreamingOutput flush() {
            return out -> {
                out.write(FIRST_PART.getBytes(StandardCharsets.UTF_8));
                out.flush();
                boolean seen;
                try {
                    seen = FIRST_PART_SEEN.await(10, TimeUnit.SECONDS);
                } catch (InterruptedException e) {
                    throw new IOException(e);
                }
                out.write((seen ? "second part\n" : "client never saw the first part\n").getBytes(StandardCharsets.UTF_8));
            };
        }
    }

    @Path("chunks")
    public static class Chunks {
        @GET
        @Produces(MediaType.TEXT_PLAIN)
        public ChunkedOutput<String> chunks() {
            ChunkedOutput<String> output = new ChunkedOutput<>(String.class);
            new Thread(() -> {
                try (output) {
                    output.write("one\n");
                    boolean seen = CHUNK_SEEN.await(10, TimeUnit.SECONDS);
                    output.write(seen ? "two\n" : "client never saw chunk one\n");
                } catch (IOException | InterruptedException e) {
                    throw new IllegalStateException(e);
                }
            }).start();
            return output;
        }
    }

    @Path("ticks")
    public static class Ticks {
        @GET
        @Produces(MediaType.TEXT_PLAIN)
        public ChunkedOutput<String> ticks() {
            ChunkedOutput<String> output = new ChunkedOutput<>(String.class);
            new Thread(() -> {
                String outcome = "client disconnect never noticed";
                try {
                    output.write("tick\n");
                    if (!CLIENT_LEFT.await(10, TimeUnit.SECONDS)) {
                        throw new IllegalStateException("client never left");
                    }
                    for (int i = 0; i < 1_000_000; i++) { // bounded: ~1 GB if writes never failed
                        output.write("x".repeat(1000));
                    }
                } catch (IOException e) {
                    outcome = "write failed after the client left";
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                } finally {
                    DISCONNECT_OUTCOME.complete(outcome);
                }
            }).start();
            return output;
        }
    }

    static final CountDownLatch CLIENT_LEFT = new CountDownLatch(1);
    static final java.util.concurrent.CompletableFuture<String> DISCONNECT_OUTCOME =
            new java.util.concurrent.CompletableFuture<>();
    static final String FIRST_PART = "x".repeat(9000) + "\n";
    static final CountDownLatch CHUNK_SEEN = new CountDownLatch(1);

    static byte pattern(long position) {
        return (byte) (position * 31 + (position >>> 13));
    }

    @Override
    protected Application configure() {
        return new ResourceConfig(Entities.class, Chunks.class, Ticks.class).register(JacksonJsonProvider.class);
    }

    @Test
    void contentNegotiationFollowsAccept() {
        assertEquals("plain", target("entity/negotiate").request(MediaType.TEXT_PLAIN).get(String.class));
        assertEquals("<p>html</p>", target("entity/negotiate").request(MediaType.TEXT_HTML).get(String.class));
        Response json = target("entity/negotiate").request(MediaType.APPLICATION_JSON).get();
        assertEquals(MediaType.APPLICATION_JSON_TYPE, json.getMediaType());
        assertEquals(406, target("entity/negotiate").request("image/png").get().getStatus());
    }

    @Test
    void contentNegotiationSelectsTheMethod() {
        assertEquals("plain variant", target("entity/variants").request(MediaType.TEXT_PLAIN).get(String.class));
        Payment json = target("entity/variants").register(JacksonJsonProvider.class)
                .request(MediaType.APPLICATION_JSON).get(Payment.class);
        assertEquals("json variant", json.name);
    }

    @Test
    void jsonRoundTripThroughJackson() {
        Response response = target("entity/echo").register(JacksonJsonProvider.class).request()
                .post(Entity.json(new Payment("wrk", 12.34)));
        assertEquals(200, response.getStatus());
        String text = response.readEntity(String.class);
        assertEquals("{\"name\":\"wrk!\",\"amount\":24.68}", text);
    }

    @Test
    void uploadOf64MiBIsStreamedThroughTheResource() throws Exception {
        HttpClient client = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(10)).build();
        HttpRequest request = HttpRequest.newBuilder(getBaseUri().resolve("entity/upload")).timeout(Duration.ofSeconds(30))
                .header("Content-Type", MediaType.APPLICATION_OCTET_STREAM)
                .POST(HttpRequest.BodyPublishers.fromPublisher(
                        HttpRequest.BodyPublishers.ofInputStream(() -> new PatternStream(BIG)), BIG))
                .build();
        HttpResponse<String> response = client.send(request, HttpResponse.BodyHandlers.ofString());
        assertEquals(200, response.statusCode(), response.body());
        assertEquals(BIG + " bytes, 0 mismatches", response.body());
    }

    @Test
    void downloadOf64MiBIsStreamedChunked() throws Exception {
        Response response = target("entity/download").queryParam("size", BIG).request().get();
        assertEquals(200, response.getStatus());
        assertEquals("chunked", response.getHeaderString("Transfer-Encoding"));
        long count = 0;
        long mismatches = 0;
        try (InputStream in = response.readEntity(InputStream.class)) {
            byte[] buffer = new byte[65536];
            for (int n = in.read(buffer); n >= 0; n = in.read(buffer)) {
                for (int i = 0; i < n; i++) {
                    if (buffer[i] != pattern(count + i)) {
                        mismatches++;
                    }
                }
                count += n;
            }
        }
        assertEquals(BIG, count);
        assertEquals(0, mismatches);
    }

    @Test
    void smallEntityHasContentLength() {
        Response response = target("entity/download").queryParam("size", 1000).request().get();
        assertEquals("1000", response.getHeaderString("Content-Length"));
        assertEquals(1000, response.readEntity(byte[].class).length);
    }

    @Test
    void entityUpToJerseysBufferSizeHasContentLengthAndALongerOneIsChunked() {
        Response within = target("entity/download").queryParam("size", 8192).request().get();
        assertEquals("8192", within.getHeaderString("Content-Length"));
        assertNull(within.getHeaderString("Transfer-Encoding"));
        assertEquals(8192, within.readEntity(byte[].class).length);

        Response past = target("entity/download").queryParam("size", 8193).request().get();
        assertEquals("chunked", past.getHeaderString("Transfer-Encoding"));
        assertNull(past.getHeaderString("Content-Length"));
        assertEquals(8193, past.readEntity(byte[].class).length);
    }

    @Test
    void anEntityThatFailsWithinTheFirst8KiBIsMappedNotSentHalf() {
        Response response = target("entity/fails").queryParam("after", 5000).request().get();
        assertEquals(418, response.getStatus());
        assertEquals("mapped", response.readEntity(String.class));
    }

    @Test
    void anEntityThatFailsPastTheFirst8KiBIsCutNotCompleted() {
        org.junit.jupiter.api.Assertions.assertThrows(jakarta.ws.rs.ProcessingException.class,
                () -> target("entity/fails").queryParam("after", 9000).request().get().readEntity(String.class));
    }

    @Test
    void headOfASmallEntityHasItsContentLengthAndNoBody() {
        Response response = target("entity/download").queryParam("size", 1000).request().head();
        assertEquals(200, response.getStatus());
        assertEquals("1000", response.getHeaderString("Content-Length"));
    }

    @Test
    void flushReachesTheWireWhileTheResourceIsStillWriting() throws Exception {
        HttpClient client = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(10)).build();
        HttpResponse<InputStream> response = client.send(
                HttpRequest.newBuilder(URI.create(getBaseUri() + "entity/flush")).timeout(Duration.ofSeconds(30)).build(),
                HttpResponse.BodyHandlers.ofInputStream());
        try (InputStream in = response.body()) {
            byte[] first = in.readNBytes(FIRST_PART.length());
            assertEquals(FIRST_PART, new String(first, StandardCharsets.UTF_8));
            FIRST_PART_SEEN.countDown();
            String rest = new String(in.readAllBytes(), StandardCharsets.UTF_8);
            assertEquals("second part\n", rest);
        }
    }

    @Test
    void chunkedOutputChunksReachTheClientOneByOne() throws Exception {
        HttpResponse<InputStream> response = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(10)).build().send(
                HttpRequest.newBuilder(URI.create(getBaseUri() + "chunks")).timeout(Duration.ofSeconds(30)).build(),
                HttpResponse.BodyHandlers.ofInputStream());
        try (InputStream in = response.body()) {
            assertEquals("one\n", new String(in.readNBytes(4), StandardCharsets.UTF_8));
            CHUNK_SEEN.countDown();
            assertEquals("two\n", new String(in.readAllBytes(), StandardCharsets.UTF_8));
        }
    }

    @Test
    void chunkedOutputWritesFailOnceTheClientLeft() throws Exception {
        try (RawHttp raw = new RawHttp(getBaseUri().getPort())) {
            raw.send("GET /ticks HTTP/1.1\r\nHost: h\r\n\r\n");
            RawHttp.Response head = raw.readHead();
            assertEquals(200, head.status());
            assertEquals("chunked", head.header("Transfer-Encoding"));
        }
        CLIENT_LEFT.countDown();
        assertEquals("write failed after the client left", DISCONNECT_OUTCOME.get(20, TimeUnit.SECONDS));
    }

    /** {@code length} bytes of {@link #pattern}. */
    static final class PatternStream extends InputStream {
        private final long length;
        private long position;

        PatternStream(long length) {
            this.length = length;
        }

        @Override
        public int read() {
            return position < length ? pattern(position++) & 0xFF : -1;
        }

        @Override
        public int read(byte[] target, int offset, int count) {
            if (position >= length) {
                return -1;
            }
            int n = (int) Math.min(count, length - position);
            for (int i = 0; i < n; i++) {
                target[offset + i] = pattern(position++);
            }
            return n;
        }
    }
}
