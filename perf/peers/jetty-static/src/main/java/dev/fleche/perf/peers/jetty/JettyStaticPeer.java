package dev.fleche.perf.peers.jetty;

import dev.fleche.perf.app.PeerTls;
import dev.fleche.perf.app.Peers;
import java.nio.file.Path;
import org.eclipse.jetty.alpn.server.ALPNServerConnectionFactory;
import org.eclipse.jetty.http2.HTTP2Cipher;
import org.eclipse.jetty.http2.server.HTTP2CServerConnectionFactory;
import org.eclipse.jetty.http2.server.HTTP2ServerConnectionFactory;
import org.eclipse.jetty.server.HttpConfiguration;
import org.eclipse.jetty.server.HttpConnectionFactory;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.server.ServerConnector;
import org.eclipse.jetty.server.SslConnectionFactory;
import org.eclipse.jetty.server.handler.ContextHandler;
import org.eclipse.jetty.server.handler.ResourceHandler;
import org.eclipse.jetty.util.resource.ResourceFactory;
import org.eclipse.jetty.util.ssl.SslContextFactory;

/**
 * Static-file peer of {@code perf/staticbench.sh} (issue 38): Jetty 12 core's {@link ResourceHandler} serving
 * {@code DIR} at {@code /files/} (in a {@link ContextHandler}), as shipped (its defaults: no directory listing set
 * here, its own caching), backlog 4096. Clear text: HTTP/1.1 and h2c on one connector. With
 * {@code --tls KEYSTORE PASSWORD}: TLS with ALPN offering {@code h2} then {@code http/1.1}.
 *
 * <p>Usage: {@code java -jar jetty-static-peer.jar PORT [HOST] --dir DIR [--tls KEYSTORE PASSWORD]}; prints
 * {@code READY <port>}.
 */
public final class JettyStaticPeer {
    private JettyStaticPeer() {
    }

    public static void main(String[] args) throws Exception {
        Peers.quietLogging();
        int port = Peers.port(args);
        String dir = null;
        for (int i = 0; i < args.length - 1; i++) {
            if (args[i].equals("--dir")) {
                dir = args[i + 1];
            }
        }
        if (dir == null) {
            throw new IllegalArgumentException("usage: PORT [HOST] --dir DIR [--tls KEYSTORE PASSWORD]");
        }
        PeerTls tls = PeerTls.fromArgs(args);
        Server server = new Server();
        HttpConfiguration http = new HttpConfiguration();
        http.setSendServerVersion(false);
        ServerConnector connector;
        if (tls == null) {
            connector = new ServerConnector(server, new HttpConnectionFactory(http),
                    new HTTP2CServerConnectionFactory(http));
        } else {
            SslContextFactory.Server ssl = new SslContextFactory.Server();
            ssl.setSslContext(tls.serverContext());
            ssl.setCipherComparator(HTTP2Cipher.COMPARATOR);
            HttpConnectionFactory h1 = new HttpConnectionFactory(http);
            HTTP2ServerConnectionFactory h2 = new HTTP2ServerConnectionFactory(http);
            ALPNServerConnectionFactory alpn = new ALPNServerConnectionFactory("h2", "http/1.1");
            alpn.setDefaultProtocol(h1.getProtocol());
            connector = new ServerConnector(server, new SslConnectionFactory(ssl, alpn.getProtocol()), alpn, h2, h1);
        }
        connector.setHost(Peers.host(args));
        connector.setPort(port);
        connector.setAcceptQueueSize(4096);
        server.addConnector(connector);
        ResourceHandler files = new ResourceHandler();
        files.setBaseResource(ResourceFactory.of(server).newResource(Path.of(dir)));
        ContextHandler context = new ContextHandler(files, "/files");
        server.setHandler(context);
        server.start();
        Peers.ready(connector.getLocalPort());
        server.join();
    }
}
