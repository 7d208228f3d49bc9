package dev.fleche.jersey;

import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.container.AsyncResponse;
import jakarta.ws.rs.container.Suspended;
import jakarta.ws.rs.core.Application;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.StreamingOutput;
import org.glassfish.jersey.server.ResourceConfig;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * Unchanged Jersey resources over HTTP/2 (h2c, reached by the JDK {@code HttpClient}'s {@code Upgrade: h2c}):
 * a plain GET, an entity read and written, {@code AsyncResponse}, {@code StreamingOutput}, many streams at once.
 */
@Timeout(60)
class Http2JerseyTest extends FlecheJerseyTest {

    @Path("h2")
    public static class Resources {
        @GET
        @Path("hello")
        @Produces(MediaType.TEXT_PLAIN)
        public String hello() {
            return "hello";
        }

        @POST
        @Path("echo")
        @Consumes(MediaType.TEXT_PLAIN)
        @Produces(MediaType.TEXT_PLAIN)
        public String echo(String body) {
            return body.length() + ":" + body.substring(0, 10);
        }

        @GET
        @Path("async")
        public void async(@Suspended AsyncResponse response) {
            new Thread(() -> response.resume("resumed")).start();
        }

        @GET
        @Path("stream")
        @Produces(MediaType.TEXT_PLAIN)
        public StreamingOutput stream() {
            return out -> {
                for (int i = 0; i < 100; i++) {
                    out.write(("line " + i + "\n").repeat(100).getBytes(StandardCharsets.UTF_8));
                    out.flush();
                }
            };
        }
    }

    @Override
    protected Application configure() {
        return new ResourceConfig(Resources.class);
    }

    private HttpResponse<String> send(HttpClient client, HttpRequest.Builder request) throws Exception {
        return client.send(request.timeout(Duration.ofSeconds(30)).build(), HttpResponse.BodyHandlers.ofString());
    }

    @Test
    void resourcesOverH2c() throws Exception {
        HttpClient client = HttpClient.newBuilder().version(HttpClient.Version.HTTP_2).build();
        URI base = getBaseUri();
        HttpResponse<String> hello = send(client, HttpRequest.newBuilder(base.resolve("h2/hello")));
        assertEquals(HttpClient.Version.HTTP_2, hello.version());
        assertEquals("hello", hello.body());

        String text = "0123456789".repeat(20_000);
        HttpResponse<String> echo = send(client, HttpRequest.newBuilder(base.resolve("h2/echo"))
                .header("Content-Type", "text/plain").POST(HttpRequest.BodyPublishers.ofString(text)));
        assertEquals(HttpClient.Version.HTTP_2, echo.version());
        assertEquals("200000:0123456789", echo.body());

        assertEquals("resumed", send(client, HttpRequest.newBuilder(base.resolve("h2/async"))).body());
        HttpResponse<String> stream = send(client, HttpRequest.newBuilder(base.resolve("h2/stream")));
        assertEquals(HttpClient.Version.HTTP_2, stream.version());
        assertEquals(100 * 100, stream.body().lines().count());

        List<CompletableFuture<HttpResponse<String>>> many = new ArrayList<>();
        for (int i = 0; i < 40; i++) {
            many.add(client.sendAsync(HttpRequest.newBuilder(base.resolve(i % 2 == 0 ? "h2/hello" : "h2/async"))
                    .timeout(Duration.ofSeconds(30)).build(), HttpResponse.BodyHandlers.ofString()));
        }
        for (CompletableFuture<HttpResponse<String>> response : many) {
            assertEquals(200, response.get(30, TimeUnit.SECONDS).statusCode());
            assertEquals(HttpClient.Version.HTTP_2, response.get().version());
        }
    }
}
