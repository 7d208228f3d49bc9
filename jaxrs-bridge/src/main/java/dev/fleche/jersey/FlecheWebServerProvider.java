package dev.fleche.jersey;

import dev.fleche.jersey.internal.BootstrapSettings;
import jakarta.ws.rs.SeBootstrap;
import jakarta.ws.rs.core.Application;
import org.glassfish.jersey.server.spi.WebServer;
import org.glassfish.jersey.server.spi.WebServerProvider;

/**
 * Jersey's {@link WebServerProvider} for {@link FlecheWebServer}, registered in {@code META-INF/services}: makes
 * {@code SeBootstrap.start(...)} run on Fleche. Answers for {@code WebServer.class} and {@code FlecheWebServer.class}
 * (or the type named by {@code jersey.config.server.bootstrap.webserver.class}), else null.
 */
public final class FlecheWebServerProvider implements WebServerProvider {

    /** Called by Jersey's service lookup. */
    public FlecheWebServerProvider() {
    }

    @Override
    public <T extends WebServer> T createServer(Class<T> type, Application application,
                                                SeBootstrap.Configuration configuration) {
        if (!WebServerProvider.isSupportedWebServer(FlecheWebServer.class, type, configuration)) {
            return null;
        }
        BootstrapSettings settings = BootstrapSettings.from(configuration);
        return type.cast(new FlecheWebServer(new FlecheContainer(application), settings));
    }

    @Override
    public <T extends WebServer> T createServer(Class<T> type, Class<? extends Application> applicationClass,
                                                SeBootstrap.Configuration configuration) {
        if (!WebServerProvider.isSupportedWebServer(FlecheWebServer.class, type, configuration)) {
            return null;
        }
        BootstrapSettings settings = BootstrapSettings.from(configuration);
        return type.cast(new FlecheWebServer(new FlecheContainer(applicationClass), settings));
    }
}
