package dev.fleche.jersey;

import jakarta.ws.rs.core.Application;
import org.glassfish.jersey.server.spi.ContainerProvider;

/**
 * Jersey's {@link ContainerProvider} for {@link FlecheContainer}, registered in {@code META-INF/services}:
 * {@code ContainerFactory.createContainer(FlecheContainer.class, application)} (and
 * {@code RuntimeDelegate.createEndpoint}) return a new container; other types get null.
 */
public final class FlecheContainerProvider implements ContainerProvider {

    /** Called by Jersey's service lookup. */
    public FlecheContainerProvider() {
    }

    @Override
    public <T> T createContainer(Class<T> type, Application application) {
        if (type != FlecheContainer.class) {
            return null;
        }
        return type.cast(new FlecheContainer(application));
    }
}
