package dev.fleche.jersey.internal;

import dev.fleche.jersey.NonBlocking;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import org.glassfish.jersey.server.ResourceConfig;
import org.glassfish.jersey.server.model.Resource;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The table deciding where {@code @NonBlocking} applies. */
class NonBlockingRoutesTest {

    @Path("a")
    public static class A {
        @GET
        @NonBlocking
        public String root() {
            return "";
        }

        @POST
        public String post() {
            return "";
        }

        @GET
        @Path("{id}")
        @NonBlocking
        public String child() {
            return "";
        }

        @GET
        @Path("{id}/slow")
        public String slow() {
            return "";
        }

        @GET
        @Path("typed")
        @NonBlocking
        @Produces("text/plain")
        public String typedText() {
            return "";
        }

        @GET
        @Path("typed")
        @Produces("text/html")
        public String typedHtml() {
            return "";
        }

        @Path("loc/{x}")
        public Object locator() {
            return this;
        }
    }

    @Path("b c")
    public static class Encoded {
        @GET
        @NonBlocking
        public String get() {
            return "";
        }
    }

    @Path("plain")
    public static class Plain {
        @GET
        public String get() {
            return "";
        }
    }

    private final NonBlockingRoutes routes = NonBlockingRoutes.of(
            new ResourceConfig(A.class, Encoded.class, Plain.class));

    @Test
    void annotatedMethodsMatchTheirMethodAndPath() {
        assertTrue(routes.allows("GET", "/a"));
        assertTrue(routes.allows("GET", "/a/"));
        assertTrue(routes.allows("GET", "/a/42"));
        assertTrue(routes.allows("GET", "/b%20c"), "templates match the encoded path");
    }

    @Test
    void anythingElseIsRefused() {
        assertFalse(routes.allows("POST", "/a"), "unannotated method");
        assertFalse(routes.allows("HEAD", "/a"), "HEAD is Jersey's, via GET");
        assertFalse(routes.allows("GET", "/a/42/slow"));
        assertFalse(routes.allows("GET", "/a/typed"), "a blocking method matches too");
        assertFalse(routes.allows("GET", "/a/loc/1"), "a locator matches");
        assertFalse(routes.allows("GET", "/plain"));
        assertFalse(routes.allows("GET", "/nothing"));
        assertFalse(routes.allows("GET", "/b c"));
    }

    @Test
    void noAnnotationMeansNoTable() {
        assertSame(NonBlockingRoutes.NONE, NonBlockingRoutes.of(new ResourceConfig(Plain.class)));
        assertTrue(NonBlockingRoutes.NONE.isEmpty());
    }

    @Test
    void programmaticResourcesCount() {
        Resource.Builder builder = Resource.builder("prog");
        builder.addMethod("GET").handledBy(A.class, methodOf("root"));
        NonBlockingRoutes programmatic = NonBlockingRoutes.of(new ResourceConfig().registerResources(builder.build()));
        assertTrue(programmatic.allows("GET", "/prog"));
    }

    private static java.lang.reflect.Method methodOf(String name) {
        try {
            return A.class.getMethod(name);
        } catch (NoSuchMethodException e) {
            throw new AssertionError(e);
        }
    }
}
