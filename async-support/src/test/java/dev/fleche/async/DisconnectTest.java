package dev.fleche.async;

import dev.fleche.jersey.FlecheHttpServer;
import dev.fleche.jersey.FlecheHttpServerFactory;
import dev.fleche.transport.testing.RawHttp;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.container.AsyncResponse;
import jakarta.ws.rs.container.CompletionCallback;
import jakarta.ws.rs.container.ConnectionCallback;
import jakarta.ws.rs.container.Suspended;
import jakarta.ws.rs.core.StreamingOutput;
import org.glassfish.jersey.server.ChunkedOutput;
import org.glassfish.jersey.server.ResourceConfig;
import org.glassfish.jersey.server.ServerProperties;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A client that closes (FIN) or resets (RST) its connection while its request is suspended or streaming: the
 * application's {@code ConnectionCallback} runs within 1 s without any write, the exchange's timer, worker and
 * connection are released, and the next write or flush fails with {@link IOException}.
 */
class DisconnectTest {
    /** What one test's resources report; a new one per test. */
    static final class Seen {
        final CompletableFuture<AsyncResponse> suspended = new CompletableFuture<>();
        final CountDownLatch disconnected = new CountDownLatch(1);
        final AtomicReference<AsyncResponse> disconnectedResponse = new AtomicReference<>();
        final CountDownLatch completed = new CountDownLatch(1);
        final CompletableFuture<ChunkedOutput<String>> chunked = new CompletableFuture<>();
        final CountDownLatch streamStarted = new CountDownLatch(1);
        final CountDownLatch streamMayGoOn = new CountDownLatch(1);
        final CompletableFuture<Throwable> streamFailure = new CompletableFuture<>();
    }

    static volatile Seen seen = new Seen();

    @Path("gone")
    public static class Resource {
        @GET
        @Path("suspended")
        public void suspended(@Suspended AsyncResponse response) {
            Seen seen = DisconnectTest.seen;
            response.setTimeout(60, TimeUnit.SECONDS);
            response.register((ConnectionCallback) disconnected -> {
                seen.disconnectedResponse.set(disconnected);
                seen.disconnected.countDown();
            });
            response.register((CompletionCallback) error -> seen.completed.countDown());
            seen.suspended.complete(response);
        }

        @GET
        @Path("chunked")
        public ChunkedOutput<String> chunked() throws IOException {
            ChunkedOutput<String> output = new ChunkedOutput<>(String.class);
            seen.chunked.complete(output);
            return output;
        }

        @GET
        @Path("streaming")
        public StreamingOutput streaming() {
            Seen seen = DisconnectTest.seen;
            return out -> {
                out.write(new byte[70_000]); // past Jersey's buffer: streamed, chunked
                out.flush();
                seen.streamStarted.countDown();
                try {
                    seen.streamMayGoOn.await(10, TimeUnit.SECONDS);
                    out.write("more".getBytes(StandardCharsets.UTF_8));
                    out.flush();
                    seen.streamFailure.complete(null);
                } catch (IOException | RuntimeException e) {
                    seen.streamFailure.complete(e);
                    throw e;
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            };
        }
    }

    private FlecheHttpServer server;

    @BeforeEach
    void start() {
        seen = new Seen();
        server = FlecheHttpServerFactory.createServer(URI.create("http://127.0.0.1:0/"),
                new ResourceConfig(Resource.class).property(ServerProperties.WADL_FEATURE_DISABLE, true));
    }

    @AfterEach
    void stop() throws InterruptedException {
        server.stop(Duration.ofSeconds(1));
    }

    private void assertReleased() {
        Await.until("the suspend timer is cancelled", () -> server.container().armedTimers() == 0);
        Await.until("no reactor timer slot left", () -> server.transport().scheduledTasks() == 0);
        Await.until("the connection is closed", () -> server.transport().metrics().openConnections() == 0);
    }

    private void suspendedRequestLeaves(boolean reset) throws Exception {
        RawHttp client = new RawHttp(server.port());
        if (reset) {
            client.get("/gone/suspended");
        } else {
            // A FIN after a whole request is a half-close: the client still gets its answer. An orderly close is
            // a departure when it cuts the request short: here its (chunked) body.
            client.send("GET /gone/suspended HTTP/1.1\r\nHost: test\r\nTransfer-Encoding: chunked\r\n\r\n1\r\nx\r\n");
        }
        AsyncResponse response = seen.suspended.get(10, TimeUnit.SECONDS);
        assertTrue(response.isSuspended());
        Await.until("the suspend timer is armed", () -> server.container().armedTimers() == 1);
        assertFalse(seen.disconnected.await(0, TimeUnit.SECONDS));

        long left = System.nanoTime();
        if (reset) {
            client.reset();
        } else {
            client.close();
        }
        assertTrue(seen.disconnected.await(1, TimeUnit.SECONDS), "ConnectionCallback.onDisconnect within 1 s");
        assertTrue(System.nanoTime() - left < TimeUnit.SECONDS.toNanos(1));
        assertTrue(seen.disconnectedResponse.get() == response, "the callback names the response");
        assertTrue(seen.completed.await(5, TimeUnit.SECONDS), "the request completed");
        assertFalse(response.isSuspended());
        assertFalse(response.resume("too late"), "nothing left to resume");
        assertReleased();
    }

    @Test
    void clientCloseWhileSuspended() throws Exception {
        suspendedRequestLeaves(false);
    }

    @Test
    void clientResetWhileSuspended() throws Exception {
        suspendedRequestLeaves(true);
    }

    @Test
    void chunkedOutputIsClosedWhenTheClientLeaves() throws Exception {
        RawHttp client = new RawHttp(server.port());
        client.get("/gone/chunked");
        ChunkedOutput<String> output = seen.chunked.get(10, TimeUnit.SECONDS);
        output.write("first\n");
        assertEquals(200, client.readHead().status());
        assertEquals("first\n", new String(client.readChunk(), StandardCharsets.UTF_8));
        client.reset(); // leaving: a FIN after a whole request is now a half-close (the server still answers it), a reset is a departure
        Await.until("isClosed() once the client left", Duration.ofSeconds(1), output::isClosed);
        assertThrows(IOException.class, () -> output.write("after\n"));
        assertReleased();
    }

    @Test
    void nextWriteAndFlushFailAfterTheClientLeft() throws Exception {
        RawHttp client = new RawHttp(server.port());
        client.get("/gone/streaming");
        assertEquals(200, client.readHead().status());
        assertTrue(seen.streamStarted.await(10, TimeUnit.SECONDS));
        client.reset();
        Await.until("the connection is closed", () -> server.transport().metrics().openConnections() == 0);
        seen.streamMayGoOn.countDown();
        assertInstanceOf(IOException.class, seen.streamFailure.get(10, TimeUnit.SECONDS));
        assertReleased();
    }
}
