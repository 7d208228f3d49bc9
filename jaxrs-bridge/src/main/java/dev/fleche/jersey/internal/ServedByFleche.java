package dev.fleche.jersey.internal;

import jakarta.ws.rs.core.FeatureContext;
import org.glassfish.jersey.internal.inject.AbstractBinder;
import org.glassfish.jersey.internal.inject.Binder;
import org.glassfish.jersey.internal.inject.InjectionManagerSupplier;

import java.util.List;

/**
 * What the Fleche container knows of one application handler it builds, kept on the container's side: one instance
 * per {@code ApplicationHandler}, bound in that handler's own injection manager ({@link #binder()}, handed to
 * Jersey's {@code new ApplicationHandler(application, binder)}). Nothing is written into the application the user
 * gave us — a {@code ResourceConfig} is locked by Jersey once a handler is built from it, and may be served again,
 * by Fleche or by another container, which must not inherit anything of ours.
 *
 * <p>Features configured while Jersey builds the handler find it through their {@code FeatureContext}
 * ({@link #of(FeatureContext)}): the container's entity writing ({@link ContainerFeatures}) applies only in an
 * application Fleche serves, and {@code FlecheRequestIds} leaves its work to the container there
 * ({@link TraceFilter#register}). An application built by another container has none, and those features fall back
 * to what works everywhere.
 */
public final class ServedByFleche {
    private ServedByFleche() {
    }

    /** A new mark, bound to its own type: give it to the one {@code ApplicationHandler} being built. */
    static Binder binder() {
        ServedByFleche mark = new ServedByFleche();
        return new AbstractBinder() {
            @Override
            protected void configure() {
                bind(mark).to(ServedByFleche.class);
            }
        };
    }

    /**
     * Whether the application whose features {@code context} configures is being built by the Fleche container:
     * false for another container, a client, or a context that does not reach Jersey's injection manager.
     */
    static boolean building(FeatureContext context) {
        if (!(context instanceof InjectionManagerSupplier supplier) || supplier.getInjectionManager() == null) {
            return false;
        }
        try {
            List<ServedByFleche> marks = supplier.getInjectionManager().getAllInstances(ServedByFleche.class);
            return marks != null && !marks.isEmpty();
        } catch (RuntimeException notBoundYet) {
            return false; // an injection manager that resolves nothing before it is complete: as if unmarked
        }
    }
}
