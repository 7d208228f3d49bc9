import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.List;

/**
 * The training run's client (JDK single-file source, run by build-image.sh with the build JDK): exercises every
 * endpoint of the service on {@code http://127.0.0.1:PORT/} a few times, so that the classes and methods those
 * requests need land in the AOT cache (JDK 25) or AppCDS archive (JDK 17). Exits 1 on an unexpected status.
 */
public final class Train {
    public static void main(String[] args) throws Exception {
        URI base = URI.create("http://127.0.0.1:" + args[0] + "/");
        int rounds = args.length > 1 ? Integer.parseInt(args[1]) : 20;
        HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
        for (int i = 0; i < rounds; i++) {
            expect(http, "GET", base.resolve("health/live"), null, 200);
            expect(http, "GET", base.resolve("health/ready"), null, 200);
            String created = expect(http, "POST", base.resolve("todos"),
                    "{\"title\":\"train " + i + "\",\"priority\":" + (1 + i % 5) + "}", 201);
            String id = created.replaceAll("(?s).*\"id\":(\\d+).*", "$1");
            expect(http, "GET", base.resolve("todos/" + id), null, 200);
            expect(http, "PUT", base.resolve("todos/" + id), "{\"title\":\"done " + i + "\",\"done\":true}", 200);
            expect(http, "GET", base.resolve("todos?done=true&limit=10"), null, 200);
            expect(http, "POST", base.resolve("todos"), "{\"title\":\"\",\"priority\":9}", 400);
            expect(http, "GET", base.resolve("todos/999999"), null, 404);
            expect(http, "DELETE", base.resolve("todos/" + id), null, 204);
            expect(http, "GET", base.resolve("metrics"), null, 200);
            expect(http, "GET", base.resolve("nowhere"), null, 404);
            longPoll(http, base);
        }
        System.out.println("TRAINED " + rounds + " rounds on " + List.of("health", "todos", "errors", "metrics"));
    }

    /** A {@code /changes} long-poll, woken by creating to-dos until it answers (the poll may register late). */
    private static void longPoll(HttpClient http, URI base) throws Exception {
        var poll = http.sendAsync(HttpRequest.newBuilder(base.resolve("changes")).build(),
                HttpResponse.BodyHandlers.ofString());
        for (int i = 0; i < 100 && !poll.isDone(); i++) {
            expect(http, "POST", base.resolve("todos"), "{\"title\":\"wake\"}", 201);
            Thread.sleep(20);
        }
        HttpResponse<String> answer = poll.get(10, java.util.concurrent.TimeUnit.SECONDS);
        if (answer.statusCode() != 200) {
            System.err.println("GET /changes: " + answer.statusCode());
            System.exit(1);
        }
    }

    /** Sends, trying a refused connect twice more (a loaded build machine): the run only needs to happen. */
    private static HttpResponse<String> send(HttpClient http, HttpRequest request) throws Exception {
        for (int attempt = 1; ; attempt++) {
            try {
                return http.send(request, HttpResponse.BodyHandlers.ofString());
            } catch (java.net.ConnectException e) {
                if (attempt == 3) {
                    throw e;
                }
                System.err.println("retrying " + request.method() + " " + request.uri() + ": " + e);
                Thread.sleep(200);
            }
        }
    }

    private static String expect(HttpClient http, String method, URI uri, String json, int status) throws Exception {
        HttpRequest.Builder request = HttpRequest.newBuilder(uri).timeout(Duration.ofSeconds(10));
        if (json != null) {
            request.header("Content-Type", "application/json").method(method, HttpRequest.BodyPublishers.ofString(json));
        } else {
            request.method(method, HttpRequest.BodyPublishers.noBody());
        }
        HttpResponse<String> response = send(http, request.build());
        if (response.statusCode() != status) {
            System.err.println(method + " " + uri + ": " + response.statusCode() + " (expected " + status + ") "
                    + response.body());
            System.exit(1);
        }
        return response.body();
    }
}
