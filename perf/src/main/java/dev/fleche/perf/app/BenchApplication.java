package dev.fleche.perf.app;

import com.fasterxml.jackson.jakarta.rs.json.JacksonJsonProvider;
import jakarta.ws.rs.core.Application;

import java.util.Map;
import java.util.Set;

/**
 * The one application every JAX-RS target serves: {@link BenchResource}, {@link SseResource} and
 * {@link TransferResource}, Jackson's own {@link JacksonJsonProvider} as the JSON provider (the same provider class
 * on Jersey and RESTEasy), WADL off.
 * Jersey targets use {@code ResourceConfig.forApplication(new BenchApplication())}; RESTEasy deploys it as is.
 */
public class BenchApplication extends Application {
    /** {@code ServerProperties.WADL_FEATURE_DISABLE}, spelt out so this class needs no Jersey. */
    public static final String JERSEY_WADL_DISABLE = "jersey.config.server.wadl.disableWadl";

    private final Class<?> resource;

    /** The application with {@link BenchResource}. */
    public BenchApplication() {
        this(BenchResource.class);
    }

    /** The application with {@code resource} in place of {@link BenchResource} (a subclass of it). */
    public BenchApplication(Class<? extends BenchResource> resource) {
        this.resource = resource;
    }

    @Override
    public Set<Class<?>> getClasses() {
        return Set.of(resource, SseResource.class, TransferResource.class, JacksonJsonProvider.class);
    }

    @Override
    public Map<String, Object> getProperties() {
        return Map.of(JERSEY_WADL_DISABLE, true);
    }
}
