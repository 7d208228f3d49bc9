package dev.fleche.jersey.internal;

import java.util.function.Supplier;

/**
 * Whether the application handler Jersey is building is one the Fleche container builds — known on the container's
 * side, never written into the application the user gave us. A {@code ResourceConfig} is locked by Jersey once a
 * handler is built from it, and may be served again, by Fleche or by another container, which must not inherit
 * anything of ours (issue 35: a mark written into it broke every second server of one configuration, and made
 * Grizzly answer empty bodies).
 *
 * <p>Jersey builds a handler synchronously: {@code new ApplicationHandler(...)} configures the auto-discoverables and
 * features of the application on the calling thread before it returns. {@link #build} runs that constructor with
 * this thread marked, and features ask {@link #building()} while they are configured: the container's entity writing
 * ({@link ContainerFeatures}) applies only in an application Fleche serves, and {@code FlecheRequestIds} leaves its
 * work to the container there ({@link TraceFilter#register}). What must outlive the build goes into the handler's
 * own runtime configuration (Jersey's copy of the application, not the user's), where every copy Jersey makes of it
 * keeps it.
 *
 * <p>Why not a binding in the handler's injection manager ({@code new ApplicationHandler(app, binder)}): the only
 * ways to make a binding differ between Jersey 3.1 ({@code internal.inject.Bindings}) and 4.0
 * ({@code innate.inject.Bindings}, exported to Jersey's own injection modules only), and this module is one source
 * for both lines.
 */
public final class ServedByFleche {
    /** Set while this thread runs Jersey's handler constructor for the Fleche container ({@link #build}). */
    private static final ThreadLocal<Boolean> BUILDING = new ThreadLocal<>();

    private ServedByFleche() {
    }

    /** {@code jersey}'s handler, built with this thread marked as building for the Fleche container. */
    static <T> T build(Supplier<T> jersey) {
        Boolean outer = BUILDING.get();
        BUILDING.set(Boolean.TRUE);
        try {
            return jersey.get();
        } finally {
            if (outer == null) {
                BUILDING.remove();
            }
        }
    }

    /** Whether this thread is building an application handler for the Fleche container. */
    static boolean building() {
        return BUILDING.get() != null;
    }
}
