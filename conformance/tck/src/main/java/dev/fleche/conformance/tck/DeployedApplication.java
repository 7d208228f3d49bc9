package dev.fleche.conformance.tck;

import dev.fleche.jersey.internal.JerseyBridge;
import dev.fleche.transport.HttpExchange;
import dev.fleche.transport.HttpFields;
import org.glassfish.jersey.server.ApplicationHandler;
import org.glassfish.jersey.server.ResourceConfig;
import org.glassfish.jersey.server.spi.Container;

import java.nio.charset.StandardCharsets;
import java.util.function.Supplier;

/**
 * One deployed archive on the shared transport: a Jersey application behind Fleche's {@link JerseyBridge} — the
 * same engine that {@code FlecheContainer} wraps (request and URI building, response writer, suspend timers,
 * worker dispatch, {@code @NonBlocking} routing) — at the archive's root path. It is its own Jersey
 * {@link Container}, with {@code FlecheContainer}'s lifecycle: {@code onStartup} when it starts serving,
 * {@code onShutdown} and release of its workers when undeployed.
 *
 * <p>Why not {@code FlecheHttpServer}: a {@code FlecheHttpServer} owns its transport (one application per port),
 * while the TCK deploys several archives at once (a test class and its superclass each have a
 * {@code @Deployment}) and reaches all of them on the one {@code webServerPort}. Fleche has no public API to put
 * several containers on one transport yet, so the adapter dispatches by context root itself and hands each
 * exchange to the application's bridge.
 */
final class DeployedApplication implements Container {
    private final WarApplication war;
    private final JerseyBridge bridge;
    private volatile boolean running;

    private DeployedApplication(WarApplication war, JerseyBridge bridge) {
        this.war = war;
        this.bridge = bridge;
    }

    /** Builds the application (with the archive's loader as context loader, as a servlet container would). */
    static DeployedApplication create(WarApplication war) {
        if (war.applicationClass() == null) {
            return new DeployedApplication(war, null);
        }
        JerseyBridge bridge = withContextLoader(war.loader(), () -> {
            // The scanned classes are used by Jersey only when the Application returns no classes and singletons.
            ResourceConfig config = ResourceConfig.forApplicationClass(war.applicationClass(),
                    war.annotatedClasses());
            if (!war.properties().isEmpty()) {
                config.addProperties(war.properties());
            }
            return new JerseyBridge(new ApplicationHandler(config));
        });
        String applicationPath = bridge.handler().getConfiguration().getApplicationPath();
        if (war.servletMapped() && applicationPath != null && !applicationPath.replace("/", "").isEmpty()) {
            // A servlet container serves a mapped Application at the mapping and ignores @ApplicationPath; the
            // bridge always appends it. Not needed by the TCK, so refused rather than served at the wrong path.
            throw new IllegalStateException(war.applicationClass().getName() + " has @ApplicationPath(\""
                    + applicationPath + "\") and a web.xml mapping: not supported by this adapter");
        }
        bridge.rootPath(war.rootPath());
        return new DeployedApplication(war, bridge);
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
        return bridge == null ? war.contextRoot() + "/" : bridge.basePath();
    }

    /** Reactor entry point (never blocks): see {@link JerseyBridge#handle}. */
    void handle(HttpExchange exchange) {
        if (bridge == null) {
            exchange.respond(404, new HttpFields(1).add("Content-Type", "text/plain; charset=utf-8"),
                    "no JAX-RS application in this web application\n".getBytes(StandardCharsets.UTF_8));
            return;
        }
        bridge.handle(exchange);
    }

    void start() {
        if (bridge == null) {
            return;
        }
        running = true;
        withContextLoader(war.loader(), () -> {
            bridge.handler().onStartup(this);
            return null;
        });
    }

    void stop() {
        if (bridge == null) {
            return;
        }
        running = false;
        try {
            withContextLoader(war.loader(), () -> {
                bridge.handler().onShutdown(this);
                return null;
            });
        } finally {
            bridge.shutdown();
        }
    }

    @Override
    public ResourceConfig getConfiguration() {
        requireApplication();
        return bridge.handler().getConfiguration();
    }

    @Override
    public ApplicationHandler getApplicationHandler() {
        requireApplication();
        return bridge.handler();
    }

    private void requireApplication() {
        if (bridge == null) {
            throw new IllegalStateException(war.archiveName() + " has no JAX-RS application");
        }
    }

    @Override
    public void reload() {
        reload(new ResourceConfig(getConfiguration()));
    }

    @Override
    public void reload(ResourceConfig configuration) {
        requireApplication();
        ApplicationHandler next = withContextLoader(war.loader(), () -> new ApplicationHandler(configuration));
        ApplicationHandler previous = bridge.handler();
        bridge.replace(next);
        if (running) {
            previous.onShutdown(this);
            next.onReload(this);
            next.onStartup(this);
        } else {
            next.onReload(this);
        }
    }

    @Override
    public String toString() {
        return war + " at " + basePath();
    }
}
