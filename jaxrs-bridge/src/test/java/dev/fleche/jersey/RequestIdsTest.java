package dev.fleche.jersey;

import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.container.ContainerRequestContext;
import jakarta.ws.rs.core.Context;
import jakarta.ws.rs.core.Response;
import org.glassfish.jersey.server.ResourceConfig;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** FlecheRequestIds on a real server: X-Request-Id kept, generated, rejected; traceparent valid, invalid, absent. */
class RequestIdsTest {
    private static final String TRACEPARENT = "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01";
    private static final String GENERATED = "[0-9a-f]{16}-[0-9a-f]+";
    private static final HttpClient CLIENT = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
    private static FlecheHttpServer server;

    @Path("trace")
    public static class Traced {
        /** The request properties, then what {@code RequestTrace.of} gives. */
        @GET
        public String trace(@Context ContainerRequestContext request) {
            RequestTrace trace = RequestTrace.of(request);
            return "id=" + request.getProperty(FlecheProperties.REQUEST_ID)
                    + " trace=" + request.getProperty(FlecheProperties.TRACE_ID)
                    + " parent=" + request.getProperty(FlecheProperties.PARENT_ID)
                    + " flags=" + request.getProperty(FlecheProperties.TRACE_FLAGS)
                    + " state=" + request.getProperty(FlecheProperties.TRACE_STATE)
                    + " headers=" + request.getHeaderString("traceparent") + "|" + request.getHeaderString("tracestate")
                    + "\n" + trace + " sampled=" + trace.sampled();
        }

        @GET
        @Path("own")
        public Response own() {
            return Response.ok("own").header(FlecheRequestIds.HEADER, "set-by-app").build();
        }
    }

    /** The request id as the first pre-matching filter of the application sees it. */
    static final java.util.concurrent.atomic.AtomicReference<Object> SEEN_FIRST =
            new java.util.concurrent.atomic.AtomicReference<>();

    @jakarta.ws.rs.container.PreMatching
    @jakarta.annotation.Priority(1)
    public static class FirstFilter implements jakarta.ws.rs.container.ContainerRequestFilter {
        @Override
        public void filter(ContainerRequestContext request) {
            SEEN_FIRST.set(request.getProperty(FlecheProperties.REQUEST_ID));
        }
    }

    @BeforeAll
    static void start() {
        server = FlecheHttpServerFactory.createServer(URI.create("http://127.0.0.1:0/"),
                new ResourceConfig(Traced.class, FirstFilter.class).register(FlecheRequestIds.class));
    }

    /** In the Fleche container the container sets the id before Jersey runs any filter (elsewhere, a filter does). */
    @Test
    void theContainerSetsTheIdBeforeEveryFilter() throws Exception {
        HttpResponse<String> response = get("trace", "X-Request-Id", "first-1");
        assertEquals("first-1", idOf(response));
        assertEquals("first-1", SEEN_FIRST.get());
    }

    @AfterAll
    static void stop() throws InterruptedException {
        server.stop(Duration.ofSeconds(1));
    }

    private static HttpResponse<String> get(String path, String... headers) throws Exception {
        HttpRequest.Builder request = HttpRequest.newBuilder(server.baseUri().resolve(path))
                .timeout(Duration.ofSeconds(10));
        for (int i = 0; i < headers.length; i += 2) {
            request.header(headers[i], headers[i + 1]);
        }
        HttpResponse<String> response = CLIENT.send(request.build(), HttpResponse.BodyHandlers.ofString());
        assertEquals(200, response.statusCode(), response.body());
        return response;
    }

    private static String idOf(HttpResponse<String> response) {
        return response.headers().firstValue(FlecheRequestIds.HEADER).orElseThrow();
    }

    @Test
    void aWellFormedIdIsKeptAndEchoed() throws Exception {
        String id = "Req_1.2:3-abc";
        HttpResponse<String> response = get("trace", "X-Request-Id", id);
        assertEquals(id, idOf(response));
        assertEquals("id=Req_1.2:3-abc trace=null parent=null flags=null state=null headers=null|null\n"
                + "RequestTrace[requestId=Req_1.2:3-abc, traceId=null, parentId=null, traceFlags=null, "
                + "traceState=null] sampled=false", response.body());
    }

    @Test
    void anIdOf128CharactersIsKeptOf129Replaced() throws Exception {
        String longest = "a".repeat(128);
        assertEquals(longest, idOf(get("trace", "X-Request-Id", longest)));
        String replaced = idOf(get("trace", "X-Request-Id", longest + "a"));
        assertTrue(replaced.matches(GENERATED), replaced);
    }

    @Test
    void aMissingIdIsGeneratedAndUniquePerRequest() throws Exception {
        HttpResponse<String> first = get("trace");
        HttpResponse<String> second = get("trace");
        assertTrue(idOf(first).matches(GENERATED), idOf(first));
        assertTrue(first.body().startsWith("id=" + idOf(first) + " "), first.body());
        assertNotEquals(idOf(first), idOf(second));
        assertEquals(idOf(first).substring(0, 17), idOf(second).substring(0, 17), "one prefix per application");
    }

    @Test
    void malformedIdsAreReplaced() throws Exception {
        for (String bad : new String[] {"has space", "semi;colon", "quote\"", "slash/", "ümlaut", "%41"}) {
            String id = idOf(get("trace", "X-Request-Id", bad));
            assertTrue(id.matches(GENERATED), bad + " -> " + id);
        }
        HttpRequest twice = HttpRequest.newBuilder(server.baseUri().resolve("trace")).timeout(Duration.ofSeconds(10))
                .header("X-Request-Id", "one").header("X-Request-Id", "two").build();
        String id = idOf(CLIENT.send(twice, HttpResponse.BodyHandlers.ofString()));
        assertTrue(id.matches(GENERATED), "a repeated header is not trusted: " + id);
    }

    @Test
    void theApplicationsOwnHeaderWins() throws Exception {
        assertEquals("set-by-app", idOf(get("trace/own", "X-Request-Id", "from-client")));
    }

    @Test
    void aValidTraceparentBecomesProperties() throws Exception {
        HttpResponse<String> response = get("trace", "X-Request-Id", "r1", "traceparent", TRACEPARENT,
                "tracestate", "congo=t61rcWkgMzE, rojo=00f067aa0ba902b7");
        assertEquals("id=r1 trace=4bf92f3577b34da6a3ce929d0e0e4736 parent=00f067aa0ba902b7 flags=01 "
                + "state=congo=t61rcWkgMzE, rojo=00f067aa0ba902b7 headers=" + TRACEPARENT
                + "|congo=t61rcWkgMzE, rojo=00f067aa0ba902b7\n"
                + "RequestTrace[requestId=r1, traceId=4bf92f3577b34da6a3ce929d0e0e4736, parentId=00f067aa0ba902b7, "
                + "traceFlags=01, traceState=congo=t61rcWkgMzE, rojo=00f067aa0ba902b7] sampled=true",
                response.body());
    }

    @Test
    void aFutureVersionIsReadAsFarAsKnown() throws Exception {
        HttpResponse<String> response = get("trace", "X-Request-Id", "r2", "traceparent",
                "cc-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-00-what-comes-next");
        assertTrue(response.body().startsWith("id=r2 trace=4bf92f3577b34da6a3ce929d0e0e4736 "
                + "parent=00f067aa0ba902b7 flags=00 state=null "), response.body());
        assertTrue(response.body().endsWith(" sampled=false"), response.body());
    }

    @Test
    void anInvalidTraceparentIsIgnoredAndLeftAsSent() throws Exception {
        String invalid = "00-00000000000000000000000000000000-00f067aa0ba902b7-01";
        HttpResponse<String> response = get("trace", "X-Request-Id", "r3", "traceparent", invalid,
                "tracestate", "congo=t61rcWkgMzE");
        assertEquals("id=r3 trace=null parent=null flags=null state=null headers=" + invalid
                + "|congo=t61rcWkgMzE\n"
                + "RequestTrace[requestId=r3, traceId=null, parentId=null, traceFlags=null, traceState=null] "
                + "sampled=false", response.body());
    }

    @Test
    void anInvalidTracestateIsDroppedTheTraceparentKept() throws Exception {
        HttpResponse<String> response = get("trace", "X-Request-Id", "r4", "traceparent", TRACEPARENT,
                "tracestate", "Upper=x");
        assertTrue(response.body().startsWith("id=r4 trace=4bf92f3577b34da6a3ce929d0e0e4736 "
                + "parent=00f067aa0ba902b7 flags=01 state=null "), response.body());
    }
}
