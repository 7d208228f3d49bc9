package dev.fleche.conformance.tck;

import org.jboss.arquillian.container.spi.client.container.DeployableContainer;
import org.jboss.arquillian.core.spi.LoadableExtension;

/** Registers {@link FlecheDeployableContainer} with Arquillian (listed in {@code META-INF/services}). */
public final class FlecheArquillianExtension implements LoadableExtension {
    @Override
    public void register(ExtensionBuilder builder) {
        builder.service(DeployableContainer.class, FlecheDeployableContainer.class);
    }
}
