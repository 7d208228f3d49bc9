package dev.fleche.examples.ticker;

import dev.fleche.async.FlecheAsyncFeature;
import dev.fleche.jersey.FlecheHttpServer;
import dev.fleche.jersey.FlecheHttpServerFactory;
import org.glassfish.jersey.server.ResourceConfig;
import org.glassfish.jersey.server.ServerProperties;
import org.glassfish.jersey.server.spi.AbstractContainerLifecycleListener;
import org.glassfish.jersey.server.spi.Container;

import java.net.URI;
import java.time.Duration;
import java.util.concurrent.CountDownLatch;

/**
 * SSE ticker on Fleche: {@code GET /ticks} streams a {@code tick} event every second and a heartbeat comment
 * every 15 s. Run with the port as first argument (default 8080); prints {@code READY <port>} once listening.
 */
public final class TickerServer {
    private TickerServer() {
    }

    /** The application: ticks every {@code tick}, heartbeat comments every {@code heartbeat}. */
    public static ResourceConfig application(Duration tick, Duration heartbeat) {
        Ticker ticker = new Ticker(tick);
        return new ResourceConfig(TickerResource.class)
                .property(TickerResource.TICKER, ticker)
                .register(new AbstractContainerLifecycleListener() {
                    @Override
                    public void onShutdown(Container container) {
                        ticker.close();
                    }
                })
                .property(FlecheAsyncFeature.SSE_HEARTBEAT, heartbeat)
                .property(ServerProperties.WADL_FEATURE_DISABLE, true);
    }

    /** Starts the server on {@code port} (0: a free one) on all interfaces. */
    public static FlecheHttpServer start(int port, Duration tick, Duration heartbeat) {
        return FlecheHttpServerFactory.createServer(URI.create("http://0.0.0.0:" + port + "/"),
                application(tick, heartbeat));
    }

    static final String USAGE = "usage: TickerServer [port]   (0..65535, 0 for any free one; default: $PORT, else 8080)";

    public static void main(String[] args) throws InterruptedException {
        int port = portOrExit(args);
        FlecheHttpServer server = start(port, Duration.ofSeconds(1), Duration.ofSeconds(15));
        CountDownLatch stopped = new CountDownLatch(1);
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            try {
                server.stop(Duration.ofSeconds(1));
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            } finally {
                stopped.countDown();
            }
        }, "ticker-shutdown"));
        System.out.println("READY " + server.port());
        // main returns only once the stop is done: under `mvn exec:java` a returning main lets the plugin close
        // the class loader while the shutdown hook still runs (NoClassDefFoundError in the middle of the stop).
        stopped.await();
    }

    /**
     * The port: the one argument, else {@code $PORT}, else 8080. A bad one (not a number, out of 0..65535, more
     * than one argument): the reason and {@link #USAGE} on standard error, exit code 2.
     */
    static int portOrExit(String[] args) {
        String value = args.length > 0 ? args[0] : System.getenv().getOrDefault("PORT", "8080");
        try {
            if (args.length > 1) {
                throw new IllegalArgumentException("one argument at most, got " + args.length);
            }
            int port = Integer.parseInt(value.trim());
            if (port < 0 || port > 65535) {
                throw new IllegalArgumentException("port out of range 0..65535: " + value);
            }
            return port;
        } catch (IllegalArgumentException e) { // NumberFormatException included
            System.err.println(e instanceof NumberFormatException ? "not a port number: " + value : e.getMessage());
            System.err.println(USAGE);
            System.exit(2);
            throw e;
        }
    }
}
