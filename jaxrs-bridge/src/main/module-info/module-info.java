/**
 * Jersey on Fleche: the container, the server factory, the {@code SeBootstrap} web server
 * ({@code dev.fleche.jersey}) and the JerseyTest container factory ({@code dev.fleche.jersey.test}, named in
 * {@code jersey.config.test.container.factory}). {@code internal} is not exported.
 *
 * <p>The {@code requires} of Jersey are filled in by the build ({@code jpms.jersey.*} in the parent pom): Jersey
 * 3.1's jars are automatic modules named from their file names, Jersey 4.0's are named modules.
 */
module dev.fleche.jersey {
    exports dev.fleche.jersey;
    exports dev.fleche.jersey.test;

    // Public signatures name ServerOptions and friends (FlecheHttpServerFactory, FlecheProperties), ResourceConfig
    // and Container (FlecheContainer, the factories) and the Jakarta REST types.
    requires transitive dev.fleche.transport;
    requires transitive jakarta.ws.rs;
    requires transitive ${jpms.jersey.server};
    requires ${jpms.jersey.common};
    requires jakarta.annotation;
    // SignalTrap: sun.misc.Signal, so the drain runs on SIGTERM (the JDK has no public API for it).
    requires jdk.unsupported;

    // Optional, as in the pom: the JerseyTest container factory, and FlecheMetrics. Not transitive, although
    // those two name their types (javac's "exports" lint says so): a module reading this one would then fail to
    // compile without them. Their users require them anyway.
    requires static ${jpms.jersey.test};
    requires static ${jpms.jersey.client};
    requires static micrometer.core;
    requires static ${jpms.jersey.micrometer};

    // Jersey finds these through META-INF/services (kept for the class path) and instantiates them reflectively
    // (its ServiceFinder, not ServiceLoader); the internal ones are providers and features that ContainerFeatures
    // registers, which HK2 constructs and injects.
    opens dev.fleche.jersey.internal;

    provides org.glassfish.jersey.server.spi.ContainerProvider with dev.fleche.jersey.FlecheContainerProvider;
    provides org.glassfish.jersey.server.spi.WebServerProvider with dev.fleche.jersey.FlecheWebServerProvider;
    provides org.glassfish.jersey.internal.spi.ForcedAutoDiscoverable
            with dev.fleche.jersey.internal.ContainerFeatures;
    // No "provides org.glassfish.jersey.test.spi.TestContainerFactory": its module is optional, and a provides of
    // a service whose module is absent fails the boot layer. JerseyTest finds FlecheTestContainerFactory by name
    // (jersey.config.test.container.factory; the package is exported) or, on the class path, through
    // META-INF/services.
}
