package dev.fleche.conformance.tck;

import dev.fleche.jersey.FlecheContainer;
import dev.fleche.transport.HttpExchange;
import dev.fleche.transport.HttpFields;
import dev.fleche.transport.HttpHandler;
import dev.fleche.transport.HttpServer;
import org.glassfish.jersey.server.ContainerFactory;
import org.glassfish.jersey.server.ResourceConfig;

import java.nio.charset.StandardCharsets;
import java.util.function.Supplier;

/**
 * One deployed archive on the shared transport: a {@link FlecheContainer} made through Jersey's public
 * {@code ContainerFactory} (Fleche's {@code ContainerProvider}) and mounted on the adapter's transport at the
 * archive's root path with {@link FlecheContainer#mount} — the same container, request and URI building, response
 * writer, suspend timers, worker dispatch and {@code @NonBlocking} routing that {@code FlecheHttpServer} serves. Its
 * lifecycle is the container's: {@code onStartup} when it starts serving, {@code onShutdown} and release of its
 * workers when undeployed.
 *
 * <p>Why not one {@code FlecheHttpServer} per archive: a {@code FlecheHttpServer} owns its transport (one
 * application per port), while the TCK deploys several archives at once (a test class and its superclass each have
 * a {@code @Deployment}) and reaches all of them on the one {@code webServerPort}; so the adapter dispatches by
 * context root and mounts each container on its one transport.
 */
final class DeployedApplication {
    private final WarApplication war;
    private final FlecheContainer container;
    private final HttpHandler handler;

    private DeployedApplication(WarApplication war, FlecheContainer container, HttpHandler handler) {
        this.war = war;
        this.container = container;
        this.handler = handler;
    }

    /** Builds the application (with the archive's loader as context loader, as a servlet container would). */
    static DeployedApplication create(WarApplication war, HttpServer transport) {
        if (war.applicationClass() == null) {
            return new DeployedApplication(war, null, null);
        }
        FlecheContainer container = withContextLoader(war.loader(), () -> {
            // The scanned classes are used by Jersey only when the Application returns no classes and singletons.
            ResourceConfig config = ResourceConfig.forApplicationClass(war.applicationClass(),
                    war.annotatedClasses());
            if (!war.properties().isEmpty()) {
                config.addProperties(war.properties());
            }
            return ContainerFactory.createContainer(FlecheContainer.class, config);
        });
        String applicationPath = container.getConfiguration().getApplicationPath();
        if (war.servletMapped() && applicationPath != null && !applicationPath.replace("/", "").isEmpty()) {
            // A servlet container serves a mapped Application at the mapping and ignores @ApplicationPath; the
            // container always appends it. Not needed by the TCK, so refused rather than served at the wrong path.
            throw new IllegalStateException(war.applicationClass().getName() + " has @ApplicationPath(\""
                    + applicationPath + "\") and a web.xml mapping: not supported by this adapter");
        }
        return new DeployedApplication(war, container, container.mount(transport, war.rootPath()));
    }

    static <T> T withContextLoader(ClassLoader loader, Supplier<T> action) {
        Thread thread = Thread.currentThread();
        ClassLoader previous = thread.getContextClassLoader();
        thread.setContextClassLoader(loader);
        try {
            return action.get();
        } finally {
            thread.setContextClassLoader(previous);
        }
    }

    WarApplication war() {
        return war;
    }

    /** The context root requests are dispatched on ({@code /foo}). */
    String contextRoot() {
        return war.contextRoot();
    }

    /** Root + application path, starting and ending with {@code /}. */
    String basePath() {
        return container == null ? war.contextRoot() + "/" : container.basePath();
    }

    /** Reactor entry point (never blocks): the mounted container's handler. */
    void handle(HttpExchange exchange) throws Exception {
        if (handler == null) {
            exchange.respond(404, new HttpFields(1).add("Content-Type", "text/plain; charset=utf-8"),
                    "no JAX-RS application in this web application\n".getBytes(StandardCharsets.UTF_8));
            return;
        }
        handler.handle(exchange);
    }

    void start() {
        if (container != null) {
            withContextLoader(war.loader(), () -> {
                container.serverStarted();
                return null;
            });
        }
    }

    void stop() {
        if (container != null) {
            withContextLoader(war.loader(), () -> {
                container.serverStopped();
                return null;
            });
        }
    }

    @Override
    public String toString() {
        return war + " at " + basePath();
    }
}
