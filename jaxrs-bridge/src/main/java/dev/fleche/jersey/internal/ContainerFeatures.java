package dev.fleche.jersey.internal;

import jakarta.ws.rs.RuntimeType;
import jakarta.ws.rs.core.FeatureContext;
import org.glassfish.jersey.internal.spi.ForcedAutoDiscoverable;

/**
 * Registers what the Fleche container needs inside every server application: the quiet mapper of
 * {@link ClientGone}. Found through {@code META-INF/services} (forced: it applies even when the application
 * turns auto-discovery off); does nothing on a client runtime.
 */
public final class ContainerFeatures implements ForcedAutoDiscoverable {
    @Override
    public void configure(FeatureContext context) {
        if (context.getConfiguration().getRuntimeType() == RuntimeType.SERVER
                && !context.getConfiguration().isRegistered(ClientGone.Mapper.class)) {
            context.register(ClientGone.Mapper.class);
        }
    }
}
