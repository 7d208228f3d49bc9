package dev.fleche.examples.todo;

import com.fasterxml.jackson.jakarta.rs.json.JacksonJsonProvider;
import dev.fleche.jersey.FlecheHttpServer;
import dev.fleche.jersey.FlecheHttpServerFactory;
import dev.fleche.transport.ErrorRenderer;
import dev.fleche.transport.ServerOptions;
import dev.fleche.validation.FlecheValidationFeature;
import dev.fleche.validation.ProblemJson;
import org.glassfish.jersey.server.ResourceConfig;
import org.glassfish.jersey.server.ServerProperties;

import java.net.URI;
import java.time.Duration;
import java.util.concurrent.CountDownLatch;

/**
 * The to-do service: {@code TodoServer [port]} (default 8080, 0 for any free port) prints {@code READY <port>}
 * once listening and serves until stopped (Ctrl-C).
 */
public final class TodoServer {
    private TodoServer() {
    }

    /** The application: the resource on {@code store}, Jackson for JSON, validation and problem details. */
    public static ResourceConfig application(TodoStore store) {
        return new ResourceConfig(TodoResource.class)
                .property(TodoResource.STORE, store)
                .register(JacksonJsonProvider.class)
                .register(FlecheValidationFeature.class)
                .property(ServerProperties.WADL_FEATURE_DISABLE, true);
    }

    /**
     * Transport settings whose own error answers (a request line or headers too large, a malformed request, ...)
     * are problem documents too.
     */
    public static ServerOptions transportOptions() {
        return ServerOptions.builder()
                .errorRenderer((status, reason) -> new ErrorRenderer.Body(ProblemJson.MEDIA_TYPE,
                        ProblemJson.render(status, ProblemJson.title(status), reason)))
                .build();
    }

    /** Starts the service on {@code port} of localhost with a fresh in-memory database. */
    public static FlecheHttpServer start(int port, TodoStore store) {
        return FlecheHttpServerFactory.createServer(URI.create("http://localhost:" + port + "/"),
                application(store), transportOptions());
    }

    public static void main(String[] args) throws InterruptedException {
        int port = args.length > 0 ? Integer.parseInt(args[0]) : 8080;
        TodoStore store = new TodoStore("jdbc:h2:mem:todos;DB_CLOSE_DELAY=-1");
        FlecheHttpServer server = start(port, store);
        CountDownLatch stopped = new CountDownLatch(1);
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            try {
                server.stop(Duration.ofSeconds(5));
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            } finally {
                store.close();
                stopped.countDown();
            }
        }, "todo-shutdown"));
        System.out.println("READY " + server.port());
        stopped.await();
    }
}
