package dev.fleche.examples.chat;

import dev.fleche.async.LongPollTopic;
import dev.fleche.jersey.FlecheHttpServer;
import dev.fleche.jersey.FlecheHttpServerFactory;
import dev.fleche.transport.ServerOptions;
import dev.fleche.transport.testing.MainProcess;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

/**
 * The chat over HTTP with the JDK client: waiting, fan-out on post, timeout, validation, and the main class. The
 * server runs on a clock the test holds, so a long poll times out when the test moves the clock, not after a
 * wall-clock wait.
 */
class ChatServerTest {
    private static final AtomicLong CLOCK = new AtomicLong();
    private static final HttpClient CLIENT = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(10)).build();
    private static final LongPollTopic<String, List<Message>> ROOMS =
            LongPollTopic.<String, List<Message>>builder().timeout(Duration.ofSeconds(2)).build();
    private static FlecheHttpServer server;

    @BeforeAll
    static void start() {
        server = FlecheHttpServerFactory.createServer(URI.create("http://127.0.0.1:0/"),
                ChatServer.application(ROOMS),
                ServerOptions.builder().address(new InetSocketAddress("127.0.0.1", 0)).nanoClock(CLOCK::get).build());
    }

    @AfterAll
    static void stop() throws InterruptedException {
        server.stop(Duration.ofSeconds(1));
    }

    private static HttpRequest.Builder request(String path) {
        return HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + server.port() + path)).timeout(Duration.ofSeconds(30));
    }

    private static CompletableFuture<HttpResponse<String>> poll(String room, long after) {
        return CLIENT.sendAsync(request("/rooms/" + room + "/messages?after=" + after).build(),
                HttpResponse.BodyHandlers.ofString());
    }

    private static HttpResponse<String> post(String room, String text) throws Exception {
        return CLIENT.send(request("/rooms/" + room + "/messages").header("Content-Type", "text/plain")
                .POST(HttpRequest.BodyPublishers.ofString(text)).build(), HttpResponse.BodyHandlers.ofString());
    }

    /** Moves the server's clock past the long-poll timeout (2 s). */
    private static void timeOutWaiters() {
        CLOCK.addAndGet(Duration.ofSeconds(3).toNanos());
    }

    private static void awaitWaiters(String room, int count) {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(5);
        // Waiting, and each waiter's timeout armed (on the test's clock): only then may the clock move.
        while (ROOMS.waiting(room) != count || server.container().armedTimers() != ROOMS.waiting()) {
            if (System.nanoTime() - deadline > 0) {
                fail("expected " + count + " waiters in " + room + ", have " + ROOMS.waiting(room));
            }
            LockSupport.parkNanos(500_000);
        }
    }

    @Test
    void aPostResumesEveryWaiterOfTheRoom() throws Exception {
        List<CompletableFuture<HttpResponse<String>>> waiting = new ArrayList<>();
        for (int i = 0; i < 3; i++) {
            waiting.add(poll("fanout", 0));
        }
        CompletableFuture<HttpResponse<String>> otherRoom = poll("elsewhere", 0);
        awaitWaiters("elsewhere", 1);
        awaitWaiters("fanout", 3);

        HttpResponse<String> posted = post("fanout", "hello, room");
        assertEquals(201, posted.statusCode());
        assertEquals("{\"id\":1,\"text\":\"hello, room\"}", posted.body());
        for (CompletableFuture<HttpResponse<String>> response : waiting) {
            HttpResponse<String> answer = response.get(5, TimeUnit.SECONDS);
            assertEquals(200, answer.statusCode());
            assertEquals("[{\"id\":1,\"text\":\"hello, room\"}]", answer.body());
        }
        assertEquals(1, ROOMS.waiting("elsewhere"), "another room's waiter is not woken");
        assertFalse(otherRoom.isDone(), "another room's waiter is not answered");
        timeOutWaiters();
        assertEquals(204, otherRoom.get(10, TimeUnit.SECONDS).statusCode(), "it times out instead");
    }

    @Test
    void messagesAlreadyThereAreAnsweredAtOnce() throws Exception {
        post("history", "one");
        post("history", "two");
        post("history", "three");
        HttpResponse<String> answer = poll("history", 1).get(5, TimeUnit.SECONDS);
        assertEquals("[{\"id\":2,\"text\":\"two\"},{\"id\":3,\"text\":\"three\"}]", answer.body());
        assertEquals(0, ROOMS.waiting("history"));
    }

    @Test
    void noNewsTimesOutWith204() throws Exception {
        post("quiet", "only message");
        CompletableFuture<HttpResponse<String>> waiting = poll("quiet", 1);
        awaitWaiters("quiet", 1);
        assertFalse(waiting.isDone(), "no answer before the timeout");
        timeOutWaiters();
        HttpResponse<String> answer = waiting.get(10, TimeUnit.SECONDS);
        assertEquals(204, answer.statusCode());
        assertEquals(0, ROOMS.waiting());
    }

    @Test
    void badInputIsRefused() throws Exception {
        assertEquals(400, post("no%20spaces%20allowed", "x").statusCode());
        HttpResponse<String> blank = post("room", " ");
        assertEquals(400, blank.statusCode());
        assertEquals("application/problem+json", blank.headers().firstValue("Content-Type").orElse(""));
        assertTrue(blank.body().contains("\"detail\":\"a message is 1 to "), blank.body());
        assertEquals(400, poll("bad%20room", 0).get(5, TimeUnit.SECONDS).statusCode());
    }

    @Test
    void mainPrintsReadyAndServes() throws Exception {
        try (MainProcess main = MainProcess.start(ChatServer.class, "0")) {
            URI room = URI.create("http://127.0.0.1:" + main.port() + "/rooms/main/messages");
            CompletableFuture<HttpResponse<String>> waiting = CLIENT.sendAsync(
                    HttpRequest.newBuilder(URI.create(room + "?after=0")).timeout(Duration.ofSeconds(30)).build(), HttpResponse.BodyHandlers.ofString());
            HttpResponse<String> posted = CLIENT.send(HttpRequest.newBuilder(room).timeout(Duration.ofSeconds(30))
                    .header("Content-Type", "text/plain").POST(HttpRequest.BodyPublishers.ofString("hi")).build(),
                    HttpResponse.BodyHandlers.ofString());
            assertEquals(201, posted.statusCode());
            assertEquals("[{\"id\":1,\"text\":\"hi\"}]", waiting.get(10, TimeUnit.SECONDS).body());
        }
    }
}
