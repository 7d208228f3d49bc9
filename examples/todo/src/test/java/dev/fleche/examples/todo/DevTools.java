package dev.fleche.examples.todo;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.WebSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Predicate;

/**
 * Headless Chromium driven over the Chrome DevTools Protocol from the JDK's own WebSocket client: no WebDriver, no
 * library beyond Jackson (already here), and the protocol's {@code Network} events, which show what a page's
 * requests were answered (a {@code 304} on a reload) — WebDriver's classic protocol does not. One page target,
 * attached in flat mode; commands answered by id, events queued in order.
 */
final class DevTools implements AutoCloseable {
    /** The flags the machine notes give for Chromium here: no sandbox as root, no network of its own. */
    static final List<String> FLAGS = List.of("--headless", "--no-sandbox", "--disable-gpu", "--disable-quic",
            "--no-first-run", "--disable-background-networking", "--disable-component-update", "--disable-sync",
            "--remote-debugging-port=0");
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final long TIMEOUT_SECONDS = 30;

    private final Process browser;
    private final WebSocket socket;
    private final AtomicInteger ids = new AtomicInteger();
    private final Map<Integer, CompletableFuture<JsonNode>> pending = new ConcurrentHashMap<>();
    private final LinkedBlockingQueue<JsonNode> events = new LinkedBlockingQueue<>();
    /** Every event, for {@link #drainEvents} (awaiting one does not lose the others). */
    private final java.util.concurrent.ConcurrentLinkedQueue<JsonNode> history =
            new java.util.concurrent.ConcurrentLinkedQueue<>();
    private String session;

    private DevTools(Process browser, WebSocket socket) {
        this.browser = browser;
        this.socket = socket;
    }

    /** Starts {@code chromium} with a fresh profile in {@code profile} and opens one blank page. */
    static DevTools launch(Path chromium, Path profile) throws Exception {
        List<String> command = new ArrayList<>(List.of(chromium.toString()));
        command.addAll(FLAGS);
        command.add("--user-data-dir=" + profile);
        command.add("about:blank");
        Process browser = new ProcessBuilder(command).redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
        try {
            String endpoint = CompletableFuture.supplyAsync(() -> endpoint(browser))
                    .get(TIMEOUT_SECONDS, TimeUnit.SECONDS);
            Listener listener = new Listener();
            WebSocket socket = HttpClient.newHttpClient().newWebSocketBuilder()
                    .connectTimeout(Duration.ofSeconds(10)).buildAsync(URI.create(endpoint), listener)
                    .get(TIMEOUT_SECONDS, TimeUnit.SECONDS);
            DevTools tools = new DevTools(browser, socket);
            listener.tools = tools;
            String target = tools.call("Target.createTarget", Map.of("url", "about:blank")).get("targetId").asText();
            tools.session = tools.call("Target.attachToTarget", Map.of("targetId", target, "flatten", true))
                    .get("sessionId").asText();
            return tools;
        } catch (Exception | Error e) {
            destroy(browser);
            throw e;
        }
    }

    /** Chromium says where its DevTools listen on standard error: {@code DevTools listening on ws://...}. */
    private static String endpoint(Process browser) {
        try (BufferedReader err = new BufferedReader(new InputStreamReader(browser.getErrorStream(),
                StandardCharsets.UTF_8))) {
            for (String line = err.readLine(); line != null; line = err.readLine()) {
                int at = line.indexOf("ws://");
                if (line.startsWith("DevTools listening on") && at > 0) {
                    String found = line.substring(at);
                    Thread drain = new Thread(() -> drain(err), "chromium-stderr");
                    drain.setDaemon(true);
                    drain.start();
                    return found;
                }
            }
            throw new IllegalStateException("Chromium ended without a DevTools endpoint");
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
    }

    private static void drain(BufferedReader err) {
        try {
            while (err.readLine() != null) {
                // Chromium's own log: not ours to keep
            }
        } catch (IOException ignored) {
            // the browser is gone
        }
    }

    /** Sends {@code method} to the page and returns its result. */
    JsonNode page(String method, Map<String, ?> params) throws Exception {
        return send(method, params, session);
    }

    private JsonNode call(String method, Map<String, ?> params) throws Exception {
        return send(method, params, null);
    }

    private JsonNode send(String method, Map<String, ?> params, String sessionId) throws Exception {
        int id = ids.incrementAndGet();
        ObjectNode message = JSON.createObjectNode().put("id", id).put("method", method);
        message.set("params", JSON.valueToTree(params));
        if (sessionId != null) {
            message.put("sessionId", sessionId);
        }
        CompletableFuture<JsonNode> answer = new CompletableFuture<>();
        pending.put(id, answer);
        socket.sendText(JSON.writeValueAsString(message), true).get(TIMEOUT_SECONDS, TimeUnit.SECONDS);
        JsonNode reply = answer.get(TIMEOUT_SECONDS, TimeUnit.SECONDS);
        if (reply.has("error")) {
            throw new IllegalStateException(method + ": " + reply.get("error"));
        }
        return reply.get("result");
    }

    /** Evaluates {@code expression} in the page (awaiting it when it is a promise) and returns its value. */
    JsonNode evaluate(String expression) throws Exception {
        JsonNode result = page("Runtime.evaluate", Map.of("expression", expression, "awaitPromise", true,
                "returnByValue", true));
        if (result.has("exceptionDetails")) {
            throw new IllegalStateException(expression + ": " + result.get("exceptionDetails"));
        }
        return result.get("result").get("value");
    }

    /** The next event of the page that {@code matches} (the ones before it stay in {@link #drainEvents}). */
    JsonNode await(Predicate<JsonNode> matches) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(TIMEOUT_SECONDS);
        while (true) {
            JsonNode event = events.poll(Math.max(0, deadline - System.nanoTime()), TimeUnit.NANOSECONDS);
            if (event == null) {
                throw new AssertionError("no such DevTools event within " + TIMEOUT_SECONDS + " s");
            }
            if (matches.test(event)) {
                return event;
            }
        }
    }

    /** Takes every event received since the last call. */
    List<JsonNode> drainEvents() {
        events.clear();
        List<JsonNode> taken = new ArrayList<>();
        for (JsonNode event; (event = history.poll()) != null; ) {
            taken.add(event);
        }
        return taken;
    }

    static Predicate<JsonNode> method(String name) {
        return event -> name.equals(event.path("method").asText());
    }

    @Override
    public void close() {
        socket.abort();
        destroy(browser);
    }

    /** Ends the browser and the processes it started (renderers, zygotes), by their handles. */
    private static void destroy(Process browser) {
        List<ProcessHandle> children = browser.descendants().toList();
        browser.destroy();
        children.forEach(ProcessHandle::destroy);
        try {
            if (!browser.waitFor(10, TimeUnit.SECONDS)) {
                browser.destroyForcibly();
                children.forEach(ProcessHandle::destroyForcibly);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** Parses whole messages (they may arrive in parts): answers complete their command, the rest are events. */
    private static final class Listener implements WebSocket.Listener {
        private final StringBuilder text = new StringBuilder();
        volatile DevTools tools;

        @Override
        public CompletionStage<?> onText(WebSocket webSocket, CharSequence data, boolean last) {
            text.append(data);
            if (last) {
                try {
                    JsonNode message = JSON.readTree(text.toString());
                    DevTools owner = tools;
                    if (owner == null) {
                        // nothing is asked before the owner is set: a stray message, dropped
                    } else if (message.has("id")) {
                        CompletableFuture<JsonNode> answer = owner.pending.remove(message.get("id").asInt());
                        if (answer != null) {
                            answer.complete(message);
                        }
                    } else {
                        owner.history.add(message);
                        owner.events.add(message);
                    }
                } catch (IOException e) {
                    throw new IllegalStateException("not JSON from DevTools: " + text, e);
                } finally {
                    text.setLength(0);
                }
            }
            webSocket.request(1);
            return null;
        }
    }
}
