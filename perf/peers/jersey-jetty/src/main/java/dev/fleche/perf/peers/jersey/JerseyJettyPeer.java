package dev.fleche.perf.peers.jersey;

import dev.fleche.perf.app.BenchApplication;
import dev.fleche.perf.app.Peers;
import java.net.URI;
import org.eclipse.jetty.server.Connector;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.server.ServerConnector;
import org.glassfish.jersey.jetty.JettyHttpContainerFactory;
import org.glassfish.jersey.server.ResourceConfig;

/**
 * Peer: the shared {@link BenchApplication} on Jersey 4.0's {@code jersey-container-jetty-http} (Jetty 12),
 * created with {@link JettyHttpContainerFactory}; only the accept queue is set (4096, as for every peer).
 * Usage: {@code java -jar jersey-jetty-peer.jar PORT}.
 */
public final class JerseyJettyPeer {
    private JerseyJettyPeer() {
    }

    public static void main(String[] args) throws Exception {
        Peers.quietLogging();
        int port = Peers.port(args);
        URI uri = URI.create("http://" + Peers.host(args) + ":" + port + "/");
        Server server = JettyHttpContainerFactory.createServer(uri,
                ResourceConfig.forApplication(new BenchApplication()), false);
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
