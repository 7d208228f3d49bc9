package dev.fleche.transport;

import static java.nio.charset.StandardCharsets.UTF_8;
import static java.util.concurrent.TimeUnit.MILLISECONDS;
import static java.util.concurrent.TimeUnit.MINUTES;
import static java.util.concurrent.TimeUnit.SECONDS;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import org.junit.jupiter.api.Test;

/**
 * {@link HttpServer#scheduledTasks()} counts the timer slots held by {@link HttpExchange#schedule} tasks: a slot
 * is taken when a task is armed and released when it runs or is cancelled, from the reactor or from elsewhere.
 */
class ScheduledTasksTest {

    @Test
    void slotsAreTakenWhenArmedAndReleasedWhenRunOrCancelled() throws Exception {
        CompletableFuture<HttpExchange> held = new CompletableFuture<>();
        HttpServer server = HttpServer.create(RawClient.loopback().build(), held::complete).start();
        try (RawClient client = RawClient.connect(server)) {
            client.send("GET / HTTP/1.1\r\nHost: test\r\n\r\n");
            HttpExchange exchange = held.get(5, SECONDS);
            assertEquals(0, server.scheduledTasks());

            Timeout fromElsewhere = exchange.schedule(() -> { }, 1, MINUTES);
            CompletableFuture<Timeout> fromReactor = new CompletableFuture<>();
            exchange.execute(() -> fromReactor.complete(exchange.schedule(() -> { }, 1, MINUTES)));
            Await.until("two slots", () -> server.scheduledTasks() == 2);

            // armed on the reactor, the 1 ms task cannot run before this reactor task returns: its slot is seen
            CountDownLatch ran = new CountDownLatch(1);
            CompletableFuture<Integer> slotsOnceArmed = new CompletableFuture<>();
            exchange.execute(() -> {
                exchange.schedule(ran::countDown, 1, MILLISECONDS);
                slotsOnceArmed.complete(server.scheduledTasks());
            });
            assertEquals(3, slotsOnceArmed.get(5, SECONDS));

            assertTrue(ran.await(5, SECONDS));
            Await.until("the task that ran released its slot", () -> server.scheduledTasks() == 2);
            assertTrue(fromElsewhere.cancel());
            assertFalse(fromElsewhere.cancel(), "cancelled once");
            Await.until("a cancel from another thread releases the slot", () -> server.scheduledTasks() == 1);
            exchange.execute(() -> fromReactor.join().cancel());
            Await.until("a cancel on the reactor releases the slot", () -> server.scheduledTasks() == 0);
            exchange.respond(200, new HttpFields(), "done\n".getBytes(UTF_8));
        } finally {
            server.stop(Duration.ZERO);
        }
    }
}
