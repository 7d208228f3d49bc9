package dev.fleche.async;

import dev.fleche.transport.testing.RawHttp;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.container.AsyncResponse;
import jakarta.ws.rs.container.Suspended;
import jakarta.ws.rs.core.Response;
import org.glassfish.jersey.server.ResourceConfig;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@link LongPollTopic} through Jersey on Fleche: one publish resumes every waiter of its key (and only those),
 * waiters that time out or disconnect leave (no key or waiter kept), a ready value answers at once, a published
 * {@code Response} is copied per waiter, and concurrent publishes lose no update.
 */
class LongPollTopicTest extends AsyncJerseyTest {
    static final LongPollTopic<String, String> TOPIC = LongPollTopic.create();
    static final LongPollTopic<String, String> SHORT = LongPollTopic.<String, String>builder()
            .timeout(Duration.ofMillis(50))
            .build();
    static final LongPollTopic<String, Object> VERSIONS = LongPollTopic.<String, Object>builder()
            .resumeOn(Executors.newFixedThreadPool(4, task -> {
                Thread thread = new Thread(task, "resumer");
                thread.setDaemon(true);
                return thread;
            }))
            .build();
    static final AtomicLong VERSION = new AtomicLong();
    static final ConcurrentHashMap<String, Response> RESPONSES = new ConcurrentHashMap<>();
    private static final HttpClient CLIENT = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(10)).build();

    @Path("topic")
    public static class Resource {
        @GET
        @Path("{key}")
        public void await(@PathParam("key") String key, @Suspended AsyncResponse response) {
            TOPIC.await(key, response);
        }

        @GET
        @Path("short/{key}")
        public void awaitShort(@PathParam("key") String key, @Suspended AsyncResponse response) {
            SHORT.await(key, response);
        }

        @GET
        @Path("version")
        public void version(@QueryParam("after") long after, @Suspended AsyncResponse response) {
            VERSIONS.await("v", response, () -> VERSION.get() > after ? VERSION.get() : null);
        }
    }

    @Override
    protected ResourceConfig application() {
        return new ResourceConfig(Resource.class);
    }

    @BeforeEach
    void nothingWaits() {
        assertEquals(0, TOPIC.waiting());
        assertEquals(0, SHORT.waiting());
    }

    private CompletableFuture<HttpResponse<String>> get(String path) {
        return CLIENT.sendAsync(HttpRequest.newBuilder(getBaseUri().resolve(path)).timeout(Duration.ofSeconds(30)).build(),
                HttpResponse.BodyHandlers.ofString());
    }

    private static List<HttpResponse<String>> all(List<CompletableFuture<HttpResponse<String>>> pending)
            throws Exception {
        List<HttpResponse<String>> done = new ArrayList<>();
        for (CompletableFuture<HttpResponse<String>> response : pending) {
            done.add(response.get(10, TimeUnit.SECONDS));
        }
        return done;
    }

    @Test
    void publishResumesEveryWaiterOfItsKeyOnly() throws Exception {
        List<CompletableFuture<HttpResponse<String>>> a = new ArrayList<>();
        List<CompletableFuture<HttpResponse<String>>> b = new ArrayList<>();
        for (int i = 0; i < 20; i++) {
            a.add(get("topic/a"));
        }
        for (int i = 0; i < 5; i++) {
            b.add(get("topic/b"));
        }
        Await.until("25 waiters", () -> TOPIC.waiting("a") == 20 && TOPIC.waiting("b") == 5);
        assertEquals(2, TOPIC.keys());

        assertEquals(20, TOPIC.publish("a", "news for a"));
        for (HttpResponse<String> response : all(a)) {
            assertEquals(200, response.statusCode());
            assertEquals("news for a", response.body());
        }
        assertEquals(0, TOPIC.waiting("a"));
        assertEquals(5, TOPIC.waiting("b"));
        assertFalse(b.stream().anyMatch(CompletableFuture::isDone), "b's waiters still wait");
        assertEquals(0, TOPIC.publish("a", "nobody"), "a's waiters left with the publish");

        assertEquals(5, TOPIC.publish("b", "news for b"));
        all(b).forEach(response -> assertEquals("news for b", response.body()));
        assertEquals(0, TOPIC.keys());
        Await.until("no timer left", () -> container().armedTimers() == 0);
    }

    @Test
    void timedOutWaitersLeave() throws Exception {
        List<CompletableFuture<HttpResponse<String>>> pending = new ArrayList<>();
        for (int i = 0; i < 10; i++) {
            pending.add(get("topic/short/k" + (i % 3)));
        }
        for (HttpResponse<String> response : all(pending)) {
            assertEquals(204, response.statusCode());
        }
        Await.until("no waiter left", () -> SHORT.waiting() == 0 && SHORT.keys() == 0);
        Await.until("no timer left", () -> container().armedTimers() == 0);
    }

    @Test
    void disconnectedWaitersLeave() throws Exception {
        List<RawHttp> clients = new ArrayList<>();
        for (int i = 0; i < 5; i++) {
            clients.add(new RawHttp(port()).get("/topic/gone"));
        }
        try (RawHttp staying = new RawHttp(port())) {
            staying.get("/topic/gone");
            Await.until("6 waiters", () -> TOPIC.waiting("gone") == 6);
            for (RawHttp client : clients) {
                client.reset(); // leaving: a FIN after a whole request is now a half-close (the server still answers it), a reset is a departure
            }
            Await.until("the 5 departed waiters left within 1 s", Duration.ofSeconds(1),
                    () -> TOPIC.waiting("gone") == 1);
            assertEquals(1, TOPIC.publish("gone", "still here"));
            assertEquals("still here", staying.read().body());
        }
        assertEquals(0, TOPIC.keys());
    }

    @Test
    void aReadyValueAnswersAtOnce() throws Exception {
        long now = VERSION.incrementAndGet();
        HttpResponse<String> response = get("topic/version?after=" + (now - 1)).get(10, TimeUnit.SECONDS);
        assertEquals(String.valueOf(now), response.body());
        assertEquals(0, VERSIONS.waiting());
    }

    @Test
    void aPublishedResponseIsCopiedForEachWaiter() throws Exception {
        List<CompletableFuture<HttpResponse<String>>> pending = new ArrayList<>();
        for (int i = 0; i < 10; i++) {
            pending.add(get("topic/resp"));
        }
        Await.until("10 waiters", () -> TOPIC.waiting("resp") == 10);
        TOPIC.publish("resp", null);
        assertEquals(0, TOPIC.waiting("resp"));
        for (HttpResponse<String> response : all(pending)) {
            assertEquals(204, response.statusCode(), "a null value is an empty answer");
        }
        pending.clear();
        for (int i = 0; i < 10; i++) {
            pending.add(get("topic/resp"));
        }
        Await.until("10 waiters", () -> TOPIC.waiting("resp") == 10);
        LongPollTopic<String, Response> typed = castForResponses(TOPIC);
        typed.publish("resp", Response.status(202).header("X-Shared", "yes").entity("accepted").build());
        for (HttpResponse<String> response : all(pending)) {
            assertEquals(202, response.statusCode());
            assertEquals("yes", response.headers().firstValue("X-Shared").orElse(null));
            assertEquals("accepted", response.body());
        }
    }

    @SuppressWarnings({"unchecked", "rawtypes"})
    private static LongPollTopic<String, Response> castForResponses(LongPollTopic<String, String> topic) {
        return (LongPollTopic) topic;
    }

    @Test
    void concurrentPublishesLoseNoUpdate() throws Exception {
        // Pollers keep asking for "anything after the version I saw"; a publisher bumps the version and publishes.
        // Each poller must see the final version: an update published between its check and its registration
        // would otherwise be missed until the next one (and the last one has no next).
        int pollers = 8;
        int updates = 200;
        ExecutorService threads = Executors.newFixedThreadPool(pollers);
        try {
            List<CompletableFuture<Long>> seen = new ArrayList<>();
            for (int p = 0; p < pollers; p++) {
                seen.add(CompletableFuture.supplyAsync(() -> {
                    long last = 0;
                    while (last < updates) {
                        HttpResponse<String> response = get("topic/version?after=" + last).join();
                        last = Long.parseLong(response.body());
                    }
                    return last;
                }, threads));
            }
            VERSION.set(0);
            for (int i = 1; i <= updates; i++) {
                VERSION.set(i);
                VERSIONS.publish("v", (long) i);
            }
            for (CompletableFuture<Long> poller : seen) {
                assertEquals(updates, poller.get(20, TimeUnit.SECONDS));
            }
        } finally {
            threads.shutdownNow();
        }
        assertTrue(VERSIONS.waiting() == 0 || VERSIONS.waiting() <= pollers);
    }
}
