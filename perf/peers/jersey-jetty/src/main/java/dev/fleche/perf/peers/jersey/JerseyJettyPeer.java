package dev.fleche.perf.peers.jersey;

import dev.fleche.perf.app.BenchApplication;
import dev.fleche.perf.app.PeerTls;
import dev.fleche.perf.app.Peers;
import java.net.URI;
import java.util.List;
import org.eclipse.jetty.alpn.server.ALPNServerConnectionFactory;
import org.eclipse.jetty.http2.HTTP2Cipher;
import org.eclipse.jetty.http2.server.HTTP2CServerConnectionFactory;
import org.eclipse.jetty.http2.server.HTTP2ServerConnectionFactory;
import org.eclipse.jetty.server.Connector;
import org.eclipse.jetty.server.HttpConfiguration;
import org.eclipse.jetty.server.HttpConnectionFactory;
import org.eclipse.jetty.server.SecureRequestCustomizer;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.server.ServerConnector;
import org.eclipse.jetty.server.SslConnectionFactory;
import org.eclipse.jetty.util.ssl.SslContextFactory;
import org.glassfish.jersey.jetty.JettyHttpContainer;
import org.glassfish.jersey.jetty.JettyHttpContainerFactory;
import org.glassfish.jersey.server.ContainerFactory;
import org.glassfish.jersey.server.ResourceConfig;

/**
 * Peer: the shared {@link BenchApplication} on Jersey 4.0's {@code jersey-container-jetty-http} (Jetty 12),
 * created with {@link JettyHttpContainerFactory}; only the accept queue is set (4096, as for every peer).
 * Usage: {@code java -jar jersey-jetty-peer.jar PORT [HOST] [--tls KEYSTORE PASSWORD] [--h2]}. With {@code --tls} (see
 * {@link PeerTls}): the factory's HTTPS form, an {@code https} URI and an {@link SslContextFactory.Server} over the
 * key's {@code SSLContext} (Jetty's default protocol and cipher-suite exclusions).
 *
 * <p>With {@code --h2} (perf/h2bench.sh) the factory's server keeps its Jersey handler but gets one connector of
 * this peer's making, as Jersey 3's {@code jersey-container-jetty-http2} did (Jersey 4.0 has no such module): in
 * clear text HTTP/1.1 plus {@link HTTP2CServerConnectionFactory} (h2c by prior knowledge, or Upgrade); with
 * {@code --tls}, ALPN offering {@code h2} then {@code http/1.1} over the JDK's {@code SSLEngine}. Jetty's default
 * HTTP/2 settings.
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
        if (List.of(args).contains("--h2")) {
            http2Connector(server, Peers.host(args), port, tls);
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

    /** Replaces the server's connectors with one serving HTTP/2 (and HTTP/1.1) on the same address. */
    private static void http2Connector(Server server, String host, int port, PeerTls tls) throws Exception {
        for (Connector connector : server.getConnectors()) {
            server.removeConnector(connector);
        }
        HttpConfiguration http = new HttpConfiguration();
        ServerConnector connector;
        if (tls == null) {
            connector = new ServerConnector(server, new HttpConnectionFactory(http),
                    new HTTP2CServerConnectionFactory(http));
        } else {
            http.addCustomizer(new SecureRequestCustomizer());
            SslContextFactory.Server ssl = new SslContextFactory.Server();
            ssl.setSslContext(tls.serverContext());
            ssl.setCipherComparator(HTTP2Cipher.COMPARATOR);
            HTTP2ServerConnectionFactory h2 = new HTTP2ServerConnectionFactory(http);
            ALPNServerConnectionFactory alpn = new ALPNServerConnectionFactory("h2", "http/1.1");
            alpn.setDefaultProtocol("http/1.1");
            connector = new ServerConnector(server, new SslConnectionFactory(ssl, alpn.getProtocol()), alpn, h2,
                    new HttpConnectionFactory(http));
        }
        connector.setHost(host);
        connector.setPort(port);
        server.addConnector(connector);
    }
}
