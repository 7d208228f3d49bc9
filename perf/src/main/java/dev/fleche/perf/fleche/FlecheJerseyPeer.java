package dev.fleche.perf.fleche;

import dev.fleche.jersey.FlecheHttpServer;
import dev.fleche.jersey.FlecheHttpServerFactory;
import dev.fleche.jersey.FlecheMetrics;
import dev.fleche.jersey.FlecheProperties;
import dev.fleche.jersey.FlecheRequestIds;
import dev.fleche.perf.app.BenchApplication;
import dev.fleche.perf.app.BenchResource;
import dev.fleche.perf.app.PeerTls;
import dev.fleche.transport.AccessLog;
import dev.fleche.transport.ServerOptions;
import dev.fleche.transport.TlsOptions;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import org.glassfish.jersey.CommonProperties;
import org.glassfish.jersey.server.ResourceConfig;

import java.io.IOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * Benchmark target: the shared {@link BenchApplication} on Fleche's Jersey container.
 *
 * <p>Usage: {@code FlecheJerseyPeer PORT [--nonblocking] [--access-log] [--metrics] [--request-ids] [--fast-start] [HOST]
 * [--tls KEYSTORE PASSWORD]}; prints {@code READY <port>} once listening. With {@code --tls} (see {@link PeerTls})
 * it serves HTTPS at an {@code https} base URI, the transport options carrying the key's {@code SSLContext} (TLS
 * defaults otherwise). With {@code --nonblocking} the application serves {@link NonBlockingBenchResource} in place
 * of {@link BenchResource} (the same methods, run on the reactor thread).
 * The observability switches, for the cost run (each off by default, as in Fleche):
 * <ul>
 *   <li>{@code --access-log}: the transport's JSON access log to a file in the temporary directory
 *       ({@code fleche-perf-access-<port>.log}, rotated at 256 MiB, one rotated file kept, both deleted at exit);</li>
 *   <li>{@code --metrics}: {@link FlecheMetrics} into a {@link PrometheusMeterRegistry} (transport meters and
 *       jersey-micrometer's per-method timer), as a user would set it up; nothing scrapes it during a run;</li>
 *   <li>{@code --request-ids}: {@link FlecheRequestIds} (X-Request-Id kept or generated and echoed, W3C trace
 *       context parsed when {@code traceparent} is sent).</li>
 * </ul> {@code --platform-threads} sets {@code jersey.config.threads.use.virtual=false} (the bounded pool of platform
 * threads, the dispatch of Java 17, on any runtime). {@code --fast-start} sets {@link FlecheProperties#FAST_START} (the closed-world start-up preset; the
 * application registers its JSON provider itself), for {@code perf/startup.sh}'s {@code fleche-jersey-aot-fast}.
 * Transport settings are the defaults but
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
        boolean accessLog = false;
        boolean metrics = false;
        boolean requestIds = false;
        boolean fastStart = false;
        boolean platformThreads = false;
        String host = "127.0.0.1";
        PeerTls tls = PeerTls.fromArgs(args);
        for (int i = 1; i < args.length; i++) {
            switch (args[i]) {
                case "--nonblocking" -> nonBlocking = true;
                case "--access-log" -> accessLog = true;
                case "--metrics" -> metrics = true;
                case "--request-ids" -> requestIds = true;
                case "--fast-start" -> fastStart = true;
                case "--platform-threads" -> platformThreads = true;
                case PeerTls.OPTION -> i += 2; // KEYSTORE PASSWORD
                default -> host = args[i];
            }
        }
        BenchApplication app = nonBlocking ? new BenchApplication(NonBlockingBenchResource.class)
                : new BenchApplication();
        ResourceConfig config = ResourceConfig.forApplication(app);
        if (metrics) {
            config.register(new FlecheMetrics(new PrometheusMeterRegistry(PrometheusConfig.DEFAULT)));
        }
        if (requestIds) {
            config.register(FlecheRequestIds.class);
        }
        if (fastStart) {
            config.property(FlecheProperties.FAST_START, true);
        }
        if (platformThreads) {
            config.property(CommonProperties.USE_VIRTUAL_THREADS, false);
        }
        ServerOptions.Builder builder = ServerOptions.builder().address(host, port).backlog(4096)
                .maxBodyBytes(Long.MAX_VALUE);
        Path logFile = null;
        if (accessLog) {
            logFile = Path.of(System.getProperty("java.io.tmpdir"), "fleche-perf-access-" + port + ".log");
            builder.accessLog(AccessLog.builder().format(AccessLog.Format.JSON).file(logFile)
                    .maxFileBytes(256L * 1024 * 1024).keptFiles(1).build());
        }
        if (tls != null) {
            builder.tls(TlsOptions.builder(tls.serverContext()).build());
        }
        FlecheHttpServer server = FlecheHttpServerFactory.createServer(
                URI.create((tls != null ? "https://" : "http://") + host + ":" + port + "/"), config, builder.build());
        Path written = logFile;
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            try {
                server.stop(Duration.ofSeconds(2));
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            if (written != null) {
                deleteQuietly(written);
                deleteQuietly(written.resolveSibling(written.getFileName() + ".1"));
            }
        }));
        System.out.println("READY " + server.port());
        System.out.flush();
    }

    private static void deleteQuietly(Path file) {
        try {
            Files.deleteIfExists(file);
        } catch (IOException ignored) {
            // a temporary file: the system cleans it up eventually
        }
    }
}
