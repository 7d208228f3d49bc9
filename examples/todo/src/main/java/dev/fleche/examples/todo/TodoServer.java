package dev.fleche.examples.todo;

import com.fasterxml.jackson.jakarta.rs.json.JacksonJsonProvider;
import dev.fleche.jersey.FlecheHttpServer;
import dev.fleche.jersey.FlecheHttpServerFactory;
import dev.fleche.transport.ErrorRenderer;
import dev.fleche.transport.ServerOptions;
import dev.fleche.transport.StaticContent;
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

    /**
     * The page at {@code /}: {@code index.html}, {@code app.css} and {@code app.js} from the class path
     * ({@code static/}), answered by the transport beside the application. With fall-through, every path that is not
     * one of those files ({@code /todos}, any method but {@code GET}/{@code HEAD}) stays the application's.
     */
    public static StaticContent page() {
        return StaticContent.classPath("/", "static", TodoServer.class.getClassLoader()).fallThrough(true).build();
    }

    /** Starts the service and its page on {@code port} of localhost with a fresh in-memory database. */
    public static FlecheHttpServer start(int port, TodoStore store) {
        return FlecheHttpServerFactory.createServer(URI.create("http://localhost:" + port + "/"),
                application(store), transportOptions().toBuilder().staticContent(page()).build());
    }

    static final String USAGE = "usage: TodoServer [port]   (0..65535, 0 for any free one; default: $PORT, else 8080)";

    public static void main(String[] args) throws InterruptedException {
        int port = portOrExit(args);
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
