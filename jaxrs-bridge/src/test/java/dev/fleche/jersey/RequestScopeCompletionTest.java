package dev.fleche.jersey;

import jakarta.inject.Inject;
import jakarta.inject.Provider;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.core.Application;
import org.glassfish.jersey.internal.inject.AbstractBinder;
import org.glassfish.jersey.internal.inject.DisposableSupplier;
import org.glassfish.jersey.process.internal.RequestScoped;
import org.glassfish.jersey.server.ResourceConfig;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.util.concurrent.atomic.AtomicInteger;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * The response completes after Jersey has finished the request, as on Grizzly: by the time the client has a
 * synchronous response, the request scope is released — a request-scoped instance is disposed (where an
 * application would commit a transaction). Jersey's own {@code RequestScopedAndAsyncTest.shouldProvideAndDisposeSync2}
 * in one: before the writer held the final bytes until {@code handle()} returned, a client could see the answer
 * while the instance was still alive.
 */
@Timeout(60)
class RequestScopeCompletionTest extends FlecheJerseyTest {
    static final AtomicInteger CREATED = new AtomicInteger();
    static final AtomicInteger DISPOSED = new AtomicInteger();

    /** A request-scoped thing whose disposal the client must never be ahead of. */
    public static final class Transaction {
    }

    public static final class TransactionFactory implements DisposableSupplier<Transaction> {
        @Override
        public Transaction get() {
            CREATED.incrementAndGet();
            return new Transaction();
        }

        @Override
        public void dispose(Transaction transaction) {
            DISPOSED.incrementAndGet();
        }
    }

    @Path("tx")
    public static class Resource {
        @Inject
        Provider<Transaction> transaction;

        @GET
        public String get() {
            transaction.get();
            return "done";
        }
    }

    @Override
    protected Application configure() {
        return new ResourceConfig(Resource.class).register(new AbstractBinder() {
            @Override
            protected void configure() {
                bindFactory(TransactionFactory.class).to(Transaction.class).in(RequestScoped.class);
            }
        });
    }

    @Test
    void theRequestScopeIsReleasedBeforeTheClientHasTheResponse() {
        for (int i = 1; i <= 200; i++) {
            assertEquals("done", target("tx").request().get(String.class));
            assertEquals(i, CREATED.get());
            assertEquals(i, DISPOSED.get(), "disposed before the response reached the client, request " + i);
        }
    }
}
