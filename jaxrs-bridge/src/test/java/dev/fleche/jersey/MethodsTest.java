package dev.fleche.jersey;

import dev.fleche.transport.testing.RawHttp;
import jakarta.ws.rs.DELETE;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.HEAD;
import jakarta.ws.rs.PUT;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.Application;
import jakarta.ws.rs.core.Response;
import jakarta.ws.rs.core.StreamingOutput;
import org.glassfish.jersey.server.ResourceConfig;
import org.junit.jupiter.api.Test;

import java.util.Set;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** HEAD and OPTIONS, automatic and explicit, and 204/405; HEAD bytes checked on a raw socket. */
class MethodsTest extends FlecheJerseyTest {

    @Path("doc")
    public static class Doc {
        @GET
        public String get() {
            return "twelve bytes";
        }

        @PUT
        public void put(String body) {
        }

        @DELETE
        public Response delete() {
            return Response.noContent().build();
        }

        @GET
        @Path("big")
        public StreamingOutput big(@QueryParam("size") int size) {
            return out -> out.write(new byte[size]);
        }

        @HEAD
        @Path("explicit")
        public Response explicitHead() {
            return Response.ok().header("X-Head", "explicit").build();
        }
    }

    @Override
    protected Application configure() {
        return new ResourceConfig(Doc.class);
    }

    @Test
    void headAnswersGetsHeadersWithoutBody() throws Exception {
        Response head = target("doc").request().head();
        assertEquals(200, head.getStatus());
        assertEquals("12", head.getHeaderString("Content-Length"));
        try (RawHttp raw = new RawHttp(getBaseUri().getPort())) {
            raw.send("HEAD /doc HTTP/1.1\r\nHost: test\r\n\r\nGET /doc HTTP/1.1\r\nHost: test\r\n\r\n");
            RawHttp.Response first = raw.read(true);
            assertEquals(200, first.status());
            assertEquals("12", first.header("Content-Length"));
            RawHttp.Response second = raw.read();   // would be garbled if HEAD had sent a body
            assertEquals("twelve bytes", second.body());
        }
    }

    @Test
    void headOfAStreamedEntityIsChunkedWithoutBody() throws Exception {
        try (RawHttp raw = new RawHttp(getBaseUri().getPort())) {
            raw.send("HEAD /doc/big?size=100000 HTTP/1.1\r\nHost: test\r\n\r\nGET /doc HTTP/1.1\r\nHost: test\r\n\r\n");
            RawHttp.Response first = raw.read(true);
            assertEquals(200, first.status());
            assertNull(first.header("Content-Length"));
            assertEquals("twelve bytes", raw.read().body());
        }
    }

    @Test
    void explicitHeadMethodWins() {
        Response head = target("doc/explicit").request().head();
        assertEquals(200, head.getStatus());
        assertEquals("explicit", head.getHeaderString("X-Head"));
    }

    @Test
    void optionsListsTheAllowedMethods() {
        Response options = target("doc").request().options();
        assertEquals(200, options.getStatus());
        Set<String> allowed = options.getAllowedMethods();
        assertTrue(allowed.containsAll(Set.of("GET", "HEAD", "OPTIONS", "PUT", "DELETE")), allowed.toString());
    }

    @Test
    void voidAndNoContentAre204WithoutBody() throws Exception {
        try (RawHttp raw = new RawHttp(getBaseUri().getPort())) {
            raw.send("DELETE /doc HTTP/1.1\r\nHost: test\r\n\r\n"
                    + "PUT /doc HTTP/1.1\r\nHost: test\r\nContent-Type: text/plain\r\nContent-Length: 2\r\n\r\nhi"
                    + "GET /doc HTTP/1.1\r\nHost: test\r\n\r\n");
            RawHttp.Response delete = raw.read();
            assertEquals(204, delete.status());
            assertFalse(delete.headers().containsKey("content-length"));
            assertEquals(204, raw.read().status());
            assertEquals("twelve bytes", raw.read().body());
        }
    }

    @Test
    void unsupportedMethodIs405WithAllow() {
        Response response = target("doc").request().post(null);
        assertEquals(405, response.getStatus());
        assertTrue(response.getAllowedMethods().contains("GET"));
    }
}
