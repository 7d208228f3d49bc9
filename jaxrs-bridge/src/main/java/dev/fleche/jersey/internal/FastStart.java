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
 *
 * <p>The application the user gave is never written to: Jersey locks a {@code ResourceConfig} once a handler is
 * built from it, and the same configuration may be served again, by Fleche or by another container, which must
 * not inherit the preset. The preset goes into a {@code ResourceConfig} the container owns: a copy of the user's
 * ({@code new ResourceConfig(config)}, with the components of an application it wraps), or Jersey's own wrapper of
 * an {@code Application}. So with the preset on, {@code @Context Application} is that copy.
 */
public final class FastStart {
    /** The Jersey properties the preset sets (the table above). */
    public static final Map<String, Object> PRESET = Map.of(
            ServerProperties.FEATURE_AUTO_DISCOVERY_DISABLE, Boolean.TRUE,
            ServerProperties.METAINF_SERVICES_LOOKUP_DISABLE, Boolean.TRUE,
            ServerProperties.WADL_FEATURE_DISABLE, Boolean.TRUE,
            ServerProperties.RESOURCE_VALIDATION_DISABLE, Boolean.TRUE);

    private static final System.Logger LOG = System.getLogger(FastStart.class.getName());

    private FastStart() {
    }

    /**
     * {@code application} with the preset applied when its properties ask for it and set some of it themselves
     * not: a {@code ResourceConfig} the container owns with the missing properties added (see the class
     * description); otherwise {@code application} itself, unchanged.
     */
    public static Object apply(Object application) {
        if (!(application instanceof Application app) || !isOn(app.getProperties().get(FlecheProperties.FAST_START))) {
            return application;
        }
        Map<String, Object> own = app.getProperties();
        if (own.keySet().containsAll(PRESET.keySet())) {
            return application;
        }
        ResourceConfig config = ownedCopy(app);
        if (config == null) {
            LOG.log(System.Logger.Level.WARNING, FlecheProperties.FAST_START + " ignored: the application is a "
                    + "ResourceConfig wrapping an Application class that Jersey has not made yet, which a copy "
                    + "cannot carry; set the preset's properties on it yourself");
            return application;
        }
        PRESET.forEach((name, value) -> {
            if (!own.containsKey(name)) {
                config.property(name, value);
            }
        });
        return config;
    }

    /**
     * A {@code ResourceConfig} of {@code app} that nobody else holds: Jersey's wrapper of a plain {@code Application}
     * ({@code ResourceConfig.forApplication}, a new object that reads the application), or a copy of a
     * {@code ResourceConfig} — with, when it wraps an application instance, that application's classes and
     * singletons, which a copy would not carry (Jersey's runtime configuration registers them the same way).
     * Null for a {@code ResourceConfig} wrapping an application class not made yet
     * ({@code ResourceConfig.forApplicationClass}): no copy can carry that.
     */
    static ResourceConfig ownedCopy(Application app) {
        if (!(app instanceof ResourceConfig original)) {
            return ResourceConfig.forApplication(app);
        }
        ResourceConfig copy = new ResourceConfig(original);
        Application wrapped = original.getApplication();
        if (wrapped == null) {
            return null;
        }
        if (wrapped != original) {
            if (wrapped.getSingletons() != null) {
                copy.registerInstances(wrapped.getSingletons());
            }
            if (wrapped.getClasses() != null) {
                copy.registerClasses(wrapped.getClasses());
            }
        }
        return copy;
    }

    /** A {@code Boolean} or its string form; anything else (absent included) is off. */
    static boolean isOn(Object value) {
        return value instanceof Boolean on ? on : value != null && Boolean.parseBoolean(value.toString().trim());
    }
}
