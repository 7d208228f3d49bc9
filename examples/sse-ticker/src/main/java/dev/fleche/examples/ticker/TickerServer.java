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

    public static void main(String[] args) {
        int port = args.length > 0 ? Integer.parseInt(args[0]) : 8080;
        FlecheHttpServer server = start(port, Duration.ofSeconds(1), Duration.ofSeconds(15));
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            try {
                server.stop(Duration.ofSeconds(1));
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }, "ticker-shutdown"));
        System.out.println("READY " + server.port());
    }
}
