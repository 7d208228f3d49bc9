package dev.fleche.examples.hello;

import com.fasterxml.jackson.jakarta.rs.json.JacksonJsonProvider;
import dev.fleche.jersey.FlecheHttpServer;
import dev.fleche.jersey.FlecheHttpServerFactory;
import org.glassfish.jersey.server.ResourceConfig;
import org.glassfish.jersey.server.ServerProperties;

import java.net.URI;
import java.time.Duration;

/**
 * Hello, World on Jersey and Fleche: {@code GET /hello}, {@code GET /json}, {@code POST /echo},
 * {@code GET /async?delayMs=N}. Run with {@code mvn -q -pl examples/hello exec:java} (port 8080) or with the port
 * as first argument; prints {@code READY <port>} once listening.
 */
public final class HelloServer {
    private HelloServer() {
    }

    /** The application: the resources, Jackson for JSON (malformed input answered with 400), no WADL. */
    public static ResourceConfig application() {
        return new ResourceConfig(HelloResource.class)
                .register(JacksonJsonProvider.class)
                .register(JsonErrorMapper.class) // bad JSON in a request: 400 with a clear body, not 500
                .property(ServerProperties.WADL_FEATURE_DISABLE, true);
    }

    /** Starts the server on {@code port} (0: a free one) on all interfaces. */
    public static FlecheHttpServer start(int port) {
        return FlecheHttpServerFactory.createServer(URI.create("http://0.0.0.0:" + port + "/"), application());
    }

    public static void main(String[] args) {
        int port = args.length > 0 ? Integer.parseInt(args[0]) : 8080;
        FlecheHttpServer server = start(port);
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            try {
                server.stop(Duration.ofSeconds(5));
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }, "hello-shutdown"));
        System.out.println("READY " + server.port());
    }
}
