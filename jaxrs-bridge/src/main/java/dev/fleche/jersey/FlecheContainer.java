package dev.fleche.jersey;

import dev.fleche.jersey.internal.JerseyBridge;
import jakarta.ws.rs.core.Application;
import org.glassfish.jersey.server.ApplicationHandler;
import org.glassfish.jersey.server.ResourceConfig;
import org.glassfish.jersey.server.spi.Container;

import java.util.concurrent.atomic.AtomicBoolean;

/**
 * The Jersey {@link Container} of Fleche: hosts one application and serves it through a
 * {@link FlecheHttpServer}. Create one with {@link FlecheHttpServerFactory}, with {@code SeBootstrap}, or with
 * {@code ContainerFactory.createContainer(FlecheContainer.class, application)} and then
 * {@link FlecheHttpServerFactory#createServer(java.net.URI, FlecheContainer, dev.fleche.transport.ServerOptions,
 * boolean)}.
 *
 * <p>Lifecycle: {@code ContainerLifecycleListener.onStartup} runs when the server starts listening,
 * {@code onShutdown} when it stops; {@link #reload(ResourceConfig)} calls {@code onShutdown} on the old
 * application and {@code onReload} then {@code onStartup} on the new one (the latter two only while running).
 * Requests in flight during a reload finish on the application they started on.
 *
 * <p>Threading: see the module README; in short, Jersey runs on virtual threads (Java 21+) or a bounded pool,
 * never on the transport's reactor threads unless a method is {@link NonBlocking @NonBlocking}.
 */
public final class FlecheContainer implements Container {
    private final JerseyBridge bridge;
    private final AtomicBoolean attached = new AtomicBoolean();
    private volatile boolean running;

    FlecheContainer(Application application) {
        this(new ApplicationHandler(application));
    }

    FlecheContainer(Class<? extends Application> applicationClass) {
        this(new ApplicationHandler(applicationClass));
    }

    private FlecheContainer(ApplicationHandler handler) {
        this.bridge = new JerseyBridge(handler);
    }

    @Override
    public ResourceConfig getConfiguration() {
        return bridge.handler().getConfiguration();
    }

    @Override
    public ApplicationHandler getApplicationHandler() {
        return bridge.handler();
    }

    @Override
    public void reload() {
        reload(new ResourceConfig(getConfiguration()));
    }

    @Override
    public void reload(ResourceConfig configuration) {
        ApplicationHandler next = new ApplicationHandler(configuration);
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

    /** Whether the server serving this container is listening. */
    public boolean isRunning() {
        return running;
    }

    @Override
    public String toString() {
        return "FlecheContainer[base=" + bridge.basePath() + ", workers=" + bridge.describeWorkers() + "]";
    }

    // ---- used by FlecheHttpServer

    JerseyBridge bridge() {
        return bridge;
    }

    /** Claims the container for one server; a container serves at most one. */
    void attach(String rootPath) {
        if (!attached.compareAndSet(false, true)) {
            throw new IllegalStateException("this container is already served by a FlecheHttpServer");
        }
        bridge.rootPath(rootPath);
    }

    void started() {
        running = true;
        bridge.handler().onStartup(this);
    }

    void stopped() {
        running = false;
        try {
            bridge.handler().onShutdown(this);
        } finally {
            bridge.shutdown();
        }
    }

    /**
     * Timers the container armed for requests (suspend timeouts, {@link ClientConnection#schedule}) that have
     * neither run nor been cancelled. Every one is cancelled when its response completes, so this returns to 0
     * once no request is suspended; tests use it to prove that none leak.
     */
    public int armedTimers() {
        return bridge.armedTimers();
    }
}
