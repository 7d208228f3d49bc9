package dev.fleche.jersey;

import jakarta.ws.rs.GET;
import jakarta.ws.rs.NameBinding;
import jakarta.ws.rs.NotFoundException;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.WebApplicationException;
import jakarta.ws.rs.client.Entity;
import jakarta.ws.rs.container.ContainerRequestContext;
import jakarta.ws.rs.container.ContainerRequestFilter;
import jakarta.ws.rs.container.ContainerResponseContext;
import jakarta.ws.rs.container.ContainerResponseFilter;
import jakarta.ws.rs.container.PreMatching;
import jakarta.ws.rs.core.Application;
import jakarta.ws.rs.core.Response;
import jakarta.ws.rs.ext.ExceptionMapper;
import jakarta.ws.rs.ext.ReaderInterceptor;
import jakarta.ws.rs.ext.ReaderInterceptorContext;
import jakarta.ws.rs.ext.WriterInterceptor;
import jakarta.ws.rs.ext.WriterInterceptorContext;
import org.glassfish.jersey.server.ResourceConfig;
import org.junit.jupiter.api.Test;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.nio.charset.StandardCharsets;
import java.util.Locale;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

/** Exception mappers, filters, interceptors and name binding, through Fleche. */
class ProvidersTest extends FlecheJerseyTest {

    @NameBinding
    @Retention(RetentionPolicy.RUNTIME)
    public @interface Shout {
    }

    /** A domain exception with its mapper. */
    public static class OutOfStock extends RuntimeException {
        OutOfStock(String item) {
            super(item);
        }
    }

    public static class OutOfStockMapper implements ExceptionMapper<OutOfStock> {
        @Override
        public Response toResponse(OutOfStock e) {
            return Response.status(409).header("X-Reason", "out-of-stock").entity("no more " + e.getMessage()).build();
        }
    }

    @PreMatching
    public static class RewriteFilter implements ContainerRequestFilter {
        @Override
        public void filter(ContainerRequestContext request) {
            if (request.getUriInfo().getPath().equals("old")) {
                request.setRequestUri(request.getUriInfo().getRequestUriBuilder().replacePath(
                        request.getUriInfo().getBaseUri().getPath() + "providers/plain").build());
            }
        }
    }

    public static class StampFilter implements ContainerResponseFilter {
        @Override
        public void filter(ContainerRequestContext request, ContainerResponseContext response) {
            response.getHeaders().add("X-Stamp", "fleche");
        }
    }

    public static class ReverseReader implements ReaderInterceptor {
        @Override
        public Object aroundReadFrom(ReaderInterceptorContext context) throws IOException {
            byte[] body = context.getInputStream().readAllBytes();
            String reversed = new StringBuilder(new String(body, StandardCharsets.UTF_8)).reverse().toString();
            context.setInputStream(new java.io.ByteArrayInputStream(reversed.getBytes(StandardCharsets.UTF_8)));
            return context.proceed();
        }
    }

    @Shout
    public static class ShoutWriter implements WriterInterceptor {
        @Override
        public void aroundWriteTo(WriterInterceptorContext context) throws IOException {
            OutputStream original = context.getOutputStream();
            ByteArrayOutputStream buffer = new ByteArrayOutputStream();
            context.setOutputStream(buffer);
            context.proceed();
            original.write(buffer.toString(StandardCharsets.UTF_8).toUpperCase(Locale.ROOT)
                    .getBytes(StandardCharsets.UTF_8));
        }
    }

    @Path("providers")
    public static class Resource {
        @GET
        @Path("plain")
        public String plain() {
            return "plain";
        }

        @GET
        @Path("shout")
        @Shout
        public String shout() {
            return "quiet words";
        }

        @GET
        @Path("stock")
        public String stock() {
            throw new OutOfStock("apples");
        }

        @GET
        @Path("web")
        public String web() {
            throw new WebApplicationException(Response.status(418).entity("teapot").build());
        }

        @GET
        @Path("missing")
        public String missing() {
            throw new NotFoundException();
        }

        @GET
        @Path("bug")
        public String bug() {
            throw new IllegalStateException("a bug");
        }

        @POST
        @Path("reverse")
        public String reverse(String body) {
            return body;
        }
    }

    @Override
    protected Application configure() {
        return new ResourceConfig(Resource.class, OutOfStockMapper.class, RewriteFilter.class, StampFilter.class,
                ReverseReader.class, ShoutWriter.class);
    }

    @Test
    void exceptionMapperShapesTheResponse() {
        Response response = target("providers/stock").request().get();
        assertEquals(409, response.getStatus());
        assertEquals("out-of-stock", response.getHeaderString("X-Reason"));
        assertEquals("no more apples", response.readEntity(String.class));
    }

    @Test
    void webApplicationExceptionsCarryTheirResponse() {
        Response response = target("providers/web").request().get();
        assertEquals(418, response.getStatus());
        assertEquals("teapot", response.readEntity(String.class));
        assertEquals(404, target("providers/missing").request().get().getStatus());
    }

    @Test
    void unmappedExceptionIs500() {
        assertEquals(500, target("providers/bug").request().get().getStatus());
    }

    @Test
    void responseFilterSeesEveryResponse() {
        assertEquals("fleche", target("providers/plain").request().get().getHeaderString("X-Stamp"));
        assertEquals("fleche", target("providers/stock").request().get().getHeaderString("X-Stamp"));
    }

    @Test
    void preMatchingFilterCanReroute() {
        assertEquals("plain", target("old").request().get(String.class));
    }

    @Test
    void readerInterceptorWrapsTheEntityStream() {
        assertEquals("olleh", target("providers/reverse").request().post(Entity.text("hello"), String.class));
    }

    @Test
    void nameBoundInterceptorAppliesOnlyToBoundMethods() {
        assertEquals("QUIET WORDS", target("providers/shout").request().get(String.class));
        Response plain = target("providers/plain").request().get();
        assertEquals("plain", plain.readEntity(String.class));
        assertNull(plain.getHeaderString("X-Missing"));
    }
}
