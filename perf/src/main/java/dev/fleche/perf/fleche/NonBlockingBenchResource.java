package dev.fleche.perf.fleche;

import dev.fleche.jersey.NonBlocking;
import dev.fleche.perf.app.BenchResource;
import jakarta.ws.rs.Path;

/**
 * {@link BenchResource} with every method run on the reactor thread ({@link NonBlocking} on the class). It adds
 * no code: the resource methods Jersey finds and calls are {@link BenchResource}'s own (inherited with their
 * annotations); only the handler class, which carries {@code @NonBlocking}, differs. {@code @Path} is repeated
 * because JAX-RS does not inherit it. The SSE resource stays on workers (streams do not suit the reactor).
 */
@NonBlocking
@Path("/")
public class NonBlockingBenchResource extends BenchResource {
}
