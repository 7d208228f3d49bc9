package dev.fleche.async.internal;

import dev.fleche.async.FlecheAsyncFeature;
import jakarta.ws.rs.core.FeatureContext;
import org.glassfish.jersey.internal.spi.AutoDiscoverable;

/** Registers {@link FlecheAsyncFeature} in every application (Jersey auto-discovery, {@code META-INF/services}). */
public final class AsyncAutoDiscoverable implements AutoDiscoverable {
    @Override
    public void configure(FeatureContext context) {
        if (!context.getConfiguration().isRegistered(FlecheAsyncFeature.class)) {
            context.register(FlecheAsyncFeature.class);
        }
    }
}
