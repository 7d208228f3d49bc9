package dev.fleche.examples.chat;

import com.fasterxml.jackson.jakarta.rs.json.JacksonJsonProvider;
import dev.fleche.async.LongPollTopic;
import dev.fleche.jersey.FlecheHttpServer;
import dev.fleche.jersey.FlecheHttpServerFactory;
import org.glassfish.jersey.server.ResourceConfig;
import org.glassfish.jersey.server.ServerProperties;

import java.net.URI;
import java.time.Duration;
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
                .property(ServerProperties.WADL_FEATURE_DISABLE, true);
    }

    /** Starts the server on {@code port} (0: a free one), all interfaces, polls waiting up to {@code wait}. */
    public static FlecheHttpServer start(int port, Duration wait) {
        return FlecheHttpServerFactory.createServer(URI.create("http://0.0.0.0:" + port + "/"), application(wait));
    }

    public static void main(String[] args) {
        int port = args.length > 0 ? Integer.parseInt(args[0]) : 8080;
        FlecheHttpServer server = start(port, WAIT);
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            try {
                server.stop(Duration.ofSeconds(1));
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }, "chat-shutdown"));
        System.out.println("READY " + server.port());
    }
}
