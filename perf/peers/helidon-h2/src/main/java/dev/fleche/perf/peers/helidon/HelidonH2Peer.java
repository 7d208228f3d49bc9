package dev.fleche.perf.peers.helidon;

import dev.fleche.perf.app.PeerTls;
import dev.fleche.perf.app.Peers;
import io.helidon.common.tls.Tls;
import io.helidon.http.HeaderValues;
import io.helidon.webserver.WebServer;
import io.helidon.webserver.WebServerConfig;
import java.nio.charset.StandardCharsets;

/**
 * HTTP/2 transport peer (perf/h2bench.sh): Helidon SE 4's webserver with {@code helidon-webserver-http2} on the
 * class path (found by the service loader: h2c by prior knowledge or Upgrade, and h2 by ALPN over TLS), one routing
 * rule: {@code GET /hello} answers {@code 200 text/plain "Hello, World!"} (Helidon answers 404 otherwise). Handlers
 * run on virtual threads, Helidon's model. With {@code --tls KEYSTORE PASSWORD} (see {@link PeerTls}) the listener
 * uses the store's {@code SSLContext} (the JDK provider). Defaults otherwise, but for an accept backlog of 4096 and
 * {@code TCP_NODELAY} on accepted connections, as every other peer has (Helidon's default is off, and with it a
 * response's HEADERS and DATA frames meet Nagle and delayed ACKs: ~40 ms per request at one stream per connection).
 *
 * <p>Usage: {@code java -jar helidon-h2-peer.jar PORT [HOST] [--tls KEYSTORE PASSWORD]}; needs Java 21+.
 */
public final class HelidonH2Peer {

    private static final byte[] HELLO = "Hello, World!".getBytes(StandardCharsets.US_ASCII);

    private HelidonH2Peer() {
    }

    public static void main(String[] args) throws Exception {
        Peers.quietLogging();
        int port = Peers.port(args);
        PeerTls tls = PeerTls.fromArgs(args);
        WebServerConfig.Builder builder = WebServer.builder()
                .host(Peers.host(args))
                .port(port)
                .backlog(4096)
                .connectionOptions(socket -> socket.tcpNoDelay(true))
                .routing(r -> r.get("/hello", (req, res) -> {
                    res.header(HeaderValues.CONTENT_TYPE_TEXT_PLAIN);
                    res.send(HELLO);
                }));
        if (tls != null) {
            builder.tls(Tls.builder().sslContext(tls.serverContext()).build());
        }
        WebServer server = builder.build().start();
        Peers.ready(server.port());
    }
}
