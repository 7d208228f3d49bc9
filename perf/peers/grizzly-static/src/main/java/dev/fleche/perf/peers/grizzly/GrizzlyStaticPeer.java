package dev.fleche.perf.peers.grizzly;

import dev.fleche.perf.app.PeerTls;
import dev.fleche.perf.app.Peers;
import org.glassfish.grizzly.http.server.HttpServer;
import org.glassfish.grizzly.http.server.NetworkListener;
import org.glassfish.grizzly.http.server.StaticHttpHandler;
import org.glassfish.grizzly.http2.Http2AddOn;
import org.glassfish.grizzly.ssl.SSLEngineConfigurator;

/**
 * Static-file peer of {@code perf/staticbench.sh} (issue 38): Grizzly 4.0.2's {@link StaticHttpHandler} — what a
 * Jersey-on-Grizzly service adds with {@code addHttpHandler(new StaticHttpHandler(dir), "/files")} — serving
 * {@code DIR} at {@code /files/}, as shipped (its file cache and defaults), one listener, backlog 4096. With
 * {@code --tls KEYSTORE PASSWORD} the listener is secure and has the HTTP/2 add-on ({@link Http2AddOn}: h2 by ALPN,
 * else HTTP/1.1).
 *
 * <p>Usage: {@code java -jar grizzly-static-peer.jar PORT [HOST] --dir DIR [--tls KEYSTORE PASSWORD]}; prints
 * {@code READY <port>}.
 */
public final class GrizzlyStaticPeer {
    private GrizzlyStaticPeer() {
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
        HttpServer server = new HttpServer();
        NetworkListener listener = new NetworkListener("static", Peers.host(args), port);
        listener.getTransport().setServerConnectionBackLog(4096);
        if (tls != null) {
            listener.setSecure(true);
            listener.setSSLEngineConfig(new SSLEngineConfigurator(tls.serverContext(), false, false, false));
            listener.registerAddOn(new Http2AddOn());
        }
        server.addListener(listener);
        server.getServerConfiguration().addHttpHandler(new StaticHttpHandler(dir), "/files");
        server.start();
        Runtime.getRuntime().addShutdownHook(new Thread(server::shutdownNow));
        Peers.ready(port);
        Thread.currentThread().join(); // Grizzly's threads are daemons: main keeps the process alive
    }
}
