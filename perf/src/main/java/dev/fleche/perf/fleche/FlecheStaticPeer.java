package dev.fleche.perf.fleche;

import dev.fleche.perf.app.PeerTls;
import dev.fleche.perf.app.Peers;
import dev.fleche.transport.HttpFields;
import dev.fleche.transport.HttpServer;
import dev.fleche.transport.ServerOptions;
import dev.fleche.transport.StaticContent;
import dev.fleche.transport.TlsOptions;

import java.nio.file.Path;

/**
 * Static-file target of {@code perf/staticbench.sh} (issue 38): Fleche's transport serving the directory {@code DIR}
 * at {@code /files/} with {@link StaticContent} (its defaults: validators, ranges, {@code Cache-Control: no-cache};
 * on plain HTTP/1.1 {@code transferTo}, over TLS and HTTP/2 paced reads). Anything else {@code 404}. Backlog 4096, as
 * every peer.
 *
 * <p>Usage: {@code FlecheStaticPeer PORT [HOST] --dir DIR [--tls KEYSTORE PASSWORD]}; prints {@code READY <port>}.
 * Over TLS, ALPN offers {@code h2} and {@code http/1.1}.
 */
public final class FlecheStaticPeer {
    private FlecheStaticPeer() {
    }

    public static void main(String[] args) throws Exception {
        Peers.quietLogging();
        int port = Peers.port(args);
        Path dir = null;
        for (int i = 0; i < args.length - 1; i++) {
            if (args[i].equals("--dir")) {
                dir = Path.of(args[i + 1]);
            }
        }
        if (dir == null) {
            throw new IllegalArgumentException("usage: FlecheStaticPeer PORT [HOST] --dir DIR [--tls KEYSTORE PASSWORD]");
        }
        PeerTls tls = PeerTls.fromArgs(args);
        ServerOptions.Builder options = ServerOptions.builder().address(Peers.host(args), port).backlog(4096)
                .staticContent(StaticContent.directory("/files/", dir).build());
        if (tls != null) {
            options.tls(TlsOptions.builder(tls.serverContext()).build());
        }
        HttpServer server = HttpServer.create(options.build(),
                exchange -> exchange.respond(404, new HttpFields(0), new byte[0])).start();
        Runtime.getRuntime().addShutdownHook(new Thread(server::close));
        Peers.ready(server.port());
    }
}
