package dev.fleche.jersey;

import dev.fleche.transport.testing.RawHttp;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.container.AsyncResponse;
import jakarta.ws.rs.container.ContainerRequestContext;
import jakarta.ws.rs.container.Suspended;
import jakarta.ws.rs.core.Application;
import jakarta.ws.rs.core.Context;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.MultivaluedMap;
import jakarta.ws.rs.core.StreamingOutput;
import jakarta.ws.rs.ext.MessageBodyWriter;
import org.glassfish.jersey.server.ChunkedOutput;
import org.glassfish.jersey.server.ResourceConfig;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.io.IOException;
import java.io.OutputStream;
import java.lang.annotation.Annotation;
import java.lang.reflect.Type;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * What an application sees when its client leaves while it streams (issue 17): the departure arrives once, as an
 * {@link IOException} from a write; a flush or close after that never throws — Jersey flushes and closes the
 * entity stream on its own close path and would turn an exception there into an {@code UncheckedIOException}
 * escaping {@code ChunkedOutput.write}/{@code close} into the application.
 *
 * <p>The interleaving is made on purpose, not left to chance: the client leaves only once the chunk writer is inside
 * {@code ChunkedOutput}'s flush (holding its "flushing" role), and that writer writes only after the transport has
 * seen the departure (a {@link ClientConnection#onDisconnect} callback). So the write fails in the container's stream
 * with bytes taken but never flushed, Jersey's disconnect-side {@code close()} finds the queue busy, and the
 * application's own {@code close()} then runs Jersey's close path, which flushes that stream: the flush that used to
 * throw.
 */
@Timeout(60)
class DepartedClientTest extends FlecheJerseyTest {
    static final CountDownLatch CHUNK_WRITER_WAITING = new CountDownLatch(1);
    static final CountDownLatch CHUNKS_GONE = new CountDownLatch(1);
    static final CompletableFuture<String> CHUNKS_OUTCOME = new CompletableFuture<>();
    static final CompletableFuture<String> RACE_OUTCOME = new CompletableFuture<>();
    static final CountDownLatch RACE_QUEUED = new CountDownLatch(1);
    static final CountDownLatch STREAM_GONE = new CountDownLatch(1);
    static final CompletableFuture<String> STREAM_OUTCOME = new CompletableFuture<>();
    static final CountDownLatch ASYNC_GONE = new CountDownLatch(1);
    static final CompletableFuture<String> ASYNC_OUTCOME = new CompletableFuture<>();

    /** A chunk; {@code afterDeparture} makes its writer wait until the client has left before writing. */
    public static final class Part {
        final String text;
        final CountDownLatch afterDeparture;

        Part(String text, CountDownLatch afterDeparture) {
            this.text = text;
            this.afterDeparture = afterDeparture;
        }
    }

    /** Writes a {@link Part}, first waiting for the departure when asked to. */
    public static final class PartWriter implements MessageBodyWriter<Part> {
        @Override
        public boolean isWriteable(Class<?> type, Type genericType, Annotation[] annotations, MediaType mediaType) {
            return type == Part.class;
        }

        @Override
        public void writeTo(Part part, Class<?> type, Type genericType, Annotation[] annotations, MediaType mediaType,
                            MultivaluedMap<String, Object> headers, OutputStream out) throws IOException {
            if (part.afterDeparture != null) {
                CHUNK_WRITER_WAITING.countDown();
                await(part.afterDeparture);
            }
            out.write(part.text.getBytes(StandardCharsets.UTF_8));
        }
    }

    @Path("departed")
    public static class Resources {
        @GET
        @Path("chunks")
        @Produces(MediaType.TEXT_PLAIN)
        public ChunkedOutput<Part> chunks(@Context ContainerRequestContext request) {
            connection(request).onDisconnect(CHUNKS_GONE::countDown);
            ContextAwareOutput output = new ContextAwareOutput();
            new Thread(() -> CHUNKS_OUTCOME.complete(writeUntilGone(output)), "chunk-writer").start();
            return output;
        }

        @GET
        @Path("race")
        @Produces(MediaType.TEXT_PLAIN)
        public ChunkedOutput<Part> race() {
            RacingOutput output = new RacingOutput();
            new Thread(() -> RACE_OUTCOME.complete(output.writeWhileTheDisconnectFlushes()), "race-writer").start();
            return output;
        }

        @GET
        @Path("stream")
        @Produces(MediaType.TEXT_PLAIN)
        public StreamingOutput stream(@Context ContainerRequestContext request) {
            connection(request).onDisconnect(STREAM_GONE::countDown);
            return out -> {
                out.write("x".repeat(9000).getBytes(StandardCharsets.UTF_8)); // past Jersey's 8 KiB buffer: committed
                out.flush();
                await(STREAM_GONE);
                String outcome = "write never failed";
                try {
                    out.write("second\n".getBytes(StandardCharsets.UTF_8));
                    out.flush();
                } catch (IOException expected) {
                    outcome = "write failed";
                }
                outcome += quietly("flush", out::flush) + quietly("close", out::close);
                STREAM_OUTCOME.complete(outcome);
            };
        }

        @GET
        @Path("async")
        public void async(@Suspended AsyncResponse response, @Context ContainerRequestContext request) {
            connection(request).onDisconnect(ASYNC_GONE::countDown);
            new Thread(() -> {
                await(ASYNC_GONE);
                String outcome;
                try {
                    response.resume("too late");
                    outcome = "resumed quietly";
                } catch (RuntimeException e) {
                    outcome = "resume threw " + e;
                }
                ASYNC_OUTCOME.complete(outcome);
            }, "late-resumer").start();
        }
    }

    /**
     * A chunked output that tells when Jersey has given it its context: Jersey's own first {@code flushQueue}, from
     * {@code setContext} once the head is committed. Writing only after it makes the application's thread the one
     * that flushes the chunk (not Jersey's request thread).
     */
    static final class ContextAwareOutput extends ChunkedOutput<Part> {
        final CountDownLatch contextSet = new CountDownLatch(1);

        ContextAwareOutput() {
            super(Part.class);
        }

        @Override
        protected void flushQueue() throws IOException {
            super.flushQueue();
            contextSet.countDown();
        }
    }

    /**
     * The interleaving of issue 17's trace, step by step, with {@code ChunkedOutput}'s own protected hooks:
     * <ol>
     *   <li>the application's thread queues a chunk, then waits (in {@code flushQueue}, before flushing) while the
     *       client leaves;</li>
     *   <li>the container's disconnect worker closes the output: its {@code flushQueue} takes that chunk, the write
     *       fails (the bytes are taken, then the connection is found closed), and it stops in {@code onClose};</li>
     *   <li>the application's thread goes on: the queue is being flushed by the other thread, so it does nothing but
     *       close the response, the first to do so — Jersey's close path flushes the container's stream, with the
     *       failed write's bytes still in it.</li>
     * </ol>
     * That flush used to throw; Jersey hands it to the container's {@code failure()}, which rethrows it, and the
     * application's {@code write} failed with an {@code UncheckedIOException}.
     */
    static final class RacingOutput extends ChunkedOutput<Part> {
        private final CountDownLatch contextSet = new CountDownLatch(1);
        private final CountDownLatch disconnectInOnClose = new CountDownLatch(1);
        private final CountDownLatch applicationDone = new CountDownLatch(1);
        private volatile Thread application;

        RacingOutput() {
            super(Part.class);
        }

        @Override
        protected void flushQueue() throws IOException {
            if (Thread.currentThread() == application) {
                RACE_QUEUED.countDown(); // the test's client leaves now
                await(disconnectInOnClose);
            }
            super.flushQueue();
            contextSet.countDown();
        }

        @Override
        protected void onClose(Exception e) {
            if (Thread.currentThread() != application) {
                disconnectInOnClose.countDown();
                await(applicationDone);
            }
            super.onClose(e);
        }

        String writeWhileTheDisconnectFlushes() {
            await(contextSet);
            application = Thread.currentThread();
            String outcome;
            try {
                write(new Part("raced\n", null));
                outcome = "first write quiet";
            } catch (IOException e) {
                outcome = "first write failed";
            } catch (RuntimeException e) {
                outcome = "first write threw " + e;
            } finally {
                applicationDone.countDown();
            }
            try {
                write(new Part("after\n", null));
                outcome += ", second write quiet";
            } catch (IOException expected) {
                outcome += ", second write failed";
            } catch (RuntimeException e) {
                outcome += ", second write threw " + e;
            }
            outcome += quietly("close", this::close);
            return outcome + (isClosed() ? ", closed" : ", not closed");
        }
    }

    /** One chunk, written when the client has left; then close, as the {@code ChunkedOutput} contract says. */
    static String writeUntilGone(ContextAwareOutput output) {
        String outcome;
        try {
            await(output.contextSet);
            output.write(new Part("second\n", CHUNKS_GONE));
            outcome = "write never failed";
        } catch (IOException expected) {
            outcome = "write failed";
        } catch (RuntimeException e) {
            outcome = "write threw " + e;
        }
        outcome += quietly("close", output::close);
        return outcome + (output.isClosed() ? ", closed" : ", not closed");
    }

    interface IoAction {
        void run() throws IOException;
    }

    static String quietly(String what, IoAction action) {
        try {
            action.run();
            return ", " + what + " quiet";
        } catch (IOException | RuntimeException e) {
            return ", " + what + " threw " + e;
        }
    }

    static ClientConnection connection(ContainerRequestContext request) {
        return (ClientConnection) request.getProperty(FlecheProperties.CONNECTION);
    }

    static void await(CountDownLatch latch) {
        try {
            if (!latch.await(20, TimeUnit.SECONDS)) {
                throw new IllegalStateException("the client never left");
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    @Override
    protected Application configure() {
        return new ResourceConfig(Resources.class).register(PartWriter.class);
    }

    /** Sends {@code GET target}, reads the response head, waits for {@code ready} (if any), then leaves. */
    private void leaveAfterHead(String target, CountDownLatch ready) throws IOException {
        try (RawHttp raw = new RawHttp(getBaseUri().getPort())) {
            raw.send("GET " + target + " HTTP/1.1\r\nHost: h\r\n\r\n");
            RawHttp.Response head = raw.readHead();
            assertEquals(200, head.status());
            if (ready != null) {
                await(ready);
            }
            raw.reset(); // leaving: a FIN after a whole request is now a half-close (the server still answers it), a reset is a departure
        }
    }

    @Test
    void chunkedOutputSeesTheDepartureOnceAsAnIOExceptionFromWrite() throws Exception {
        leaveAfterHead("/departed/chunks", CHUNK_WRITER_WAITING);
        assertEquals("write failed, close quiet, closed", CHUNKS_OUTCOME.get(30, TimeUnit.SECONDS));
    }

    @Test
    void aWriteRacingTheDisconnectsOwnFlushIsQuietAndTheNextOneFails() throws Exception {
        leaveAfterHead("/departed/race", RACE_QUEUED);
        assertEquals("first write quiet, second write failed, close quiet, closed",
                RACE_OUTCOME.get(30, TimeUnit.SECONDS));
    }

    @Test
    void streamingOutputWriteFailsThenFlushAndCloseAreQuiet() throws Exception {
        leaveAfterHead("/departed/stream", null);
        assertEquals("write failed, flush quiet, close quiet", STREAM_OUTCOME.get(30, TimeUnit.SECONDS));
    }

    @Test
    void asyncResponseResumedAfterTheClientLeftDoesNotThrow() throws Exception {
        try (RawHttp raw = new RawHttp(getBaseUri().getPort())) {
            raw.send("GET /departed/async HTTP/1.1\r\nHost: h\r\n\r\n");
            raw.reset(); // leaving: a FIN after a whole request is now a half-close (the server still answers it), a reset is a departure
        }
        assertEquals("resumed quietly", ASYNC_OUTCOME.get(30, TimeUnit.SECONDS));
    }
}
