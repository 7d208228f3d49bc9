package dev.fleche.async;

import dev.fleche.jersey.ClientConnection;
import dev.fleche.jersey.FlecheProperties;
import dev.fleche.transport.testing.RawHttp;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.container.ContainerRequestContext;
import jakarta.ws.rs.core.Context;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.sse.Sse;
import jakarta.ws.rs.sse.SseEventSink;
import org.glassfish.jersey.server.ResourceConfig;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * An SSE sink whose client left (issue 17): the next {@code send} returns a stage that completes exceptionally —
 * nothing is thrown at the application — and closing the sink afterwards is quiet.
 */
@Timeout(60)
class SseDepartedClientTest extends AsyncJerseyTest {
    static final CountDownLatch GONE = new CountDownLatch(1);
    static final CompletableFuture<String> OUTCOME = new CompletableFuture<>();

    @Path("departed")
    public static class Events {
        @GET
        @Produces(MediaType.SERVER_SENT_EVENTS)
        public void events(@Context SseEventSink sink, @Context Sse sse, @Context ContainerRequestContext request) {
            ClientConnection connection = (ClientConnection) request.getProperty(FlecheProperties.CONNECTION);
            connection.onDisconnect(GONE::countDown);
            sink.send(sse.newEvent("first"));
            new Thread(() -> OUTCOME.complete(sendAfterDeparture(sink, sse)), "sse-sender").start();
        }
    }

    static String sendAfterDeparture(SseEventSink sink, Sse sse) {
        String outcome;
        try {
            if (!GONE.await(20, TimeUnit.SECONDS)) {
                return "the client never left";
            }
            CompletionStage<?> sent = sink.send(sse.newEvent("second"));
            try {
                sent.toCompletableFuture().get(10, TimeUnit.SECONDS);
                outcome = "send completed normally";
            } catch (ExecutionException failed) {
                outcome = "send failed";
            }
        } catch (RuntimeException e) {
            return "send threw " + e;
        } catch (Exception e) {
            return "interrupted or timed out: " + e;
        }
        try {
            sink.close(); // declared to throw IOException from Jakarta REST 4.0 on
            outcome += ", close quiet";
        } catch (Exception e) {
            outcome += ", close threw " + e;
        }
        return outcome + (sink.isClosed() ? ", closed" : ", open");
    }

    @Override
    protected ResourceConfig application() {
        return new ResourceConfig(Events.class);
    }

    @Test
    void sendAfterTheClientLeftCompletesExceptionallyAndNothingIsThrown() throws Exception {
        try (RawHttp raw = new RawHttp(getBaseUri().getPort())) {
            raw.send("GET /departed HTTP/1.1\r\nHost: h\r\nAccept: text/event-stream\r\n\r\n");
            assertEquals(200, raw.readHead().status());
            assertEquals("data: first", raw.readBodyLine(), "the first event arrived before the client leaves");
            raw.reset(); // leaving: a FIN after a whole request is now a half-close (the server still answers it), a reset is a departure
        }
        assertEquals("send failed, close quiet, closed", OUTCOME.get(40, TimeUnit.SECONDS));
    }
}
