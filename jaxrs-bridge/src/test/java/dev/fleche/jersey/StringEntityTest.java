package dev.fleche.jersey;

import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.Application;
import jakarta.ws.rs.core.Context;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.MultivaluedMap;
import jakarta.ws.rs.core.Response;
import jakarta.ws.rs.ext.MessageBodyWriter;
import jakarta.ws.rs.ext.Providers;
import org.glassfish.jersey.server.ResourceConfig;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.io.OutputStream;
import java.lang.annotation.Annotation;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.reflect.Type;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Locale;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * {@code String} entities: the container's writer takes the place of Jersey's (same bytes, same charset rules) and
 * an application's own {@code String} writer still comes first.
 */
@Timeout(60)
class StringEntityTest extends FlecheJerseyTest {

    @Retention(RetentionPolicy.RUNTIME)
    public @interface Loud {
    }

    /** An application's writer of strings, for methods marked {@link Loud} only. */
    @Produces({MediaType.TEXT_PLAIN, MediaType.WILDCARD})
    public static class LoudWriter implements MessageBodyWriter<String> {
        @Override
        public boolean isWriteable(Class<?> type, Type genericType, Annotation[] annotations, MediaType mediaType) {
            return type == String.class && Arrays.stream(annotations).anyMatch(a -> a instanceof Loud);
        }

        @Override
        public void writeTo(String text, Class<?> type, Type genericType, Annotation[] annotations,
                            MediaType mediaType, MultivaluedMap<String, Object> headers, OutputStream out)
                throws java.io.IOException {
            out.write(text.toUpperCase(Locale.ROOT).getBytes(StandardCharsets.UTF_8));
        }
    }

    @Path("text")
    public static class Resource {
        @Context
        Providers providers;

        @GET
        @Path("utf8")
        @Produces(MediaType.TEXT_PLAIN)
        public String utf8() {
            return "café 𝄞";
        }

        @GET
        @Path("latin1")
        @Produces("text/plain;charset=ISO-8859-1")
        public String latin1() {
            return "café €";
        }

        @GET
        @Path("json")
        @Produces(MediaType.APPLICATION_JSON)
        public String json() {
            return "{\"a\":\"é\"}";
        }

        @GET
        @Path("loud")
        @Loud
        @Produces(MediaType.TEXT_PLAIN)
        public String loud() {
            return "quiet words";
        }

        @GET
        @Path("unknown-charset")
        @Produces("text/plain;charset=no-such-charset")
        public String unknownCharset() {
            return "never written";
        }

        @GET
        @Path("writer")
        @Produces(MediaType.TEXT_PLAIN)
        public String writer() {
            return providers.getMessageBodyWriter(String.class, String.class, new Annotation[0],
                    MediaType.TEXT_PLAIN_TYPE).getClass().getSimpleName();
        }
    }

    @Override
    protected Application configure() {
        return new ResourceConfig(Resource.class, LoudWriter.class);
    }

    @Test
    void aStringIsWrittenInUtf8WithoutACharsetParameter() {
        Response response = target("text/utf8").request().get();
        assertEquals(200, response.getStatus());
        assertArrayEquals("café 𝄞".getBytes(StandardCharsets.UTF_8), response.readEntity(byte[].class));
        assertEquals(String.valueOf("café 𝄞".getBytes(StandardCharsets.UTF_8).length),
                response.getHeaderString("Content-Length"));
    }

    @Test
    void aStringIsWrittenInTheCharsetTheMediaTypeNames() {
        Response response = target("text/latin1").request().get();
        assertArrayEquals("café ?".getBytes(StandardCharsets.ISO_8859_1), response.readEntity(byte[].class));
        assertEquals("text/plain;charset=ISO-8859-1", response.getHeaderString("Content-Type"));
    }

    @Test
    void aStringIsWrittenAsItIsForAnyMediaType() {
        assertArrayEquals("{\"a\":\"é\"}".getBytes(StandardCharsets.UTF_8),
                target("text/json").request().get().readEntity(byte[].class));
    }

    @Test
    void anUnknownCharsetIsAServerError() {
        assertEquals(500, target("text/unknown-charset").request().get().getStatus());
    }

    @Test
    void theContainersWriterTakesThePlaceOfJerseys() {
        assertEquals("StringBodyWriter", target("text/writer").request().get(String.class));
    }

    @Test
    void anApplicationsOwnStringWriterComesFirst() {
        assertEquals("QUIET WORDS", target("text/loud").request().get(String.class));
    }
}
