package dev.fleche.async;

import dev.fleche.jersey.FlecheProperties;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.NotFoundException;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.container.AsyncResponse;
import jakarta.ws.rs.container.Suspended;
import org.glassfish.jersey.CommonProperties;
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
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Suspended requests hold no thread: with a single worker thread, hundreds of requests are suspended at once —
 * with {@code @Suspended AsyncResponse} and with resource methods returning a {@link CompletionStage} — and all
 * complete when resumed from elsewhere. {@code CompletionStage} success and failure are answered as the stage
 * completes.
 */
class NoThreadHeldTest extends AsyncJerseyTest {
    static final int REQUESTS = 200;
    static final BlockingQueue<AsyncResponse> SUSPENDED = new LinkedBlockingQueue<>();
    static final BlockingQueue<CompletableFuture<String>> STAGES = new LinkedBlockingQueue<>();
    /**
     * HTTP/1.1, one connection per request: over h2c the JDK 17 client keeps all 200 on one connection and holds
     * those beyond the server's MAX_CONCURRENT_STREAMS (128) back, which is not what this test is about.
     */
    private static final HttpClient CLIENT = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
            .connectTimeout(Duration.ofSeconds(10)).build();

    @Path("held")
    public static class Resource {
        @GET
        @Path("suspended")
        public void suspended(@Suspended AsyncResponse response) {
            SUSPENDED.add(response);
        }

        @GET
        @Path("stage")
        public CompletionStage<String> stage() {
            CompletableFuture<String> stage = new CompletableFuture<>();
            STAGES.add(stage);
            return stage;
        }

        @GET
        @Path("future")
        public CompletableFuture<String> future() {
            CompletableFuture<String> stage = new CompletableFuture<>();
            STAGES.add(stage);
            return stage;
        }
    }

    @Override
    protected ResourceConfig application() {
        return new ResourceConfig(Resource.class)
                .property(CommonProperties.USE_VIRTUAL_THREADS, false)
                .property(FlecheProperties.WORKER_THREADS, 1)
                .property(FlecheProperties.WORKER_QUEUE, 2 * REQUESTS);
    }

    @BeforeEach
    void clear() {
        SUSPENDED.clear();
        STAGES.clear();
    }

    private List<CompletableFuture<HttpResponse<String>>> send(String path, int count) {
        URI uri = getBaseUri().resolve(path);
        List<CompletableFuture<HttpResponse<String>>> responses = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            responses.add(CLIENT.sendAsync(HttpRequest.newBuilder(uri).timeout(Duration.ofSeconds(30)).build(), HttpResponse.BodyHandlers.ofString()));
        }
        return responses;
    }

    private static <T> List<T> take(BlockingQueue<T> queue, int count) throws InterruptedException {
        List<T> taken = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            T next = queue.poll(20, TimeUnit.SECONDS);
            assertTrue(next != null, "only " + i + " of " + count + " requests reached the resource: "
                    + "the single worker thread is held");
            taken.add(next);
        }
        return taken;
    }

    @Test
    void suspendedRequestsHoldNoThread() throws Exception {
        List<CompletableFuture<HttpResponse<String>>> responses = send("held/suspended", REQUESTS);
        List<AsyncResponse> suspended = take(SUSPENDED, REQUESTS);
        for (int i = 0; i < suspended.size(); i++) {
            assertTrue(suspended.get(i).resume("r" + i));
        }
        for (CompletableFuture<HttpResponse<String>> response : responses) {
            HttpResponse<String> answer = response.get(20, TimeUnit.SECONDS);
            assertEquals(200, answer.statusCode());
            assertTrue(answer.body().startsWith("r"));
        }
    }

    @Test
    void completionStagesHoldNoThread() throws Exception {
        List<CompletableFuture<HttpResponse<String>>> responses = send("held/stage", REQUESTS);
        List<CompletableFuture<String>> stages = take(STAGES, REQUESTS);
        stages.forEach(stage -> stage.complete("done"));
        for (CompletableFuture<HttpResponse<String>> response : responses) {
            HttpResponse<String> answer = response.get(20, TimeUnit.SECONDS);
            assertEquals(200, answer.statusCode());
            assertEquals("done", answer.body());
        }
        Await.until("no timer left", () -> container().armedTimers() == 0);
    }

    @Test
    void completableFutureFailures() throws Exception {
        List<CompletableFuture<HttpResponse<String>>> responses = send("held/future", 2);
        List<CompletableFuture<String>> stages = take(STAGES, 2);
        stages.get(0).completeExceptionally(new NotFoundException("nothing here"));
        stages.get(1).completeExceptionally(new IllegalStateException("broken"));
        List<Integer> statuses = new ArrayList<>();
        for (CompletableFuture<HttpResponse<String>> response : responses) {
            statuses.add(response.get(20, TimeUnit.SECONDS).statusCode());
        }
        statuses.sort(null);
        assertEquals(List.of(404, 500), statuses);
    }
}
