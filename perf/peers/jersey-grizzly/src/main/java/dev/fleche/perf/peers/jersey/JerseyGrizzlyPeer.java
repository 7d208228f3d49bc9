package dev.fleche.perf.peers.jersey;

import dev.fleche.perf.app.BenchApplication;
import dev.fleche.perf.app.PeerTls;
import dev.fleche.perf.app.Peers;
import java.net.URI;
import org.glassfish.grizzly.http.server.HttpServer;
import org.glassfish.grizzly.http.server.NetworkListener;
import org.glassfish.grizzly.ssl.SSLEngineConfigurator;
import org.glassfish.jersey.grizzly2.httpserver.GrizzlyHttpServerFactory;
import org.glassfish.jersey.server.ResourceConfig;

/**
 * Peer: the shared {@link BenchApplication} on Jersey 4.0's {@code jersey-container-grizzly2-http}, created with
 * {@link GrizzlyHttpServerFactory} as its documentation shows; only the accept backlog is set (4096, as for every
 * peer). Usage: {@code java -jar jersey-grizzly-peer.jar PORT [HOST] [--tls KEYSTORE PASSWORD]}; prints
 * {@code READY <port>}. With {@code --tls} (see {@link PeerTls}): the factory's HTTPS form, an {@code https} URI
 * and an {@link SSLEngineConfigurator} over the key's {@code SSLContext} in server mode, no client authentication
 * (protocols and cipher suites: the JDK's defaults). With {@code --h2} too, the listener gets Grizzly's HTTP/2
 * add-on ({@code Http2AddOn}: h2 by ALPN), as Grizzly documents it (Jersey 4.0.2's factory has no HTTP/2 form).
 */
public final class JerseyGrizzlyPeer {
    private JerseyGrizzlyPeer() {
    }

    public static void main(String[] args) throws Exception {
        Peers.quietLogging();
        int port = Peers.port(args);
        PeerTls tls = PeerTls.fromArgs(args);
        URI uri = URI.create((tls != null ? "https://" : "http://") + Peers.host(args) + ":" + port + "/");
        ResourceConfig config = ResourceConfig.forApplication(new BenchApplication());
        HttpServer server = tls == null ? GrizzlyHttpServerFactory.createHttpServer(uri, config, false)
                : GrizzlyHttpServerFactory.createHttpServer(uri, config, true,
                        new SSLEngineConfigurator(tls.serverContext(), false, false, false), false);
        boolean h2 = java.util.Arrays.asList(args).contains("--h2");
        for (NetworkListener listener : server.getListeners()) {
            listener.getTransport().setServerConnectionBackLog(4096);
            if (h2) {
                listener.registerAddOn(new org.glassfish.grizzly.http2.Http2AddOn());
            }
        }
        server.start();
        Runtime.getRuntime().addShutdownHook(new Thread(server::shutdownNow));
        Peers.ready(port);
    }
}
