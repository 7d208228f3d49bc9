package dev.fleche.jersey.internal;

import dev.fleche.jersey.FlecheProperties;
import jakarta.ws.rs.core.Application;
import org.glassfish.jersey.server.ResourceConfig;
import org.glassfish.jersey.server.ServerProperties;

import java.util.Map;

/**
 * The closed-world preset {@link FlecheProperties#FAST_START}: when an application's properties turn it on, the
 * Jersey properties of {@link #PRESET} are added to its configuration before Jersey builds the application handler,
 * each only where the application does not set it itself (an explicit {@code false} wins). What it skips at start:
 *
 * <table>
 *   <caption>What the preset turns off</caption>
 *   <tr><th>Jersey property</th><th>what Jersey then does not do</th><th>what the application must do instead</th></tr>
 *   <tr><td>{@value ServerProperties#FEATURE_AUTO_DISCOVERY_DISABLE}</td><td>look up and run the
 *       {@code AutoDiscoverable}s of every jar ({@code META-INF/services}); the forced ones (Fleche's own
 *       container features, Bean Validation, WADL, monitoring) still run</td><td>register the features it relies on
 *       (e.g. {@code FlecheValidationFeature}, {@code LoggingFeature}, Jersey's server filters)</td></tr>
 *   <tr><td>{@value ServerProperties#METAINF_SERVICES_LOOKUP_DISABLE}</td><td>register the
 *       {@code MessageBodyReader}/{@code Writer}s that jars list in {@code META-INF/services}</td><td>register its
 *       entity providers (e.g. {@code JacksonJsonProvider})</td></tr>
 *   <tr><td>{@value ServerProperties#WADL_FEATURE_DISABLE}</td><td>build the WADL and answer
 *       {@code /application.wadl} and {@code OPTIONS} with it</td><td>nothing</td></tr>
 *   <tr><td>{@value ServerProperties#RESOURCE_VALIDATION_DISABLE}</td><td>validate the resource model (ambiguous
 *       methods, bad annotations) at start</td><td>have it validated elsewhere: its tests (or a start without the
 *       preset, as the AOT training run is) report the same errors</td></tr>
 * </table>
 *
 * <p>Read from the {@link Application} instance's properties ({@code ResourceConfig.property(FAST_START, true)});
 * an application given as a class is left as it is (Jersey instantiates it later).
 */
public final class FastStart {
    /** The Jersey properties the preset sets (the table above). */
    public static final Map<String, Object> PRESET = Map.of(
            ServerProperties.FEATURE_AUTO_DISCOVERY_DISABLE, Boolean.TRUE,
            ServerProperties.METAINF_SERVICES_LOOKUP_DISABLE, Boolean.TRUE,
            ServerProperties.WADL_FEATURE_DISABLE, Boolean.TRUE,
            ServerProperties.RESOURCE_VALIDATION_DISABLE, Boolean.TRUE);

    private FastStart() {
    }

    /**
     * {@code application} with the preset applied when its properties ask for it: a {@code ResourceConfig} gets the
     * missing properties added (the same object is returned), another {@code Application} is wrapped in one
     * ({@code ResourceConfig.forApplication}, as Jersey itself would); anything else is returned as is.
     */
    public static Object apply(Object application) {
        if (!(application instanceof Application app) || !isOn(app.getProperties().get(FlecheProperties.FAST_START))) {
            return application;
        }
        Map<String, Object> own = app.getProperties();
        ResourceConfig config = app instanceof ResourceConfig resourceConfig ? resourceConfig
                : ResourceConfig.forApplication(app);
        PRESET.forEach((name, value) -> {
            if (!own.containsKey(name)) {
                config.property(name, value);
            }
        });
        return config;
    }

    /** A {@code Boolean} or its string form; anything else (absent included) is off. */
    static boolean isOn(Object value) {
        return value instanceof Boolean on ? on : value != null && Boolean.parseBoolean(value.toString().trim());
    }
}
