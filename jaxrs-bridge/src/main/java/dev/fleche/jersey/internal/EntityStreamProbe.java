package dev.fleche.jersey.internal;

import jakarta.annotation.Priority;
import jakarta.ws.rs.container.ContainerRequestContext;
import jakarta.ws.rs.container.ContainerResponseContext;
import jakarta.ws.rs.container.ContainerResponseFilter;
import jakarta.ws.rs.container.DynamicFeature;
import jakarta.ws.rs.core.Configuration;
import jakarta.ws.rs.core.Feature;
import jakarta.ws.rs.core.FeatureContext;
import org.glassfish.jersey.server.ContainerRequest;

/**
 * Hands the response writer the response as the application's response filters see it, so that the writer can tell,
 * when Jersey asks whether to buffer the entity, that a filter replaced Jersey's entity stream
 * ({@code setEntityStream}: Jersey's {@code LoggingFeature} with payload logging, filters that sign or transform the
 * body). Then Jersey buffers the entity below that stream, as on its other containers, and an entity provider that
 * fails within the buffer is mapped to a whole response (an {@code ExceptionMapper}'s) rather than cut; otherwise the
 * container's own {@link LengthBuffer} does the work without Jersey's per-response array.
 *
 * <p>Registered ({@link Install}) only in an application that has response filters or dynamic features that may
 * add some: Jersey merges and sorts the response filters of every request once there is one, a cost an application
 * without any should not pay for this. The filter itself stores one reference; its priority does not matter, since
 * the writer looks at the response after every filter ran.
 */
@Priority(Integer.MAX_VALUE)
final class EntityStreamProbe implements ContainerResponseFilter {

    @Override
    public void filter(ContainerRequestContext request, ContainerResponseContext response) {
        if (request instanceof ContainerRequest jersey && jersey.getResponseWriter() instanceof ResponseWriter writer) {
            writer.filtered(response);
        }
    }

    /**
     * Registers the probe in an application with response filters or dynamic features (registered by then:
     * configured after the application's own features, being registered by {@link ContainerFeatures}).
     */
    static final class Install implements Feature {
        @Override
        public boolean configure(FeatureContext context) {
            Configuration configuration = context.getConfiguration();
            if (configuration.isRegistered(EntityStreamProbe.class) || !mayReplaceEntityStreams(configuration)) {
                return false;
            }
            context.register(new EntityStreamProbe());
            return true;
        }

        private static boolean mayReplaceEntityStreams(Configuration configuration) {
            for (Class<?> type : configuration.getClasses()) {
                if (filters(configuration, type)) {
                    return true;
                }
            }
            for (Object instance : configuration.getInstances()) {
                if (filters(configuration, instance.getClass())) {
                    return true;
                }
            }
            return false;
        }

        private static boolean filters(Configuration configuration, Class<?> type) {
            var contracts = configuration.getContracts(type);
            return contracts.containsKey(ContainerResponseFilter.class) || contracts.containsKey(DynamicFeature.class);
        }
    }
}
