package dev.fleche.examples.todo;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.fleche.jersey.FlecheHttpServer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.UUID;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The to-do service on a free port, driven with the JDK HTTP client: CRUD and its error answers. */
class TodoServerTest {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final HttpClient CLIENT = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
    private static TodoStore store;
    private static FlecheHttpServer server;
    private static String base;

    @BeforeAll
    static void start() {
        store = new TodoStore("jdbc:h2:mem:" + UUID.randomUUID() + ";DB_CLOSE_DELAY=-1");
        server = TodoServer.start(0, store);
        base = "http://localhost:" + server.port();
    }

    @AfterAll
    static void stop() throws InterruptedException {
        server.stop(Duration.ofSeconds(5));
        store.close();
    }

    private static HttpResponse<String> send(String method, String path, String body, String... headers)
            throws IOException, InterruptedException {
        HttpRequest.Builder b = HttpRequest.newBuilder(URI.create(base + path)).timeout(Duration.ofSeconds(10))
                .method(method, body == null ? HttpRequest.BodyPublishers.noBody()
                        : HttpRequest.BodyPublishers.ofString(body));
        if (body != null) {
            b.header("Content-Type", "application/json");
        }
        for (int i = 0; i < headers.length; i += 2) {
            b.header(headers[i], headers[i + 1]);
        }
        return CLIENT.send(b.build(), HttpResponse.BodyHandlers.ofString());
    }

    private static JsonNode json(String text) throws IOException {
        return JSON.readTree(text);
    }

    private static void assertProblem(HttpResponse<String> response, int status, String expected) throws IOException {
        assertEquals(status, response.statusCode(), response.body());
        assertEquals("application/problem+json", response.headers().firstValue("Content-Type").orElse(null));
        assertEquals(json(expected), json(response.body()));
    }

    @Test
    void createReadUpdateDelete() throws Exception {
        HttpResponse<String> created = send("POST", "/todos", "{\"title\":\"Buy tea\",\"priority\":2}");
        assertEquals(201, created.statusCode(), created.body());
        JsonNode todo = json(created.body());
        long id = todo.get("id").asLong();
        assertEquals(base + "/todos/" + id, created.headers().firstValue("Location").orElse(null));
        assertEquals(json("{\"id\":" + id + ",\"title\":\"Buy tea\",\"notes\":null,\"done\":false,\"priority\":2}"),
                todo);

        HttpResponse<String> read = send("GET", "/todos/" + id, null);
        assertEquals(200, read.statusCode());
        assertEquals(todo, json(read.body()));

        HttpResponse<String> updated = send("PUT", "/todos/" + id, "{\"title\":\"Buy green tea\",\"done\":true}");
        assertEquals(200, updated.statusCode(), updated.body());
        assertEquals(json("{\"id\":" + id + ",\"title\":\"Buy green tea\",\"notes\":null,\"done\":true,"
                + "\"priority\":null}"), json(updated.body()));

        HttpResponse<String> reread = send("GET", "/todos/" + id, null);
        assertEquals(json(updated.body()), json(reread.body()), "no priority reads back as null, not 0");

        HttpResponse<String> done = send("GET", "/todos?done=true", null);
        assertTrue(json(done.body()).toString().contains("Buy green tea"), done.body());

        assertEquals(204, send("DELETE", "/todos/" + id, null).statusCode());
        assertProblem(send("GET", "/todos/" + id, null), 404, """
                {"type":"about:blank","title":"Not Found","status":404,
                 "detail":"There is no todo %d.","instance":"/todos/%d"}""".formatted(id, id));
        assertProblem(send("DELETE", "/todos/" + id, null), 404, """
                {"type":"about:blank","title":"Not Found","status":404,
                 "detail":"There is no todo %d.","instance":"/todos/%d"}""".formatted(id, id));
    }

    @Test
    void invalidTodosAreRejectedWithEveryReason() throws Exception {
        assertProblem(send("POST", "/todos", "{\"id\":3,\"title\":\" \",\"priority\":9}"), 400, """
                {"type":"urn:fleche:problem:constraint-violation","title":"Constraint violation","status":400,
                 "detail":"3 values of the request are invalid.","instance":"/todos",
                 "errors":[
                   {"in":"body","path":"id","message":"is assigned by the server","rejected":3},
                   {"in":"body","path":"priority","message":"must be less than or equal to 5","rejected":9},
                   {"in":"body","path":"title","message":"must not be blank","rejected":" "}]}""");
        assertProblem(send("POST", "/todos", "{\"title\":\"x\",\"priority\":9}", "Accept-Language", "de"), 400, """
                {"type":"urn:fleche:problem:constraint-violation","title":"Constraint violation","status":400,
                 "detail":"1 value of the request is invalid.","instance":"/todos",
                 "errors":[{"in":"body","path":"priority","message":"muss kleiner-gleich 5 sein","rejected":9}]}""");
    }

    @Test
    void badParametersAndBodies() throws Exception {
        assertProblem(send("GET", "/todos?limit=0", null), 400, """
                {"type":"urn:fleche:problem:constraint-violation","title":"Constraint violation","status":400,
                 "detail":"1 value of the request is invalid.","instance":"/todos",
                 "errors":[{"in":"query","name":"limit","message":"must be greater than or equal to 1","rejected":0}]}""");
        assertProblem(send("GET", "/todos/-1", null), 400, """
                {"type":"urn:fleche:problem:constraint-violation","title":"Constraint violation","status":400,
                 "detail":"1 value of the request is invalid.","instance":"/todos/-1",
                 "errors":[{"in":"path","name":"id","message":"must be greater than 0","rejected":-1}]}""");
        assertProblem(send("POST", "/todos", "{\"title\":\"x\",\"done\":\"yes\"}"), 400, """
                {"type":"urn:fleche:problem:invalid-json","title":"Invalid JSON value","status":400,
                 "detail":"The request body does not have the expected structure.","instance":"/todos",
                 "errors":[{"in":"body","path":"done","message":"must be a boolean","rejected":"yes",
                   "line":1,"column":21}]}""");
        // truncated JSON: Jackson's wording of the message varies with how the bytes arrive; the shape does not
        HttpResponse<String> truncated = send("POST", "/todos", "{\"title\":");
        assertEquals(400, truncated.statusCode());
        JsonNode problem = json(truncated.body());
        assertEquals("urn:fleche:problem:malformed-json", problem.get("type").asText());
        assertEquals("body", problem.at("/errors/0/in").asText());
        assertEquals(1, problem.at("/errors/0/line").asInt());
        assertTrue(problem.at("/errors/0/message").asText().startsWith("Unexpected end-of-input"), truncated.body());
        assertProblem(send("PATCH", "/todos/1", "{}"), 405, """
                {"type":"about:blank","title":"Method Not Allowed","status":405,
                 "detail":"The method PATCH is not allowed here; allowed: DELETE, GET, OPTIONS, PUT.",
                 "instance":"/todos/1"}""");
    }

    @Test
    void theTransportsOwnRejectionsAreProblemsToo() throws Exception {
        HttpResponse<String> response = send("GET", "/todos?q=" + "x".repeat(9000), null);
        assertEquals(414, response.statusCode());
        assertEquals("application/problem+json", response.headers().firstValue("Content-Type").orElse(null));
        JsonNode problem = json(response.body());
        assertEquals("about:blank", problem.get("type").asText());
        assertEquals("URI Too Long", problem.get("title").asText());
        assertEquals(414, problem.get("status").asInt());
        assertTrue(problem.hasNonNull("detail"), response.body());
    }
}
