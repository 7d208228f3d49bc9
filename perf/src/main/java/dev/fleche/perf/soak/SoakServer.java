package dev.fleche.perf.soak;

import dev.fleche.jersey.FlecheHttpServer;
import dev.fleche.jersey.FlecheHttpServerFactory;
import dev.fleche.perf.app.BenchApplication;
import dev.fleche.transport.ServerOptions;
import java.net.URI;
import java.time.Duration;
import java.util.logging.Level;
import java.util.logging.Logger;
import org.glassfish.jersey.server.ResourceConfig;

/**
 * The soak target: the shared {@link BenchApplication} (hello, echo, async, long-poll, SSE, upload, download) plus
 * {@link SoakResource} (a byte echo and the control endpoint) and {@link RequestIdFilter}, on Fleche's Jersey
 * container. Short timeouts (3 s for a head, a body, a stalled write; 5 s idle) so that the faults the soak injects
 * are cleaned up within the run. Usage: {@code SoakServer PORT} (0: any); prints {@code READY <port>}.
 */
public final class SoakServer {
    private SoakServer() {
    }

    public static void main(String[] args) throws Exception {
        Logger.getLogger("").setLevel(Level.WARNING);
        int port = Integer.parseInt(args[0]);
        ResourceConfig config = ResourceConfig.forApplication(new BenchApplication())
                .register(SoakResource.class).register(RequestIdFilter.class);
        ServerOptions options = ServerOptions.builder().address("127.0.0.1", port).backlog(1024)
                .maxBodyBytes(8L << 20).headerTimeout(Duration.ofSeconds(3)).bodyTimeout(Duration.ofSeconds(3))
                .writeStallTimeout(Duration.ofSeconds(3)).idleTimeout(Duration.ofSeconds(5)).build();
        FlecheHttpServer server = FlecheHttpServerFactory.createServer(
                URI.create("http://127.0.0.1:" + port + "/"), config, options);
        SoakResource.container(server.container());
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
