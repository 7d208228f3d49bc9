package dev.fleche.examples.transporthello;

import dev.fleche.transport.HttpFields;
import dev.fleche.transport.HttpServer;
import dev.fleche.transport.ServerOptions;

import java.nio.charset.StandardCharsets;
import java.time.Duration;

/**
 * Hello on the raw transport, no JAX-RS: {@code GET /hello} answers {@code Hello, World!}; other paths 404.
 * Usage: {@code TransportHelloServer [port]} (default 8080, 0 for any free port); prints {@code READY <port>}.
 */
public final class TransportHelloServer {
    private static final byte[] HELLO = "Hello, World!".getBytes(StandardCharsets.UTF_8);
    private static final byte[] NOT_FOUND = "not found\n".getBytes(StandardCharsets.UTF_8);

    private TransportHelloServer() {
    }

    public static void main(String[] args) throws Exception {
        int port = args.length > 0 ? Integer.parseInt(args[0]) : 8080;
        HttpServer server = HttpServer.create(ServerOptions.builder().port(port).build(), exchange -> {
            HttpFields headers = new HttpFields(1).add("Content-Type", "text/plain");
            if ("/hello".equals(exchange.path())) {
                exchange.respond(200, headers, HELLO);
            } else {
                exchange.respond(404, headers, NOT_FOUND);
            }
        });
        server.start();
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            try {
                server.stop(Duration.ofSeconds(5));
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }));
        System.out.println("READY " + server.port());
    }
}
