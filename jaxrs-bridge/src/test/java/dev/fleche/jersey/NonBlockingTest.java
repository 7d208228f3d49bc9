package dev.fleche.jersey;

import jakarta.ws.rs.GET;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.client.Entity;
import jakarta.ws.rs.container.AsyncResponse;
import jakarta.ws.rs.container.Suspended;
import jakarta.ws.rs.core.Application;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import org.glassfish.jersey.server.ResourceConfig;
import org.junit.jupiter.api.Test;

import java.util.concurrent.CompletableFuture;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Where resource methods run: never on a reactor thread, unless {@code @NonBlocking} and safe to. */
class NonBlockingTest extends FlecheJerseyTest {
    static final String REACTOR = "fleche-reactor-";

    static String thread() {
        return Thread.currentThread().getName();
    }

    @Path("threads")
    public static class Threads {
        @GET
        @Path("plain")
        public String plain() {
            return thread();
        }

        @GET
        @Path("fast")
        @NonBlocking
        public String fast() {
            return thread();
        }

        @POST
        @Path("fast")
        @NonBlocking
        public String fastPost(String body) {
            return thread() + " " + body.length();
        }

        @GET
        @Path("big")
        @NonBlocking
        public String big(@QueryParam("size") int size) {
            return "x".repeat(size);
        }

        @GET
        @Path("mixed")
        @NonBlocking
        @Produces(MediaType.TEXT_PLAIN)
        public String mixedText() {
            return thread();
        }

        @GET
        @Path("mixed")
        @Produces(MediaType.TEXT_HTML)
        public String mixedHtml() {
            return thread();
        }

        @GET
        @Path("{any}")
        @NonBlocking
        public String any(@PathParam("any") String any) {
            return thread();
        }

        @GET
        @Path("async")
        @NonBlocking
        public void async(@Suspended AsyncResponse response) {
            CompletableFuture.runAsync(() -> response.resume("resumed"));
        }

        @Path("locator/{x}")
        public Sub locator() {
            return new Sub();
        }
    }

    @NonBlocking
    public static class Sub {
        @GET
        public String get() {
            return thread();
        }
    }

    @Path("annotated-class")
    @NonBlocking
    public static class AnnotatedClass {
        @GET
        public String get() {
            return thread();
        }
    }

    /** A locator at a path a @NonBlocking method also matches: the request must go to a worker. */
    @Path("shadowed")
    public static class Shadowed {
        @GET
        @Path("{id}")
        @NonBlocking
        public String get() {
            return thread();
        }

        @Path("{id}")
        public Sub locator() {
            return new Sub();
        }
    }

    @Override
    protected Application configure() {
        return new ResourceConfig(Threads.class, AnnotatedClass.class, Shadowed.class)
                .property(FlecheProperties.NON_BLOCKING_MAX_RESPONSE_BYTES, 1000);
    }

    private String get(String path) {
        int query = path.indexOf('?');
        if (query < 0) {
            return target(path).request().get(String.class);
        }
        String[] param = path.substring(query + 1).split("=");
        return target(path.substring(0, query)).queryParam(param[0], param[1]).request().get(String.class);
    }

    @Test
    void unannotatedMethodsNeverRunOnAReactor() {
        for (int i = 0; i < 20; i++) {
            String thread = get("threads/plain");
            assertFalse(thread.startsWith(REACTOR), thread);
        }
    }

    @Test
    void annotatedMethodRunsOnTheReactor() {
        assertTrue(get("threads/fast").startsWith(REACTOR));
        assertTrue(get("annotated-class").startsWith(REACTOR));
    }

    @Test
    void smallBodiesStayOnTheReactorLargeOnesGoToAWorker() {
        String small = target("threads/fast").request().post(Entity.text("abc"), String.class);
        assertTrue(small.startsWith(REACTOR) && small.endsWith(" 3"), small);
        String large = target("threads/fast").request().post(Entity.text("y".repeat(100_000)), String.class);
        assertFalse(large.startsWith(REACTOR), large);
        assertTrue(large.endsWith(" 100000"), large);
    }

    @Test
    void ambiguousMatchesGoToAWorker() {
        assertFalse(target("threads/mixed").request(MediaType.TEXT_PLAIN).get(String.class).startsWith(REACTOR));
        assertFalse(target("threads/mixed").request(MediaType.TEXT_HTML).get(String.class).startsWith(REACTOR));
        assertFalse(get("shadowed/1").startsWith(REACTOR), "a locator could take the request");
    }

    @Test
    void templateMatchesAndLocatorsAreDecidedConservatively() {
        assertTrue(get("threads/other").startsWith(REACTOR), "only @NonBlocking methods match threads/other");
        assertFalse(get("threads/locator/1").startsWith(REACTOR), "sub-resource locators go to a worker");
    }

    @Test
    void asyncNonBlockingMethodsMayResumeFromElsewhere() {
        assertEquals("resumed", get("threads/async"));
    }

    @Test
    void responsesOverTheLimitFailWithAClearMessage() {
        assertEquals(1000, get("threads/big?size=1000").length());
        Response response = target("threads/big").queryParam("size", 1001).request().get();
        assertEquals(500, response.getStatus());
        String message = response.readEntity(String.class);
        assertTrue(message.contains("@NonBlocking") && message.contains("1000"), message);
    }
}
