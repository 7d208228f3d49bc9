package dev.fleche.perf.peers.jersey;

import dev.fleche.perf.app.BenchApplication;
import dev.fleche.perf.app.PeerTls;
import dev.fleche.perf.app.Peers;
import io.netty.channel.Channel;
import io.netty.handler.ssl.SslContext;
import io.netty.handler.ssl.SslContextBuilder;
import io.netty.handler.ssl.SslProvider;
import java.net.URI;
import org.glassfish.jersey.netty.httpserver.NettyHttpContainerProvider;
import org.glassfish.jersey.server.ResourceConfig;

/**
 * Peer: the shared {@link BenchApplication} on Jersey 4.0's {@code jersey-container-netty-http}, created with
 * {@link NettyHttpContainerProvider#createServer} (HTTP/1.1); the factory offers no backlog setting, so Netty's
 * default (the system's somaxconn) applies. Usage: {@code java -jar jersey-netty-peer.jar PORT [HOST]
 * [--tls KEYSTORE PASSWORD]}. With {@code --tls} (see {@link PeerTls}): an {@code https} URI and
 * {@link NettyHttpContainerProvider#createServer(URI, ResourceConfig, SslContext, boolean)} with a Netty
 * {@link SslContext} built for the JDK provider ({@link SslProvider#JDK}, no OpenSSL), Netty's default protocols
 * and cipher suites for it.
 */
public final class JerseyNettyPeer {
    private JerseyNettyPeer() {
    }

    public static void main(String[] args) throws Exception {
        Peers.quietLogging();
        int port = Peers.port(args);
        PeerTls tls = PeerTls.fromArgs(args);
        URI uri = URI.create((tls != null ? "https://" : "http://") + Peers.host(args) + ":" + port + "/");
        ResourceConfig config = ResourceConfig.forApplication(new BenchApplication());
        Channel channel = tls == null ? NettyHttpContainerProvider.createServer(uri, config, false)
                : NettyHttpContainerProvider.createServer(uri, config,
                        SslContextBuilder.forServer(tls.keyManagers()).sslProvider(SslProvider.JDK).build(), false);
        Runtime.getRuntime().addShutdownHook(new Thread(channel::close));
        Peers.ready(port);
    }
}
