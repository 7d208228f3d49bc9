package dev.fleche.examples.transporthello;

import dev.fleche.transport.HttpFields;
import dev.fleche.transport.HttpServer;
import dev.fleche.transport.ServerOptions;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.concurrent.CountDownLatch;

/**
 * Hello on the raw transport, no JAX-RS: {@code GET /hello} answers {@code Hello, World!}; other paths 404.
 * Usage: {@code TransportHelloServer [port]} (default 8080, 0 for any free port); prints {@code READY <port>}.
 */
public final class TransportHelloServer {
    private static final byte[] HELLO = "Hello, World!".getBytes(StandardCharsets.UTF_8);
    private static final byte[] NOT_FOUND = "not found\n".getBytes(StandardCharsets.UTF_8);

    private TransportHelloServer() {
    }

    static final String USAGE = "usage: TransportHelloServer [port]   (0..65535, 0 for any free one; default: $PORT, "
            + "else 8080)";

    public static void main(String[] args) throws Exception {
        int port = portOrExit(args);
        HttpServer server = HttpServer.create(ServerOptions.builder().port(port).build(), exchange -> {
            HttpFields headers = new HttpFields(1).add("Content-Type", "text/plain");
            if ("/hello".equals(exchange.path())) {
                exchange.respond(200, headers, HELLO);
            } else {
                exchange.respond(404, headers, NOT_FOUND);
            }
        });
        server.start();
        CountDownLatch stopped = new CountDownLatch(1);
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            try {
                server.stop(Duration.ofSeconds(5));
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            } finally {
                stopped.countDown();
            }
        }, "transport-hello-shutdown"));
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
