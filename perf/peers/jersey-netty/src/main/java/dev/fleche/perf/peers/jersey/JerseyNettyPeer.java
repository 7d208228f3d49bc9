package dev.fleche.perf.peers.jersey;

import dev.fleche.perf.app.BenchApplication;
import dev.fleche.perf.app.PeerTls;
import dev.fleche.perf.app.Peers;
import io.netty.channel.Channel;
import io.netty.handler.ssl.ApplicationProtocolConfig;
import io.netty.handler.ssl.ApplicationProtocolNames;
import io.netty.handler.ssl.SslContext;
import io.netty.handler.ssl.SslContextBuilder;
import io.netty.handler.ssl.SslProvider;
import java.net.URI;
import java.util.List;
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
 *
 * <p>With {@code --h2 --tls KEYSTORE PASSWORD} (perf/h2bench.sh): HTTP/2 over TLS through
 * {@link NettyHttpContainerProvider#createHttp2Server}, its {@link SslContext} (JDK provider) offering {@code h2}
 * then {@code http/1.1} by ALPN. Jersey's clear-text HTTP/2 is by Upgrade only (no prior knowledge), which h2load
 * cannot drive, so {@code --h2} requires {@code --tls}.
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
        if (List.of(args).contains("--h2")) {
            if (tls == null) {
                throw new IllegalArgumentException("--h2 needs --tls KEYSTORE PASSWORD (Jersey's h2c is Upgrade only)");
            }
            Channel channel = NettyHttpContainerProvider.createHttp2Server(uri, config, http2Tls(tls));
            Runtime.getRuntime().addShutdownHook(new Thread(channel::close));
            Peers.ready(port);
            return;
        }
        Channel channel = tls == null ? NettyHttpContainerProvider.createServer(uri, config, false)
                : NettyHttpContainerProvider.createServer(uri, config,
                        SslContextBuilder.forServer(tls.keyManagers()).sslProvider(SslProvider.JDK).build(), false);
        Runtime.getRuntime().addShutdownHook(new Thread(channel::close));
        Peers.ready(port);
    }

    /** The JDK provider's {@link SslContext}, ALPN offering h2 then http/1.1 (what Jersey's version chooser reads). */
    private static SslContext http2Tls(PeerTls tls) throws Exception {
        return SslContextBuilder.forServer(tls.keyManagers()).sslProvider(SslProvider.JDK)
                .applicationProtocolConfig(new ApplicationProtocolConfig(ApplicationProtocolConfig.Protocol.ALPN,
                        ApplicationProtocolConfig.SelectorFailureBehavior.NO_ADVERTISE,
                        ApplicationProtocolConfig.SelectedListenerFailureBehavior.ACCEPT,
                        ApplicationProtocolNames.HTTP_2, ApplicationProtocolNames.HTTP_1_1))
                .build();
    }
}
