package dev.fleche.perf.peers.jetty;

import dev.fleche.perf.app.PeerTls;
import dev.fleche.perf.app.Peers;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import org.eclipse.jetty.alpn.server.ALPNServerConnectionFactory;
import org.eclipse.jetty.http.HttpHeader;
import org.eclipse.jetty.http.HttpMethod;
import org.eclipse.jetty.http.HttpStatus;
import org.eclipse.jetty.http2.HTTP2Cipher;
import org.eclipse.jetty.http2.server.HTTP2CServerConnectionFactory;
import org.eclipse.jetty.http2.server.HTTP2ServerConnectionFactory;
import org.eclipse.jetty.server.Handler;
import org.eclipse.jetty.server.HttpConfiguration;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.server.ServerConnector;
import org.eclipse.jetty.server.SslConnectionFactory;
import org.eclipse.jetty.util.Callback;
import org.eclipse.jetty.util.ssl.SslContextFactory;

/**
 * HTTP/2 transport peer (perf/h2bench.sh): Jetty 12 core with a plain non-blocking {@link Handler} (no servlets).
 * {@code GET /hello} answers {@code 200 text/plain "Hello, World!"}; anything else {@code 404}.
 *
 * <p>Clear text: one connector with {@link HTTP2CServerConnectionFactory} only (h2c by prior knowledge). With
 * {@code --tls KEYSTORE PASSWORD} (see {@link PeerTls}): {@link SslConnectionFactory} over the store's
 * {@code SSLContext} (the JDK provider), then {@link ALPNServerConnectionFactory} offering {@code h2}, then
 * {@link HTTP2ServerConnectionFactory}. Jetty's default thread pool and HTTP/2 settings; accept queue 4096.
 *
 * <p>Usage: {@code java -jar jetty-h2-peer.jar PORT [HOST] [--tls KEYSTORE PASSWORD]}; prints {@code READY <port>}.
 */
public final class JettyH2Peer {

    private static final ByteBuffer HELLO =
            ByteBuffer.wrap("Hello, World!".getBytes(StandardCharsets.US_ASCII)).asReadOnlyBuffer();

    private JettyH2Peer() {
    }

    public static void main(String[] args) throws Exception {
        Peers.quietLogging();
        int port = Peers.port(args);
        PeerTls tls = PeerTls.fromArgs(args);
        Server server = new Server();
        HttpConfiguration http = new HttpConfiguration();
        http.setSendServerVersion(false);
        ServerConnector connector;
        if (tls == null) {
            connector = new ServerConnector(server, new HTTP2CServerConnectionFactory(http));
        } else {
            SslContextFactory.Server ssl = new SslContextFactory.Server();
            ssl.setSslContext(tls.serverContext());
            ssl.setCipherComparator(HTTP2Cipher.COMPARATOR);
            HTTP2ServerConnectionFactory h2 = new HTTP2ServerConnectionFactory(http);
            ALPNServerConnectionFactory alpn = new ALPNServerConnectionFactory("h2");
            alpn.setDefaultProtocol(h2.getProtocol());
            connector = new ServerConnector(server, new SslConnectionFactory(ssl, alpn.getProtocol()), alpn, h2);
        }
        connector.setHost(Peers.host(args));
        connector.setPort(port);
        connector.setAcceptQueueSize(4096);
        server.addConnector(connector);
        server.setHandler(new Hello());
        server.start();
        Peers.ready(connector.getLocalPort());
        server.join();
    }

    /** The one endpoint, answered on the calling thread without blocking. */
    private static final class Hello extends Handler.Abstract.NonBlocking {
        @Override
        public boolean handle(Request request, Response response, Callback callback) {
            if (!HttpMethod.GET.is(request.getMethod()) || !"/hello".equals(Request.getPathInContext(request))) {
                Response.writeError(request, response, callback, HttpStatus.NOT_FOUND_404);
                return true;
            }
            response.setStatus(HttpStatus.OK_200);
            response.getHeaders().put(HttpHeader.CONTENT_TYPE, "text/plain");
            response.getHeaders().put(HttpHeader.CONTENT_LENGTH, HELLO.remaining());
            response.write(true, HELLO.slice(), callback);
            return true;
        }
    }
}
