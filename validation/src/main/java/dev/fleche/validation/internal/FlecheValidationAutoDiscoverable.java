package dev.fleche.validation.internal;

import dev.fleche.validation.FlecheValidationFeature;
import jakarta.annotation.Priority;
import jakarta.ws.rs.ConstrainedTo;
import jakarta.ws.rs.RuntimeType;
import jakarta.ws.rs.core.FeatureContext;
import org.glassfish.jersey.internal.spi.AutoDiscoverable;

/**
 * Registers {@link FlecheValidationFeature} in every Jersey server application that has this module on its
 * class path and has not registered the feature itself. Like any auto-discoverable, it is skipped when
 * {@code jersey.config.disableAutoDiscovery} (or {@code jersey.config.server.disableAutoDiscovery}) is true, and
 * the feature does nothing when {@value FlecheValidationFeature#DISABLE} is true.
 */
@ConstrainedTo(RuntimeType.SERVER)
@Priority(AutoDiscoverable.DEFAULT_PRIORITY)
public final class FlecheValidationAutoDiscoverable implements AutoDiscoverable {

    @Override
    public void configure(FeatureContext context) {
        if (!context.getConfiguration().isRegistered(FlecheValidationFeature.class)) {
            context.register(FlecheValidationFeature.class);
        }
    }
}
