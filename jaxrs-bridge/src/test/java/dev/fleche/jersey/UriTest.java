package dev.fleche.jersey;

import dev.fleche.transport.testing.RawHttp;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.container.ContainerRequestContext;
import jakarta.ws.rs.core.Application;
import jakarta.ws.rs.core.Context;
import jakarta.ws.rs.core.Response;
import jakarta.ws.rs.core.SecurityContext;
import jakarta.ws.rs.core.UriInfo;
import org.glassfish.jersey.server.ResourceConfig;
import org.junit.jupiter.api.Test;

import java.net.InetSocketAddress;
import java.net.URI;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Base and request URIs behind a root path, from the Host header, and the request's addresses. */
class UriTest extends FlecheJerseyTest {

    @Path("items")
    public static class Items {
        @POST
        public Response create() {
            return Response.created(URI.create("items/5")).build();
        }

        @GET
        @Path("{id}")
        public String describe(@PathParam("id") String id, @Context UriInfo uri, @Context SecurityContext security) {
            return "base=" + uri.getBaseUri() + " request=" + uri.getRequestUri() + " path=" + uri.getPath()
                    + " raw=" + uri.getPath(false) + " secure=" + security.isSecure() + " id=" + id;
        }

        @GET
        @Path("addresses")
        public String addresses(@Context ContainerRequestContext request) {
            InetSocketAddress remote = (InetSocketAddress) request.getProperty(FlecheProperties.REMOTE_ADDRESS);
            InetSocketAddress local = (InetSocketAddress) request.getProperty(FlecheProperties.LOCAL_ADDRESS);
            return remote.getAddress().getHostAddress() + " " + local.getPort() + " "
                    + request.getPropertyNames().contains(FlecheProperties.REMOTE_ADDRESS);
        }
    }

    @Override
    protected Application configure() {
        return new ResourceConfig(Items.class);
    }

    @Override
    protected String contextPath() {
        return "root";
    }

    @Test
    void baseUriIncludesTheRootPath() {
        assertTrue(getBaseUri().getPath().startsWith("/root"), getBaseUri().toString());
        String body = target("items/a%20b").queryParam("q", "1 2").request().get(String.class);
        int port = getBaseUri().getPort();
        assertEquals("base=http://localhost:" + port + "/root/ request=http://localhost:" + port
                + "/root/items/a%20b?q=1+2 path=items/a b raw=items/a%20b secure=false id=a b", body);
    }

    @Test
    void locationIsResolvedAgainstTheBaseUriAndHost() throws Exception {
        try (RawHttp raw = new RawHttp(getBaseUri().getPort())) {
            raw.send("POST /root/items HTTP/1.1\r\nHost: api.example.com:8443\r\nContent-Length: 0\r\n\r\n");
            RawHttp.Response response = raw.read();
            assertEquals(201, response.status());
            assertEquals("http://api.example.com:8443/root/items/5", response.header("Location"));
        }
    }

    @Test
    void uriInfoFollowsTheHostHeader() throws Exception {
        try (RawHttp raw = new RawHttp(getBaseUri().getPort())) {
            raw.send("GET /root/items/7?x=%41 HTTP/1.1\r\nHost: shop.example\r\n\r\n"
                    + "GET /root/items/8 HTTP/1.1\r\nHost: other.example:81\r\n\r\n");
            assertEquals("base=http://shop.example/root/ request=http://shop.example/root/items/7?x=%41 path=items/7"
                    + " raw=items/7 secure=false id=7", raw.read().body());
            assertEquals("base=http://other.example:81/root/ request=http://other.example:81/root/items/8"
                    + " path=items/8 raw=items/8 secure=false id=8", raw.read().body());
        }
    }

    @Test
    void withoutHostTheBoundAddressIsUsed() throws Exception {
        try (RawHttp raw = new RawHttp(getBaseUri().getPort())) {
            raw.send("GET /root/items/9 HTTP/1.0\r\n\r\n");
            String body = raw.read().body();
            assertTrue(body.startsWith("base=http://127.0.0.1:" + getBaseUri().getPort() + "/root/ "), body);
        }
    }

    @Test
    void forwardedHeadersAreIgnoredByDefault() throws Exception {
        try (RawHttp raw = new RawHttp(getBaseUri().getPort())) {
            raw.send("GET /root/items/1 HTTP/1.1\r\nHost: inside\r\nX-Forwarded-Host: evil.example\r\n"
                    + "X-Forwarded-Proto: https\r\nForwarded: host=evil.example;proto=https\r\n\r\n");
            assertTrue(raw.read().body().startsWith("base=http://inside/root/ "));
        }
    }

    @Test
    void outsideTheRootPathIs404() throws Exception {
        try (RawHttp raw = new RawHttp(getBaseUri().getPort())) {
            raw.send("GET /items/1 HTTP/1.1\r\nHost: h\r\n\r\nGET /rootitems/1 HTTP/1.1\r\nHost: h\r\n\r\n");
            assertEquals(404, raw.read().status());
            assertEquals(404, raw.read().status());
        }
    }

    @Test
    void invalidHostIs400() throws Exception {
        try (RawHttp raw = new RawHttp(getBaseUri().getPort())) {
            raw.send("GET /root/items/1 HTTP/1.1\r\nHost: a:b:c\r\n\r\n");
            int status = raw.read().status();
            assertEquals(400, status);
        }
    }

    @Test
    void addressesAreRequestProperties() {
        String body = target("items/addresses").request().get(String.class);
        assertEquals("127.0.0.1 " + getBaseUri().getPort() + " true", body);
    }
}
