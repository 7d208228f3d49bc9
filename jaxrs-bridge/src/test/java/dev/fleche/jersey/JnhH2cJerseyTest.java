package dev.fleche.jersey;

import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.client.Entity;
import jakarta.ws.rs.container.AsyncResponse;
import jakarta.ws.rs.container.ContainerRequestContext;
import jakarta.ws.rs.container.ContainerRequestFilter;
import jakarta.ws.rs.container.ContainerResponseContext;
import jakarta.ws.rs.container.ContainerResponseFilter;
import jakarta.ws.rs.container.Suspended;
import jakarta.ws.rs.core.Application;
import jakarta.ws.rs.core.Context;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import jakarta.ws.rs.core.StreamingOutput;
import jakarta.ws.rs.core.UriInfo;
import dev.fleche.transport.HttpExchange;
import org.glassfish.jersey.client.ClientConfig;
import org.glassfish.jersey.jnh.connector.JavaNetHttpClientProperties;
import org.glassfish.jersey.jnh.connector.JavaNetHttpConnectorProvider;
import org.glassfish.jersey.server.ResourceConfig;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.net.http.HttpClient;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * Jersey's own HTTP/2 client — the client API over {@code jersey-jnh-connector} (the JDK {@code HttpClient}) with
 * {@code HTTP_2}, which on {@code http://} upgrades by {@code Upgrade: h2c} — against unchanged resources: entities
 * read and written, a {@code 404}, {@code AsyncResponse}, {@code StreamingOutput}, request-scoped injection and
 * properties under many concurrent streams. The server says which protocol each request arrived in: a response
 * filter puts the transport's {@link HttpExchange#version()} in {@value #PROTOCOL}, and every answer must say
 * {@code HTTP/2}, the 404 included.
 *
 * <p>Each test starts with a request without a body: the JDK client offers the upgrade on its first request, and a
 * server need not upgrade one with a body (RFC 7540 3.2; Fleche serves it as HTTP/1.1).
 *
 * <p>Not run with {@code -Pjersey4}: {@code jersey-jnh-connector} is not published for Jersey 4.0 (see the pom).
 */
@Timeout(60)
class JnhH2cJerseyTest extends FlecheJerseyTest {
    static final String PROTOCOL = "X-Server-Protocol";
    /** The bridge's internal request property holding the exchange ({@code ExchangeProperties.EXCHANGE}). */
    private static final String EXCHANGE = "dev.fleche.jersey.internal.exchange";
    private static final String TAG = "test.tag";

    /** Says on each response which protocol version the transport received its request in. */
    public static class ProtocolFilter implements ContainerRequestFilter, ContainerResponseFilter {
        @Override
        public void filter(ContainerRequestContext request) {
            request.setProperty(TAG, request.getUriInfo().getQueryParameters().getFirst("tag"));
        }

        @Override
        public void filter(ContainerRequestContext request, ContainerResponseContext response) {
            HttpExchange exchange = (HttpExchange) request.getProperty(EXCHANGE);
            response.getHeaders().putSingle(PROTOCOL, exchange == null ? "none" : exchange.version());
        }
    }

    @Path("jnh")
    public static class Resources {
        @Context
        UriInfo uriInfo;

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
        @Produces(MediaType.TEXT_PLAIN)
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

        /** The per-request UriInfo field and the property the request filter set, which must agree. */
        @GET
        @Path("scoped")
        @Produces(MediaType.TEXT_PLAIN)
        public String scoped(@QueryParam("tag") String tag, @Context ContainerRequestContext request) {
            return uriInfo.getQueryParameters().getFirst("tag") + "/" + request.getProperty(TAG) + "/" + tag;
        }
    }

    @Override
    protected Application configure() {
        return new ResourceConfig(Resources.class, ProtocolFilter.class);
    }

    @Override
    protected void configureClient(ClientConfig config) {
        super.configureClient(config);
        config.connectorProvider(new JavaNetHttpConnectorProvider());
        config.property(JavaNetHttpClientProperties.HTTP_VERSION, HttpClient.Version.HTTP_2);
    }

    private static String body(Response response) {
        assertEquals("HTTP/2", response.getHeaderString(PROTOCOL), "protocol the server received");
        return response.readEntity(String.class);
    }

    @Test
    void entitiesAndNotFound() {
        try (Response hello = target("jnh/hello").request().get()) {
            assertEquals(200, hello.getStatus());
            assertEquals("hello", body(hello));
        }
        String text = "0123456789".repeat(20_000);
        try (Response echo = target("jnh/echo").request().post(Entity.text(text))) {
            assertEquals(200, echo.getStatus());
            assertEquals("200000:0123456789", body(echo));
        }
        try (Response missing = target("jnh/nothing-here").request().get()) {
            assertEquals(404, missing.getStatus());
            body(missing);
        }
    }

    @Test
    void asyncAndStreaming() throws Exception {
        try (Response hello = target("jnh/hello").request().get()) {
            assertEquals("hello", body(hello));
        }
        try (Response async = target("jnh/async").request().get()) {
            assertEquals("resumed", body(async));
        }
        try (Response stream = target("jnh/stream").request().get()) {
            assertEquals(100 * 100, body(stream).lines().count());
        }
        Future<Response> later = target("jnh/async").request().async().get();
        try (Response async = later.get(30, TimeUnit.SECONDS)) {
            assertEquals("resumed", body(async));
        }
    }

    @Test
    void requestScopeUnderConcurrentStreams() throws Exception {
        try (Response hello = target("jnh/hello").request().get()) {
            assertEquals("hello", body(hello));
        }
        List<Future<Response>> responses = new ArrayList<>();
        for (int i = 0; i < 40; i++) {
            responses.add(target("jnh/scoped").queryParam("tag", "t" + i).request().async().get());
        }
        for (int i = 0; i < responses.size(); i++) {
            try (Response scoped = responses.get(i).get(30, TimeUnit.SECONDS)) {
                assertEquals("t" + i + "/t" + i + "/t" + i, body(scoped));
            }
        }
    }
}
