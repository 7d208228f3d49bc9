package dev.fleche.jersey;

import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.Application;
import jakarta.ws.rs.core.CacheControl;
import jakarta.ws.rs.core.EntityTag;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.NewCookie;
import jakarta.ws.rs.core.Response;
import jakarta.ws.rs.ext.RuntimeDelegate;
import org.glassfish.jersey.server.ResourceConfig;
import org.junit.jupiter.api.Test;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.Date;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * Response header values of every kind reach the wire as Jersey's own conversion writes them: strings as they are,
 * typed values through the header delegates (else {@code toString()}), every value of a repeated
 * header, media types with their parameters.
 */
class ResponseHeadersTest extends FlecheJerseyTest {
    static final Date MODIFIED = new Date(1_700_000_000_000L);
    static final CacheControl CACHE = CacheControl.valueOf("max-age=60, private");

    /** A value type without a header delegate: Jersey writes its {@code toString()}. */
    public static final class Money {
        final long cents;

        Money(long cents) {
            this.cents = cents;
        }

        @Override
        public String toString() {
            return "EUR " + cents / 100 + "." + String.format("%02d", cents % 100);
        }
    }

    @Path("headers")
    public static class Resource {
        @GET
        @Path("typed")
        public Response typed() {
            return Response.ok("typed", MediaType.valueOf("text/plain; charset=UTF-8; format=flowed"))
                    .location(URI.create("/there"))
                    .lastModified(MODIFIED)
                    .tag(new EntityTag("v1", true))
                    .cacheControl(CACHE)
                    .cookie(new NewCookie.Builder("a").value("1").build(), new NewCookie.Builder("b").value("2").build())
                    .header("X-Count", 42)
                    .header("X-Price", new Money(1250))
                    .header("X-Plain", "as is")
                    .header("X-Plain", "twice")
                    .build();
        }

        @GET
        @Path("produced")
        @Produces("application/json;charset=ISO-8859-1")
        public String produced() {
            return "{}";
        }
    }

    @Override
    protected Application configure() {
        return new ResourceConfig(Resource.class);
    }

    private HttpResponse<String> get(String path) throws Exception {
        HttpClient client = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(10)).build();
        return client.send(HttpRequest.newBuilder(getBaseUri().resolve(path)).timeout(Duration.ofSeconds(30)).build(),
                HttpResponse.BodyHandlers.ofString());
    }

    private static <T> String jerseyText(Class<T> type, T value) {
        return RuntimeDelegate.getInstance().createHeaderDelegate(type).toString(value);
    }

    @Test
    void typedValuesAreConvertedByTheHeaderDelegates() throws Exception {
        HttpResponse<String> response = get("headers/typed");
        assertEquals(200, response.statusCode());
        assertEquals("typed", response.body());
        var headers = response.headers();
        assertEquals(List.of("text/plain;charset=UTF-8;format=flowed"), headers.allValues("Content-Type"));
        assertEquals(List.of(getBaseUri().resolve("/there").toString()), headers.allValues("Location"));
        assertEquals(List.of(jerseyText(Date.class, MODIFIED)), headers.allValues("Last-Modified"));
        assertEquals(List.of("W/\"v1\""), headers.allValues("ETag"));
        assertEquals(List.of(jerseyText(CacheControl.class, CACHE)), headers.allValues("Cache-Control"));
        assertEquals(List.of("a=1;Version=1", "b=2;Version=1"), headers.allValues("Set-Cookie"));
        assertEquals(List.of("42"), headers.allValues("X-Count"));
        assertEquals(List.of("EUR 12.50"), headers.allValues("X-Price"), "no delegate: toString()");
        assertEquals(List.of("as is", "twice"), headers.allValues("X-Plain"));
    }

    @Test
    void producedMediaTypeKeepsItsParametersOnEveryResponse() throws Exception {
        for (int i = 0; i < 3; i++) { // the second and third come from the remembered text
            HttpResponse<String> response = get("headers/produced");
            assertEquals(List.of("application/json;charset=ISO-8859-1"), response.headers().allValues("Content-Type"));
            assertEquals("{}", response.body());
        }
        assertEquals(List.of("text/plain;charset=UTF-8;format=flowed"), get("headers/typed").headers().allValues("Content-Type"),
                "another media type on the same route table: its own text");
    }
}
