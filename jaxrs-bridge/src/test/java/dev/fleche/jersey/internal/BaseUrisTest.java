package dev.fleche.jersey.internal;

import org.junit.jupiter.api.Test;

import java.net.InetSocketAddress;
import java.net.URI;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Base and request URIs, forwarding headers and the cache. */
class BaseUrisTest {
    private final FakeExchange exchange = new FakeExchange();

    @Test
    void baseAndRequestUriFromTheHostHeader() throws BadRequest {
        BaseUris uris = new BaseUris("/root/app/", false);
        exchange.host = "example.com:81";
        exchange.path = "/root/app/x%20y";
        exchange.query = "a=%41&b";
        BaseUris.Base base = uris.base(exchange);
        assertEquals(URI.create("http://example.com:81/root/app/"), base.uri());
        assertEquals("http://example.com:81/root/app/x%20y?a=%41&b", uris.requestUri(base, exchange.path(), exchange.query()).toString());
        assertSame(base, uris.base(exchange), "cached per host");
    }

    @Test
    void noHostFallsBackToTheLocalAddress() throws BadRequest {
        exchange.host = null;
        assertEquals("http://127.0.0.1:8080/", new BaseUris("/", false).base(exchange).uri().toString());
        assertEquals("[0:0:0:0:0:0:0:1]:80", BaseUris.authority(new InetSocketAddress("::1", 80)));
    }

    @Test
    void forwardedHeadersOnlyWhenTrusted() throws BadRequest {
        exchange.headers.add("Forwarded", "for=1.2.3.4;proto=https;host=\"public.example:8443\", for=5.6.7.8");
        assertEquals("http://example.com/", new BaseUris("/", false).base(exchange).uri().toString());
        assertEquals("https://public.example:8443/", new BaseUris("/", true).base(exchange).uri().toString());
    }

    @Test
    void xForwardedHeaders() throws BadRequest {
        exchange.headers.add("X-Forwarded-Proto", "https, http").add("X-Forwarded-Host", "pub.example")
                .add("X-Forwarded-Port", "444");
        assertEquals("https://pub.example:444/", new BaseUris("/", true).base(exchange).uri().toString());
    }

    @Test
    void anInvalidHostIsABadRequest() {
        exchange.host = "bad host";
        assertThrows(BadRequest.class, () -> new BaseUris("/", false).base(exchange));
    }

    @Test
    void charactersClientsSendUnencodedArePercentEncoded() throws BadRequest {
        // as Jersey's other containers deliver them (issue 12); was a 400
        exchange.path = "/a|b{c}";
        exchange.query = "q={\"x\"}^`\\&p=100%&r=%41";
        BaseUris uris = new BaseUris("/", false);
        URI uri = uris.requestUri(uris.base(exchange), exchange.path(), exchange.query());
        assertEquals("/a%7Cb%7Bc%7D", uri.getRawPath());
        assertEquals("q=%7B%22x%22%7D%5E%60%5C&p=100%25&r=%41", uri.getRawQuery());
        assertEquals("/a|b{c}", uri.getPath());
    }

    @Test
    void cacheIsBounded() throws BadRequest {
        BaseUris uris = new BaseUris("/", false);
        for (int i = 0; i < 3 * BaseUris.MAX_CACHED; i++) {
            exchange.host = "h" + i;
            uris.base(exchange);
        }
        assertTrue(uris.cachedHosts() <= BaseUris.MAX_CACHED);
    }

    @Test
    void requestUrisAreReusedOnlyForTheSameBasePathAndQuery() throws BadRequest {
        BaseUris uris = new BaseUris("/", false);
        exchange.host = "a.example";
        BaseUris.Base a = uris.base(exchange);
        exchange.host = "b.example";
        BaseUris.Base b = uris.base(exchange);
        URI first = uris.requestUri(a, "/x", "q=1");
        assertSame(first, uris.requestUri(a, new String("/x"), new String("q=1")), "same target: same instance");
        assertEquals("http://b.example/x?q=1", uris.requestUri(b, "/x", "q=1").toString());
        assertEquals("http://a.example/x", uris.requestUri(a, "/x", null).toString());
        assertEquals("http://a.example/x?q=2", uris.requestUri(a, "/x", "q=2").toString());
        assertEquals("http://a.example/x?", uris.requestUri(a, "/x", "").toString());
        for (int i = 0; i < 4 * BaseUris.REQUEST_SLOTS; i++) { // every slot replaced, each answer still right
            assertEquals("http://a.example/p" + i + "?i=" + i, uris.requestUri(a, "/p" + i, "i=" + i).toString());
        }
        assertEquals(first, uris.requestUri(a, "/x", "q=1"));
    }

    @Test
    void basePathJoinsRootAndApplicationPaths() {
        assertEquals("/", Deployment.basePath("/", null));
        assertEquals("/root/api/", Deployment.basePath("/root/", "api"));
        assertEquals("/root/api/", Deployment.basePath("root", "/api/"));
        Deployment deployment = new Deployment(null, "/root/", null, null, null, null, null, true);
        assertEquals("/", deployment.routedPath("/root"));
        assertEquals("/x", deployment.routedPath("/root/x"));
        assertEquals(null, deployment.routedPath("/rootx"));
    }
}
