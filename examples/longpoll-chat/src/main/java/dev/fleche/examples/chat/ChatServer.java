package dev.fleche.examples.chat;

import com.fasterxml.jackson.jakarta.rs.json.JacksonJsonProvider;
import dev.fleche.async.LongPollTopic;
import dev.fleche.jersey.FlecheHttpServer;
import dev.fleche.jersey.FlecheHttpServerFactory;
import dev.fleche.validation.FlecheValidationFeature;
import org.glassfish.jersey.server.ResourceConfig;
import org.glassfish.jersey.server.ServerProperties;

import java.net.URI;
import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.List;

/**
 * Long-poll chat on Fleche: {@code GET /rooms/{room}/messages?after=N} waits up to 30 s for news ({@code 204}
 * when none came), {@code POST /rooms/{room}/messages} posts. Run with the port as first argument (default
 * 8080); prints {@code READY <port>} once listening.
 */
public final class ChatServer {
    /** How long a poll waits by default. */
    public static final Duration WAIT = Duration.ofSeconds(30);

    private ChatServer() {
    }

    /** The application; polls wait up to {@code wait}. */
    public static ResourceConfig application(Duration wait) {
        return application(LongPollTopic.<String, List<Message>>builder().timeout(wait).build());
    }

    /** The application with the given waiting room (tests look at its waiters). */
    static ResourceConfig application(LongPollTopic<String, List<Message>> rooms) {
        return new ResourceConfig(ChatResource.class)
                .property(ChatResource.STORE, new MessageStore())
                .property(ChatResource.ROOMS, rooms)
                .register(JacksonJsonProvider.class)
                // Every error as application/problem+json: a bad room or message is 400 with a detail.
                .register(FlecheValidationFeature.class)
                .property(ServerProperties.WADL_FEATURE_DISABLE, true);
    }

    /** Starts the server on {@code port} (0: a free one), all interfaces, polls waiting up to {@code wait}. */
    public static FlecheHttpServer start(int port, Duration wait) {
        return FlecheHttpServerFactory.createServer(URI.create("http://0.0.0.0:" + port + "/"), application(wait));
    }

    static final String USAGE = "usage: ChatServer [port]   (0..65535, 0 for any free one; default: $PORT, else 8080)";

    public static void main(String[] args) throws InterruptedException {
        int port = portOrExit(args);
        FlecheHttpServer server = start(port, WAIT);
        CountDownLatch stopped = new CountDownLatch(1);
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            try {
                server.stop(Duration.ofSeconds(1));
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            } finally {
                stopped.countDown();
            }
        }, "chat-shutdown"));
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
