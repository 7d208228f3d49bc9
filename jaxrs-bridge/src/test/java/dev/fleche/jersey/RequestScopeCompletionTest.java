package dev.fleche.jersey;

import jakarta.annotation.PreDestroy;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.core.Application;
import org.glassfish.jersey.server.ResourceConfig;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.util.concurrent.atomic.AtomicInteger;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * The response completes after Jersey has finished the request, as on Grizzly: by the time the client has a
 * synchronous response, the request scope is released — the per-request resource's {@code @PreDestroy} has run
 * (where an application would end a unit of work). Jersey's own
 * {@code RequestScopedAndAsyncTest.shouldProvideAndDisposeSync2} in one: before the writer held the final bytes
 * until {@code handle()} returned, a client could see the answer while the request's instance was still alive.
 */
@Timeout(60)
class RequestScopeCompletionTest extends FlecheJerseyTest {
    static final AtomicInteger CREATED = new AtomicInteger();
    static final AtomicInteger DESTROYED = new AtomicInteger();

    /** Per request (the JAX-RS default): made for each request, destroyed when its scope is released. */
    @Path("tx")
    public static class Resource {
        public Resource() {
            CREATED.incrementAndGet();
        }

        @GET
        public String get() {
            return "done";
        }

        @PreDestroy
        public void destroyed() {
            DESTROYED.incrementAndGet();
        }
    }

    @Override
    protected Application configure() {
        return new ResourceConfig(Resource.class);
    }

    @Test
    void theRequestScopeIsReleasedBeforeTheClientHasTheResponse() {
        for (int i = 1; i <= 200; i++) {
            assertEquals("done", target("tx").request().get(String.class));
            assertEquals(i, CREATED.get());
            assertEquals(i, DESTROYED.get(), "destroyed before the response reached the client, request " + i);
        }
    }
}
