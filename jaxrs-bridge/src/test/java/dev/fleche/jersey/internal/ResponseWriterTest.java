package dev.fleche.jersey.internal;

import jakarta.ws.rs.core.Response;
import org.glassfish.jersey.internal.MapPropertiesDelegate;
import org.glassfish.jersey.server.ContainerException;
import org.glassfish.jersey.server.ContainerRequest;
import org.glassfish.jersey.server.ContainerResponse;
import org.glassfish.jersey.server.ResourceConfig;
import org.glassfish.jersey.server.spi.ContainerResponseWriter;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.io.OutputStream;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The response writer against a recording exchange: hand-offs, failures, suspend and its timer. */
class ResponseWriterTest {
    private final FakeExchange exchange = new FakeExchange();
    private final List<Runnable> workerTasks = new ArrayList<>();
    private boolean saturated;

    private final Workers workers = new Workers() {
        @Override
        public boolean tryExecute(Runnable task) {
            if (saturated) {
                return false;
            }
            workerTasks.add(task);
            return true;
        }

        @Override
        public void shutdown() {
        }

        @Override
        public String describe() {
            return "test";
        }
    };

    private ResponseWriter writer(boolean setStatusOverSendError, boolean nonBlocking) {
        Settings settings = new Settings(false, 3, 16, setStatusOverSendError);
        Deployment deployment = new Deployment(null, "/", settings, NonBlockingRoutes.NONE,
                new BaseUris("/", false), new HeaderText(null), null, true);
        return new ResponseWriter(exchange, deployment, workers, new SuspendedWriters(), nonBlocking);
    }

    private ResponseWriter writer() {
        return writer(false, false);
    }

    private static ContainerResponse response(Response response) {
        ContainerRequest request = new ContainerRequest(URI.create("http://h/"), URI.create("http://h/x"), "GET",
                null, new MapPropertiesDelegate(), new ResourceConfig());
        return new ContainerResponse(request, response);
    }

    private static void write(OutputStream out, String text) throws IOException {
        out.write(text.getBytes(StandardCharsets.UTF_8));
    }

    @Test
    void smallKnownLengthIsHandedOverOnceAtCommit() throws IOException {
        ResponseWriter writer = writer();
        OutputStream out = writer.writeResponseStatusAndHeaders(5,
                response(Response.status(201).header("X-Name", "v1").header("X-Name", "v2").build()));
        write(out, "hello");
        out.flush();
        assertEquals(0, exchange.responds, "nothing is handed over before commit");
        writer.commit();
        writer.commit();
        assertEquals(1, exchange.responds);
        assertEquals(201, exchange.status);
        assertEquals("hello", exchange.bodyText());
        assertEquals(List.of("v1", "v2"), exchange.responseFields.getAll("X-Name"));
    }

    /** A response whose entity went through a stream someone installed ({@link LengthBuffer.Relayed}). */
    private static ContainerResponse relayed(Response response, LengthBuffer.Relayed relayed) {
        ContainerResponse container = response(response);
        container.getRequestContext().setProperty(ExchangeProperties.HELD, relayed);
        return container;
    }

    @Test
    void anEntityWrittenThroughAnotherStreamIsHeldToLearnItsLength() throws IOException {
        ResponseWriter writer = writer();
        OutputStream out = writer.writeResponseStatusAndHeaders(-1,
                relayed(Response.ok().build(), new LengthBuffer.Relayed(8)));
        write(out, "12345");
        write(out, "678");
        out.flush();
        out.close();
        assertEquals(0, exchange.responds, "held until commit");
        writer.commit();
        assertEquals(1, exchange.responds);
        assertEquals("12345678", exchange.bodyText());
    }

    @Test
    void anEntityWrittenThroughAnotherStreamIsStreamedOnceItOutgrowsTheBuffer() throws IOException {
        ResponseWriter writer = writer();
        OutputStream out = writer.writeResponseStatusAndHeaders(-1,
                relayed(Response.ok().build(), new LengthBuffer.Relayed(8)));
        write(out, "12345");
        write(out, "6789");
        assertEquals(-1, exchange.streamedLength, "chunked from the write that outgrew the buffer");
        out.close();
        writer.commit();
        assertTrue(exchange.streamClosed);
        assertEquals("123456789", exchange.streamed.toString(StandardCharsets.UTF_8));
        assertEquals(0, exchange.responds);
    }

    @Test
    void aBrokenEntityWrittenThroughAnotherStreamIsA500WhenHeldAndCutWhenStreamed() throws IOException {
        LengthBuffer.Relayed held = new LengthBuffer.Relayed(8);
        ResponseWriter writer = writer();
        OutputStream out = writer.writeResponseStatusAndHeaders(-1, relayed(Response.ok().build(), held));
        write(out, "12345");
        held.markBroken();
        out.close();
        writer.commit();
        assertEquals(500, exchange.status);
        assertFalse(exchange.bodyText().contains("12345"));

        FakeExchange other = new FakeExchange();
        LengthBuffer.Relayed streamed = new LengthBuffer.Relayed(8);
        ResponseWriter big = new ResponseWriter(other, new Deployment(null, "/", Settings.from(Map.of()),
                NonBlockingRoutes.NONE, new BaseUris("/", false), new HeaderText(null), null, true), workers,
                new SuspendedWriters(), false);
        OutputStream bigOut = big.writeResponseStatusAndHeaders(-1, relayed(Response.ok().build(), streamed));
        write(bigOut, "123456789");
        streamed.markBroken();
        bigOut.close();
        big.commit();
        assertTrue(other.aborted, "cut, not ended as if whole");
    }

    @Test
    void unknownOrLargeLengthIsStreamed() throws IOException {
        ResponseWriter writer = writer();
        OutputStream out = writer.writeResponseStatusAndHeaders(-1, response(Response.ok().build()));
        assertEquals(-1, exchange.streamedLength);
        write(out, "part");
        writer.commit();
        assertTrue(exchange.streamClosed);
        assertEquals("part", exchange.streamed.toString(StandardCharsets.UTF_8));

        FakeExchange other = new FakeExchange();
        ResponseWriter big = new ResponseWriter(other, new Deployment(null, "/", Settings.from(Map.of()),
                NonBlockingRoutes.NONE, new BaseUris("/", false), new HeaderText(null), null, true), workers, new SuspendedWriters(), false);
        big.writeResponseStatusAndHeaders(ResponseWriter.BUFFERED_LIMIT + 1, response(Response.ok().build()));
        assertEquals(ResponseWriter.BUFFERED_LIMIT + 1, other.streamedLength);
    }

    @Test
    void headWithKnownLengthKeepsTheLengthAndSendsNoBody() {
        exchange.method = "HEAD";
        ResponseWriter writer = writer();
        writer.writeResponseStatusAndHeaders(12, response(Response.ok().build()));
        writer.commit();
        assertEquals("12", exchange.responseFields.get("Content-Length"));
        assertEquals(0, exchange.body.length);
    }

    @Test
    void failureBeforeAnythingWasSentAnswers500AndRethrows() throws IOException {
        ResponseWriter writer = writer();
        write(writer.writeResponseStatusAndHeaders(5, response(Response.ok().build())), "hello");
        IllegalStateException error = new IllegalStateException("boom");
        assertThrows(IllegalStateException.class, () -> writer.failure(error));
        assertEquals(500, exchange.status);
        assertEquals("Request failed.\n", exchange.bodyText());
        writer.commit();
        assertEquals(1, exchange.responds, "commit after failure does nothing");
        write(writer.writeResponseStatusAndHeaders(3, response(Response.ok().build())), "late");
        writer.commit();
        assertEquals(1, exchange.responds, "a second write after failure goes nowhere");
        assertFalse(exchange.aborted);
    }

    @Test
    void failureWithSetStatusOverSendErrorAnswersABare500() {
        ResponseWriter writer = writer(true, false);
        assertThrows(ContainerException.class, () -> writer.failure(new IOException("checked")));
        assertEquals(500, exchange.status);
        assertEquals(0, exchange.body.length);
    }

    @Test
    void failureAfterTheHeadWentOutAbortsTheConnection() {
        ResponseWriter writer = writer();
        writer.writeResponseStatusAndHeaders(-1, response(Response.ok().build()));
        assertThrows(IllegalStateException.class, () -> writer.failure(new IllegalStateException("late")));
        assertTrue(exchange.aborted);
        assertEquals(0, exchange.responds);
    }

    @Test
    void responseLeftOpenByJerseyIsCompleted() {
        writer().afterHandle(null);
        assertEquals(500, exchange.status);
    }

    @Test
    void suspendedResponseIsLeftOpen() {
        ResponseWriter writer = writer();
        assertTrue(writer.suspend(0, TimeUnit.SECONDS, w -> { }));
        writer.afterHandle(null);
        assertEquals(0, exchange.responds);
        assertTrue(exchange.timers.isEmpty(), "timeout <= 0 arms no timer");
    }

    @Test
    void suspendTwiceIsRefusedAndSetTimeoutNeedsSuspend() {
        ResponseWriter writer = writer();
        assertThrows(IllegalStateException.class, () -> writer.setSuspendTimeout(1, TimeUnit.SECONDS));
        assertTrue(writer.suspend(0, TimeUnit.SECONDS, null));
        assertFalse(writer.suspend(0, TimeUnit.SECONDS, null));
    }

    @Test
    void commitCancelsTheTimer() {
        ResponseWriter writer = writer();
        writer.suspend(10, TimeUnit.SECONDS, w -> { });
        assertEquals(1, exchange.armedTimers());
        assertEquals(TimeUnit.SECONDS.toNanos(10), exchange.timers.get(0).nanos);
        writer.writeResponseStatusAndHeaders(0, response(Response.ok().build()));
        writer.commit();
        assertTrue(exchange.timers.get(0).cancelled);
        assertEquals(0, exchange.armedTimers());
    }

    @Test
    void failureCancelsTheTimer() {
        ResponseWriter writer = writer();
        writer.suspend(10, TimeUnit.SECONDS, w -> { });
        assertThrows(IllegalStateException.class, () -> writer.failure(new IllegalStateException()));
        assertTrue(exchange.timers.get(0).cancelled);
        assertEquals(0, exchange.armedTimers());
    }

    @Test
    void expiryRunsTheHandlerOnAWorker() {
        ResponseWriter writer = writer();
        List<ContainerResponseWriter> called = new ArrayList<>();
        writer.suspend(5, TimeUnit.MILLISECONDS, called::add);
        exchange.timers.get(0).fire();
        assertTrue(called.isEmpty(), "not on the reactor");
        assertEquals(1, workerTasks.size());
        workerTasks.get(0).run();
        assertEquals(List.of(writer), called);
        assertEquals(0, exchange.armedTimers());
    }

    @Test
    void saturatedWorkersTurnAnExpiryInto503() {
        ResponseWriter writer = writer();
        writer.suspend(5, TimeUnit.MILLISECONDS, w -> { });
        saturated = true;
        exchange.timers.get(0).fire();
        assertEquals(503, exchange.status);
        assertEquals("3", exchange.responseFields.get("Retry-After"));
    }

    @Test
    void setSuspendTimeoutReplacesTheTimerAndStaleExpiriesAreIgnored() {
        ResponseWriter writer = writer();
        List<ContainerResponseWriter> called = new ArrayList<>();
        writer.suspend(60, TimeUnit.SECONDS, called::add);
        writer.setSuspendTimeout(5, TimeUnit.MILLISECONDS);
        assertTrue(exchange.timers.get(0).cancelled);
        assertEquals(1, exchange.armedTimers());
        exchange.timers.get(0).task.run(); // an expiry that raced with the re-arm
        assertTrue(workerTasks.isEmpty());
        exchange.timers.get(1).fire();
        workerTasks.get(0).run();
        assertEquals(1, called.size());
        writer.setSuspendTimeout(0, TimeUnit.SECONDS);
        assertEquals(0, exchange.armedTimers());
    }

    @Test
    void nonBlockingResponsesAreBufferedUpToTheirLimit() throws IOException {
        ResponseWriter writer = writer(false, true);
        OutputStream out = writer.writeResponseStatusAndHeaders(-1, response(Response.ok().build()));
        write(out, "0123456789abcdef");
        assertThrows(IOException.class, () -> write(out, "!"));
        writer.commit();
        assertEquals(500, exchange.status);
        assertTrue(exchange.bodyText().contains("@NonBlocking"));
        assertNull(exchange.responseFields.get("X-Name"));
    }
}
