package dev.fleche.perf.fleche;

import dev.fleche.jersey.FlecheHttpServer;
import dev.fleche.jersey.FlecheHttpServerFactory;
import dev.fleche.perf.app.BenchApplication;
import dev.fleche.perf.app.BenchResource;
import dev.fleche.perf.app.PeerTls;
import dev.fleche.transport.ServerOptions;
import dev.fleche.transport.TlsOptions;
import org.glassfish.jersey.server.ResourceConfig;

import java.net.URI;
import java.time.Duration;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * Benchmark target: the shared {@link BenchApplication} on Fleche's Jersey container.
 *
 * <p>Usage: {@code FlecheJerseyPeer PORT [--nonblocking] [HOST] [--tls KEYSTORE PASSWORD]}; prints
 * {@code READY <port>} once listening. With {@code --tls} (see {@link PeerTls}) it serves HTTPS at an
 * {@code https} base URI, the transport options carrying the key's {@code SSLContext} (TLS defaults otherwise).
 * With {@code --nonblocking} the application serves {@link NonBlockingBenchResource} in place of
 * {@link BenchResource} (the same methods, run on the reactor thread). Transport settings are the defaults but
 * for the accept backlog, 4096 as for every peer, and the request body limit (none, instead of 64 MiB, so that the
 * upload scenario's 1 GiB is not refused). Logging: WARNING and above.
 */
public final class FlecheJerseyPeer {
    private FlecheJerseyPeer() {
    }

    public static void main(String[] args) throws Exception {
        Logger.getLogger("").setLevel(Level.WARNING);
        int port = Integer.parseInt(args[0]);
        boolean nonBlocking = false;
        String host = "127.0.0.1";
        PeerTls tls = PeerTls.fromArgs(args);
        for (int i = 1; i < args.length; i++) {
            if (args[i].equals("--nonblocking")) {
                nonBlocking = true;
            } else if (args[i].equals(PeerTls.OPTION)) {
                i += 2; // KEYSTORE PASSWORD
            } else {
                host = args[i];
            }
        }
        BenchApplication app = nonBlocking ? new BenchApplication(NonBlockingBenchResource.class)
                : new BenchApplication();
        ResourceConfig config = ResourceConfig.forApplication(app);
        ServerOptions.Builder options = ServerOptions.builder().address(host, port).backlog(4096)
                .maxBodyBytes(Long.MAX_VALUE);
        if (tls != null) {
            options.tls(TlsOptions.builder(tls.serverContext()).build());
        }
        FlecheHttpServer server = FlecheHttpServerFactory.createServer(
                URI.create((tls != null ? "https://" : "http://") + host + ":" + port + "/"), config, options.build());
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            try {
                server.stop(Duration.ofSeconds(2));
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }));
        System.out.println("READY " + server.port());
        System.out.flush();
    }
}
