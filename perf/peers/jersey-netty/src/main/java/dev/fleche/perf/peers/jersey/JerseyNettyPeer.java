package dev.fleche.perf.peers.jersey;

import dev.fleche.perf.app.BenchApplication;
import dev.fleche.perf.app.Peers;
import io.netty.channel.Channel;
import java.net.URI;
import org.glassfish.jersey.netty.httpserver.NettyHttpContainerProvider;
import org.glassfish.jersey.server.ResourceConfig;

/**
 * Peer: the shared {@link BenchApplication} on Jersey 4.0's {@code jersey-container-netty-http}, created with
 * {@link NettyHttpContainerProvider#createServer} (HTTP/1.1); the factory offers no backlog setting, so Netty's
 * default (the system's somaxconn) applies. Usage: {@code java -jar jersey-netty-peer.jar PORT}.
 */
public final class JerseyNettyPeer {
    private JerseyNettyPeer() {
    }

    public static void main(String[] args) {
        Peers.quietLogging();
        int port = Peers.port(args);
        URI uri = URI.create("http://" + Peers.host(args) + ":" + port + "/");
        Channel channel = NettyHttpContainerProvider.createServer(uri,
                ResourceConfig.forApplication(new BenchApplication()), false);
        Runtime.getRuntime().addShutdownHook(new Thread(channel::close));
        Peers.ready(port);
    }
}
