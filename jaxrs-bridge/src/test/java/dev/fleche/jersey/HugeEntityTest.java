package dev.fleche.jersey;

import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.WebApplicationException;
import jakarta.ws.rs.client.Entity;
import jakarta.ws.rs.core.Application;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.MultivaluedMap;
import jakarta.ws.rs.core.Response;
import jakarta.ws.rs.ext.MessageBodyWriter;
import org.glassfish.jersey.client.ClientConfig;
import org.glassfish.jersey.client.ClientProperties;
import org.glassfish.jersey.client.RequestEntityProcessing;
import org.glassfish.jersey.server.ResourceConfig;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.lang.annotation.Annotation;
import java.lang.reflect.Type;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * The scenarios of Jersey's own {@code HugeEntityTest} and {@code ClientBufferingDisabledTest} on Fleche with the
 * default limits: an entity of hundreds of MiB streamed to an {@code InputStream} resource, chunked and with a
 * fixed length, arrives whole — the buffered-entity limit does not apply to a streamed entity — and a small
 * buffered entity on the same server afterwards is still served.
 */
@Timeout(120)
class HugeEntityTest extends FlecheJerseyTest {
    private static final long HUGE = 300L << 20;
    private static final int BUFFER = 1 << 20;

    @Path("/")
    public static class ConsumerResource {
        @POST
        @Path("size")
        public String size(InputStream in) throws IOException {
            byte[] buffer = new byte[BUFFER];
            long total = 0;
            for (int n; (n = in.read(buffer)) >= 0; ) {
                total += n;
            }
            return Long.toString(total);
        }

        @POST
        @Path("echo")
        public String echo(String text) {
            return text;
        }
    }

    /** That many zero bytes, written without ever holding them. */
    public record Zeros(long size) {
    }

    public static class ZerosWriter implements MessageBodyWriter<Zeros> {
        @Override
        public boolean isWriteable(Class<?> type, Type generic, Annotation[] annotations, MediaType mediaType) {
            return type == Zeros.class;
        }

        @Override
        public void writeTo(Zeros zeros, Class<?> type, Type generic, Annotation[] annotations, MediaType mediaType,
                            MultivaluedMap<String, Object> headers, OutputStream out)
                throws IOException, WebApplicationException {
            byte[] buffer = new byte[BUFFER];
            for (long left = zeros.size(); left > 0; left -= buffer.length) {
                out.write(buffer, 0, (int) Math.min(buffer.length, left));
            }
        }
    }

    @Override
    protected Application configure() {
        return new ResourceConfig(ConsumerResource.class);
    }

    @Override
    protected void configureClient(ClientConfig config) {
        super.configureClient(config);
        config.register(ZerosWriter.class);
        config.property(ClientProperties.REQUEST_ENTITY_PROCESSING, RequestEntityProcessing.CHUNKED);
    }

    @Test
    void aHugeChunkedEntityStreamsThrough() {
        Response response = target("size").request().post(Entity.entity(new Zeros(HUGE),
                MediaType.APPLICATION_OCTET_STREAM_TYPE));
        assertEquals(200, response.getStatus());
        assertEquals(Long.toString(HUGE), response.readEntity(String.class));
        assertEquals("Hey Sync!", target("echo").request().post(Entity.text("Hey Sync!")).readEntity(String.class));
    }

    @Test
    void aHugeEntityOfFixedLengthStreamsThrough() throws Exception {
        // a client that does not buffer (as Jersey's ClientBufferingDisabledTest): a fixed Content-Length, streamed
        HttpRequest.BodyPublisher zeros = HttpRequest.BodyPublishers.fromPublisher(
                HttpRequest.BodyPublishers.ofInputStream(() -> new InputStream() {
                    private long left = HUGE;

                    @Override
                    public int read() {
                        return left-- > 0 ? 0 : -1;
                    }

                    @Override
                    public int read(byte[] bytes, int offset, int length) {
                        if (left <= 0) {
                            return -1;
                        }
                        int n = (int) Math.min(length, left);
                        java.util.Arrays.fill(bytes, offset, offset + n, (byte) 0);
                        left -= n;
                        return n;
                    }
                }), HUGE);
        HttpResponse<String> response = HttpClient.newHttpClient().send(HttpRequest.newBuilder(target("size").getUri())
                .header("Content-Type", MediaType.APPLICATION_OCTET_STREAM).POST(zeros).build(),
                HttpResponse.BodyHandlers.ofString());
        assertEquals(200, response.statusCode());
        assertEquals(Long.toString(HUGE), response.body());
        assertEquals("Hey Sync!", target("echo").request().post(Entity.text("Hey Sync!")).readEntity(String.class));
    }
}
