package dev.fleche.perf.peers.jersey;

import com.sun.net.httpserver.HttpServer;
import dev.fleche.perf.app.BenchApplication;
import dev.fleche.perf.app.Peers;
import java.net.URI;
import org.glassfish.jersey.jdkhttp.JdkHttpServerFactory;
import org.glassfish.jersey.server.ResourceConfig;

/**
 * Peer: the shared {@link BenchApplication} on Jersey 4.0's {@code jersey-container-jdk-http} (the JDK's
 * {@code com.sun.net.httpserver}), created with {@link JdkHttpServerFactory}. Sets
 * {@code sun.net.httpserver.nodelay=true} itself (without it every response waits for a delayed ACK), so that
 * the JVM flags stay the same for every target. The JDK server cannot suspend requests: no async, long-poll or
 * SSE scenarios. Usage: {@code java -jar jersey-jdk-peer.jar PORT}.
 */
public final class JerseyJdkPeer {
    private JerseyJdkPeer() {
    }

    public static void main(String[] args) {
        System.setProperty("sun.net.httpserver.nodelay", "true");
        Peers.quietLogging();
        int port = Peers.port(args);
        URI uri = URI.create("http://" + Peers.host(args) + ":" + port + "/");
        HttpServer server = JdkHttpServerFactory.createHttpServer(uri,
                ResourceConfig.forApplication(new BenchApplication()));
        Runtime.getRuntime().addShutdownHook(new Thread(() -> server.stop(0)));
        Peers.ready(port);
    }
}
