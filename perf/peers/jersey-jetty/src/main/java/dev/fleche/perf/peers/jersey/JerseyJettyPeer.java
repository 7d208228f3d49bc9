package dev.fleche.perf.peers.jersey;

import dev.fleche.perf.app.BenchApplication;
import dev.fleche.perf.app.PeerTls;
import dev.fleche.perf.app.Peers;
import java.net.URI;
import org.eclipse.jetty.server.Connector;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.server.ServerConnector;
import org.eclipse.jetty.util.ssl.SslContextFactory;
import org.glassfish.jersey.jetty.JettyHttpContainer;
import org.glassfish.jersey.jetty.JettyHttpContainerFactory;
import org.glassfish.jersey.server.ContainerFactory;
import org.glassfish.jersey.server.ResourceConfig;

/**
 * Peer: the shared {@link BenchApplication} on Jersey 4.0's {@code jersey-container-jetty-http} (Jetty 12),
 * created with {@link JettyHttpContainerFactory}; only the accept queue is set (4096, as for every peer).
 * Usage: {@code java -jar jersey-jetty-peer.jar PORT [HOST] [--tls KEYSTORE PASSWORD]}. With {@code --tls} (see
 * {@link PeerTls}): the factory's HTTPS form, an {@code https} URI and an {@link SslContextFactory.Server} over the
 * key's {@code SSLContext} (Jetty's default protocol and cipher-suite exclusions).
 */
public final class JerseyJettyPeer {
    private JerseyJettyPeer() {
    }

    public static void main(String[] args) throws Exception {
        Peers.quietLogging();
        int port = Peers.port(args);
        PeerTls tls = PeerTls.fromArgs(args);
        URI uri = URI.create((tls != null ? "https://" : "http://") + Peers.host(args) + ":" + port + "/");
        ResourceConfig config = ResourceConfig.forApplication(new BenchApplication());
        Server server;
        if (tls == null) {
            server = JettyHttpContainerFactory.createServer(uri, config, false);
        } else {
            SslContextFactory.Server ssl = new SslContextFactory.Server();
            ssl.setSslContext(tls.serverContext());
            server = JettyHttpContainerFactory.createServer(uri, ssl,
                    ContainerFactory.createContainer(JettyHttpContainer.class, config), false);
        }
        for (Connector connector : server.getConnectors()) {
            if (connector instanceof ServerConnector sc) {
                sc.setAcceptQueueSize(4096);
            }
        }
        server.start();
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            try {
                server.stop();
            } catch (Exception e) {
                // exiting anyway
            }
        }));
        Peers.ready(port);
    }
}
