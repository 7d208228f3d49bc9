package dev.fleche.jersey;

import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;
import org.glassfish.jersey.message.GZipEncoder;
import org.glassfish.jersey.server.ResourceConfig;
import org.glassfish.jersey.server.filter.EncodingFilter;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.io.ByteArrayInputStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.zip.GZIPInputStream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Dynamic compression on Fleche is Jersey's own: {@code EncodingFilter.enableFor(config, GZipEncoder.class)}
 * compresses a response when the request's {@code Accept-Encoding} asks for {@code gzip}, says
 * {@code Content-Encoding: gzip} and {@code Vary: Accept-Encoding}, and leaves other requests alone. Off by default
 * (the README says why: BREACH).
 */
class DynamicCompressionTest {
    private static final String JSON = "{\"items\":[" + "{\"title\":\"tea\",\"done\":false},".repeat(200)
            + "{\"title\":\"last\",\"done\":true}]}";
    private FlecheHttpServer server;
    private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(10)).build();

    @Path("items")
    public static class Items {
        @GET
        @Produces(MediaType.APPLICATION_JSON)
        public String items() {
            return JSON;
        }
    }

    @AfterEach
    void stop() throws Exception {
        server.stop(Duration.ZERO);
    }

    @Test
    void encodingFilterWithGzipCompressesWhenAskedOnly() throws Exception {
        ResourceConfig config = new ResourceConfig(Items.class);
        EncodingFilter.enableFor(config, GZipEncoder.class);
        server = FlecheHttpServerFactory.createServer(URI.create("http://localhost:0/"), config);
        URI uri = URI.create("http://localhost:" + server.port() + "/items");
        HttpResponse<byte[]> gzip = http.send(HttpRequest.newBuilder(uri).header("Accept-Encoding", "gzip")
                .timeout(Duration.ofSeconds(20)).build(), HttpResponse.BodyHandlers.ofByteArray());
        assertEquals(200, gzip.statusCode());
        assertEquals("gzip", gzip.headers().firstValue("content-encoding").orElseThrow());
        assertTrue(gzip.headers().allValues("vary").toString().contains("Accept-Encoding"), gzip.headers().toString());
        assertTrue(gzip.body().length < JSON.length() / 4, "compressed: " + gzip.body().length + " bytes");
        try (GZIPInputStream in = new GZIPInputStream(new ByteArrayInputStream(gzip.body()))) {
            assertEquals(JSON, new String(in.readAllBytes(), StandardCharsets.UTF_8));
        }
        HttpResponse<String> plain = http.send(HttpRequest.newBuilder(uri).timeout(Duration.ofSeconds(20)).build(),
                HttpResponse.BodyHandlers.ofString());
        assertEquals(JSON, plain.body());
        assertTrue(plain.headers().firstValue("content-encoding").isEmpty());
    }
}
