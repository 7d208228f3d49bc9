package dev.fleche.examples.todo;

import com.fasterxml.jackson.databind.JsonNode;
import dev.fleche.jersey.FlecheHttpServer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.UUID;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * The to-do page in a real browser: Debian's headless Chromium ({@code chromium}), driven over the DevTools
 * protocol ({@link DevTools}), loads {@code /} (HTML, CSS, script from the class path, served by the transport
 * beside the application), its script lists the to-dos from {@code /todos} and adds one through the form, and a
 * reload revalidates the page, its style sheet and its script: {@code 304} each (the browser's own record of the
 * answers, and the server's count of 3xx responses). Skipped where Chromium is not installed, unless
 * {@code -Dtodo.browser.required=true} (the CI stage that installs it) makes that a failure.
 */
@Timeout(120)
class TodoPageBrowserTest {
    private static TodoStore store;
    private static FlecheHttpServer server;
    private static String base;

    @TempDir
    static Path profile;

    static Path chromium() {
        String given = System.getenv("CHROMIUM");
        for (String candidate : new String[] {given, "/usr/bin/chromium", "/usr/bin/chromium-browser"}) {
            if (candidate != null && Files.isExecutable(Path.of(candidate))) {
                return Path.of(candidate);
            }
        }
        return null;
    }

    @BeforeAll
    static void start() throws Exception {
        if (chromium() == null) {
            if (Boolean.getBoolean("todo.browser.required")) {
                throw new AssertionError("Chromium is required (todo.browser.required) but not installed");
            }
            Assumptions.abort("Chromium is not installed (apt-get install chromium; the CI stage does)");
        }
        store = new TodoStore("jdbc:h2:mem:" + UUID.randomUUID() + ";DB_CLOSE_DELAY=-1");
        server = TodoServer.start(0, store);
        base = "http://127.0.0.1:" + server.port();
        HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(10)).build();
        for (String title : new String[] {"Buy tea", "Water the plants"}) {
            HttpResponse<String> created = http.send(HttpRequest.newBuilder(URI.create(base + "/todos"))
                    .header("Content-Type", "application/json").timeout(Duration.ofSeconds(10))
                    .POST(HttpRequest.BodyPublishers.ofString("{\"title\":\"" + title + "\"}")).build(),
                    HttpResponse.BodyHandlers.ofString());
            assertEquals(201, created.statusCode(), created.body());
        }
    }

    @AfterAll
    static void stop() throws Exception {
        if (server != null) {
            server.stop(Duration.ofSeconds(5));
            store.close();
        }
    }

    /** The page's list once its script has rendered it (a promise the browser resolves). */
    private static String listed(DevTools browser, int count) throws Exception {
        return browser.evaluate("new Promise(done => { const check = () => document.body.dataset.loaded === '"
                + count + "' ? done([...document.querySelectorAll('#todos li')].map(li => li.textContent)"
                + ".join('|')) : setTimeout(check, 20); check(); })").asText();
    }

    @Test
    void thePageListsAndAddsTodosAndARevalidatesWith304() throws Exception {
        try (DevTools browser = DevTools.launch(chromium(), profile)) {
            browser.page("Network.enable", Map.of());
            browser.page("Page.enable", Map.of());
            browser.page("Page.navigate", Map.of("url", base + "/"));
            browser.await(DevTools.method("Page.loadEventFired"));
            assertEquals("Buy tea|Water the plants", listed(browser, 2));
            assertEquals("To-dos", browser.evaluate("document.title").asText());
            assertEquals("flex", browser.evaluate("getComputedStyle(document.querySelector('form')).display")
                    .asText(), "the style sheet applies");

            browser.evaluate("document.getElementById('title').value = 'Read the docs'; "
                    + "document.getElementById('add').requestSubmit(); true");
            assertEquals("Buy tea|Water the plants|Read the docs", listed(browser, 3));

            browser.drainEvents();
            long before = server.transport().metrics().responses3xx();
            browser.page("Page.reload", Map.of());
            browser.await(DevTools.method("Page.loadEventFired"));
            assertEquals("Buy tea|Water the plants|Read the docs", listed(browser, 3));
            // What the wire said, as the browser saw it: responseReceivedExtraInfo has the raw status (a navigation's
            // responseReceived shows the revalidated cache entry, 200), requestWillBeSent the URL of each request.
            Map<String, String> urls = new HashMap<>();
            Map<String, Integer> raw = new HashMap<>();
            for (JsonNode event : browser.drainEvents()) {
                JsonNode params = event.path("params");
                if (DevTools.method("Network.requestWillBeSent").test(event)) {
                    urls.put(params.get("requestId").asText(), params.get("request").get("url").asText());
                } else if (DevTools.method("Network.responseReceivedExtraInfo").test(event)) {
                    raw.put(params.get("requestId").asText(), params.get("statusCode").asInt());
                }
            }
            Map<String, Integer> statuses = new HashMap<>();
            raw.forEach((request, status) -> statuses.put(urls.get(request), status));
            assertEquals(304, statuses.get(base + "/"), statuses.toString());
            assertEquals(304, statuses.get(base + "/app.css"), statuses.toString());
            assertEquals(304, statuses.get(base + "/app.js"), statuses.toString());
            assertEquals(200, statuses.get(base + "/todos?limit=100"), statuses.toString());
            assertEquals(before + 3, server.transport().metrics().responses3xx(), "the server answered 304 thrice");
        }
    }
}
