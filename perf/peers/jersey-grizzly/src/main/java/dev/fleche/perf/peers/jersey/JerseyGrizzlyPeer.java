package dev.fleche.perf.peers.jersey;

import dev.fleche.perf.app.BenchApplication;
import dev.fleche.perf.app.Peers;
import java.net.URI;
import org.glassfish.grizzly.http.server.HttpServer;
import org.glassfish.grizzly.http.server.NetworkListener;
import org.glassfish.jersey.grizzly2.httpserver.GrizzlyHttpServerFactory;
import org.glassfish.jersey.server.ResourceConfig;

/**
 * Peer: the shared {@link BenchApplication} on Jersey 4.0's {@code jersey-container-grizzly2-http}, created with
 * {@link GrizzlyHttpServerFactory} as its documentation shows; only the accept backlog is set (4096, as for every
 * peer). Usage: {@code java -jar jersey-grizzly-peer.jar PORT}; prints {@code READY <port>}.
 */
public final class JerseyGrizzlyPeer {
    private JerseyGrizzlyPeer() {
    }

    public static void main(String[] args) throws Exception {
        Peers.quietLogging();
        int port = Peers.port(args);
        URI uri = URI.create("http://" + Peers.host(args) + ":" + port + "/");
        HttpServer server = GrizzlyHttpServerFactory.createHttpServer(uri,
                ResourceConfig.forApplication(new BenchApplication()), false);
        for (NetworkListener listener : server.getListeners()) {
            listener.getTransport().setServerConnectionBackLog(4096);
        }
        server.start();
        Runtime.getRuntime().addShutdownHook(new Thread(server::shutdownNow));
        Peers.ready(port);
    }
}
