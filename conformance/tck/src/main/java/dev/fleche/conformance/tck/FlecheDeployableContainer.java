package dev.fleche.conformance.tck;

import dev.fleche.transport.HttpServer;
import dev.fleche.transport.ServerOptions;
import org.jboss.arquillian.container.spi.client.container.DeployableContainer;
import org.jboss.arquillian.container.spi.client.container.DeploymentException;
import org.jboss.arquillian.container.spi.client.container.LifecycleException;
import org.jboss.arquillian.container.spi.client.protocol.ProtocolDescription;
import org.jboss.arquillian.container.spi.client.protocol.metadata.HTTPContext;
import org.jboss.arquillian.container.spi.client.protocol.metadata.ProtocolMetaData;
import org.jboss.arquillian.container.spi.client.protocol.metadata.Servlet;
import org.jboss.shrinkwrap.api.Archive;
import org.jboss.shrinkwrap.descriptor.api.Descriptor;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.BindException;
import java.net.InetSocketAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Comparator;
import java.util.logging.Level;
import java.util.logging.Logger;
import java.util.stream.Stream;

/**
 * An Arquillian container that serves deployed web archives with Jersey on Fleche, in the test JVM.
 *
 * <p>{@link #start()} binds one Fleche transport ({@link HttpServer}) at the configured host and port — the
 * TCK's {@code webServerHost}/{@code webServerPort} — with a {@link ContextDispatcher} as its handler.
 * {@link #deploy(Archive)} reads the archive ({@link WarApplication}), builds its Jersey application in a
 * {@code FlecheContainer} mounted on that transport ({@link DeployedApplication}) and adds it under {@code /<archive name>}; several archives can be
 * deployed at once. {@link #undeploy(Archive)} removes it and shuts the application down. The transport stays
 * bound from the first deployment of the run to the last, so nothing waits for a port between test classes.
 */
public class FlecheDeployableContainer implements DeployableContainer<FlecheContainerConfiguration> {
    private static final Logger LOG = Logger.getLogger(FlecheDeployableContainer.class.getName());
    private static final int BIND_ATTEMPTS = 10;

    private FlecheContainerConfiguration configuration;
    private final ProtocolCensus census = new ProtocolCensus();
    private ContextDispatcher dispatcher;
    private HttpServer transport;
    private Path tempRoot;

    @Override
    public Class<FlecheContainerConfiguration> getConfigurationClass() {
        return FlecheContainerConfiguration.class;
    }

    @Override
    public void setup(FlecheContainerConfiguration configuration) {
        this.configuration = configuration;
    }

    @Override
    public void start() throws LifecycleException {
        try {
            tempRoot = Files.createTempDirectory("fleche-tck-");
            dispatcher = new ContextDispatcher(census);
            ServerOptions options = ServerOptions.builder()
                    .address(new InetSocketAddress(configuration.getBindHost(), configuration.getBindPort()))
                    .build();
            transport = bind(options);
            LOG.info(() -> "Fleche TCK container listening on " + transport.address());
        } catch (IOException | RuntimeException e) {
            throw new LifecycleException("cannot start Fleche on " + configuration.getBindHost() + ":"
                    + configuration.getBindPort() + ": " + e, e);
        }
    }

    /**
     * Starts the transport; retries a port in use for up to {@value #BIND_ATTEMPTS} seconds (a short-lived socket
     * elsewhere on the machine may hold it for a moment), because the TCK's clients know only this port.
     */
    private HttpServer bind(ServerOptions options) throws IOException {
        for (int attempt = 1; ; attempt++) {
            try {
                return HttpServer.create(options, dispatcher).start();
            } catch (BindException e) {
                if (attempt >= BIND_ATTEMPTS) {
                    throw e;
                }
                LOG.warning(() -> options.address() + " is in use (" + e.getMessage() + "); retrying");
                try {
                    Thread.sleep(1000);
                } catch (InterruptedException interrupted) {
                    Thread.currentThread().interrupt();
                    throw e;
                }
            }
        }
    }

    @Override
    public void stop() throws LifecycleException {
        try {
            if (transport != null) {
                transport.stop(Duration.ofMillis(configuration.getStopGraceMillis()));
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new LifecycleException("interrupted while stopping Fleche", e);
        } finally {
            if (dispatcher != null) {
                for (DeployedApplication app : dispatcher.removeAll()) {
                    shutDown(app);
                }
            }
            deleteTree(tempRoot);
            writeCensus();
        }
    }

    /** Writes the protocol census so far (after every undeploy: the run may end without a clean stop). */
    private void writeCensus() {
        String file = configuration.getProtocolCensusFile();
        try {
            census.writeTo(file == null || file.isBlank() ? null : Path.of(file));
        } catch (IOException e) {
            LOG.log(Level.WARNING, "cannot write the protocol census to " + file, e);
        }
    }

    @Override
    public ProtocolDescription getDefaultProtocol() {
        // Every TCK deployment is testable=false except two whose tests are all excluded; "Local" runs a
        // testable deployment's tests in this JVM, which is where the container is anyway.
        return new ProtocolDescription("Local");
    }

    @Override
    public ProtocolMetaData deploy(Archive<?> archive) throws DeploymentException {
        WarApplication war = WarApplication.read(archive, tempRoot);
        DeployedApplication app;
        try {
            app = DeployedApplication.create(war, transport);
        } catch (RuntimeException | LinkageError e) {
            war.close();
            throw new DeploymentException("cannot build the Jersey application of " + war + ": " + e, e);
        }
        try {
            dispatcher.add(app);
        } catch (IllegalStateException e) {
            shutDown(app);
            throw new DeploymentException(e.getMessage(), e);
        }
        app.start();
        LOG.info(() -> "deployed " + app);
        String host = configuration.getBindHost();
        int port = transport.port();
        return new ProtocolMetaData().addContext(
                new HTTPContext(host, port).add(new Servlet(servletName(war), war.contextRoot())));
    }

    @Override
    public void undeploy(Archive<?> archive) throws DeploymentException {
        DeployedApplication app = dispatcher.remove(archive.getName());
        if (app == null) {
            throw new DeploymentException(archive.getName() + " is not deployed");
        }
        shutDown(app);
        writeCensus();
        LOG.info(() -> "undeployed " + app);
    }

    /** The name the deployment's HTTP context reports for it (the application class, as a servlet would be). */
    private static String servletName(WarApplication war) {
        return war.applicationClass() == null ? "default" : war.applicationClass().getSimpleName();
    }

    private static void shutDown(DeployedApplication app) {
        try {
            app.stop();
        } catch (RuntimeException e) {
            LOG.log(Level.WARNING, "shutting down " + app + " failed", e);
        } finally {
            app.war().close();
        }
    }

    @Override
    public void deploy(Descriptor descriptor) throws DeploymentException {
        throw new UnsupportedOperationException("descriptors cannot be deployed on Fleche: " + descriptor);
    }

    @Override
    public void undeploy(Descriptor descriptor) throws DeploymentException {
        throw new UnsupportedOperationException("descriptors cannot be deployed on Fleche: " + descriptor);
    }

    private static void deleteTree(Path root) {
        if (root == null || !Files.exists(root)) {
            return;
        }
        try (Stream<Path> paths = Files.walk(root)) {
            paths.sorted(Comparator.reverseOrder()).forEach(p -> {
                try {
                    Files.deleteIfExists(p);
                } catch (IOException e) {
                    throw new UncheckedIOException(e);
                }
            });
        } catch (IOException | UncheckedIOException e) {
            LOG.log(Level.FINE, "cannot delete " + root, e);
        }
    }
}
