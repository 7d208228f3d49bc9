package dev.fleche.async;

import dev.fleche.jersey.ClientConnection;
import dev.fleche.jersey.FlecheProperties;
import dev.fleche.transport.ServerOptions;
import dev.fleche.transport.testing.RawHttp;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.HeaderParam;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.container.ContainerRequestContext;
import jakarta.ws.rs.core.Context;
import jakarta.ws.rs.core.HttpHeaders;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.sse.Sse;
import jakarta.ws.rs.sse.SseBroadcaster;
import jakarta.ws.rs.sse.SseEventSink;
import org.glassfish.jersey.media.sse.OutboundEvent;
import org.glassfish.jersey.server.ResourceConfig;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.io.Flushable;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Server-sent events through Jersey's {@code SseEventSink} on Fleche: each event is on the wire when it is sent
 * (the resource waits for the client's acknowledgement before producing the next), the head goes out on
 * {@code flush()}, a departed client's sink closes on the next send (which fails, nothing thrown) and is dropped by
 * the broadcaster, heartbeats are comments
 * on the reactor timer that stop with the stream, and {@code Last-Event-ID} reaches the resource.
 */
class SseTest extends AsyncJerseyTest {
    /**
     * The server's clock: heartbeats beat only when the test moves it, so each test can tell a beat due after its
     * interval from one that came early. Static, as JerseyTest configures the deployment from its constructor.
     */
    static final AtomicLong CLOCK = new AtomicLong();
    static final BlockingQueue<Integer> ACKS = new LinkedBlockingQueue<>();
    static final List<String> PROBLEMS = new CopyOnWriteArrayList<>();
    static final ConcurrentHashMap<String, SseEventSink> SINKS = new ConcurrentHashMap<>();
    /** Counted down when the transport has seen the named client leave. */
    static final ConcurrentHashMap<String, CountDownLatch> DEPARTED = new ConcurrentHashMap<>();
    static volatile CountDownLatch headSent = new CountDownLatch(1);
    static volatile CompletableFuture<SseEventSink> dropped = new CompletableFuture<>();
    /** Keeps the sink under {@code name}, and a latch counted down when the transport sees its client leave. */
    static void remember(String name, SseEventSink sink, ContainerRequestContext request) {
        SINKS.put(name, sink);
        CountDownLatch departed = new CountDownLatch(1);
        DEPARTED.put(name, departed);
        ((ClientConnection) request.getProperty(FlecheProperties.CONNECTION)).onDisconnect(departed::countDown);
    }

    /** The broadcaster of this test class and the {@link Sse} it came from, made by the first subscriber. */
    static volatile SseBroadcaster broadcaster;
    static volatile Sse broadcastSse;

    @Path("sse")
    public static class Resource {
        @GET
        @Path("acked")
        @Produces(MediaType.SERVER_SENT_EVENTS)
        @SseHeartbeat(0) // this test reads events only
        public void acked(@Context SseEventSink sink, @Context Sse sse, @QueryParam("n") int n) throws Exception {
            ((Flushable) sink).flush(); // the head, before any event
            headSent.countDown();
            if (!awaitAck(0)) {
                return;
            }
            for (int i = 1; i <= n; i++) {
                sink.send(sse.newEventBuilder().id(Integer.toString(i)).data("event " + i).build());
                if (!awaitAck(i)) {
                    break;
                }
            }
            sink.close();
        }

        private static boolean awaitAck(int expected) throws InterruptedException {
            Integer ack = ACKS.poll(5, TimeUnit.SECONDS);
            if (ack == null || ack != expected) {
                PROBLEMS.add("no acknowledgement of " + expected + " within 5 s (got " + ack + ")");
                return false;
            }
            return true;
        }

        @GET
        @Path("broadcast")
        @Produces(MediaType.SERVER_SENT_EVENTS)
        @SseHeartbeat(0) // this test reads events only
        public void broadcast(@Context SseEventSink sink, @Context Sse sse, @QueryParam("name") String name,
                              @Context ContainerRequestContext request) {
            remember(name, sink, request);
            broadcaster(sse).register(sink); // before the hello: a client that read it is subscribed
            sink.send(sse.newEvent("hello " + name));
        }

        @GET
        @Path("heartbeat")
        @Produces(MediaType.SERVER_SENT_EVENTS)
        @SseHeartbeat(value = 30, unit = TimeUnit.MILLISECONDS)
        public void heartbeat(@Context SseEventSink sink, @Context Sse sse, @Context ContainerRequestContext request) {
            remember("heartbeat", sink, request);
            sink.send(sse.newEvent("started"));
        }

        @GET
        @Path("default-heartbeat")
        @Produces(MediaType.SERVER_SENT_EVENTS)
        public void defaultHeartbeat(@Context SseEventSink sink, @Context Sse sse) {
            SINKS.put("default", sink);
            sink.send(sse.newEvent("started"));
        }

        @GET
        @Path("no-heartbeat")
        @Produces(MediaType.SERVER_SENT_EVENTS)
        @SseHeartbeat(0)
        public void noHeartbeat(@Context SseEventSink sink, @Context Sse sse) {
            SINKS.put("none", sink);
            sink.send(sse.newEvent("started"));
        }

        @GET
        @Path("resume")
        @Produces(MediaType.SERVER_SENT_EVENTS)
        @SseHeartbeat(0) // this test reads events only
        public void resume(@Context SseEventSink sink, @Context Sse sse,
                           @HeaderParam(HttpHeaders.LAST_EVENT_ID_HEADER) String lastEventId)
                throws IOException { // SseEventSink.close() throws it in Jakarta REST 4.0
            sink.send(sse.newEventBuilder().name("resumed").data(String.valueOf(lastEventId)).build());
            sink.close();
        }
    }

    private static synchronized SseBroadcaster broadcaster(Sse sse) {
        if (broadcaster == null) {
            broadcastSse = sse;
            broadcaster = sse.newBroadcaster();
            broadcaster.onError((sink, error) -> dropped.complete(sink));
        }
        return broadcaster;
    }

    @Override
    protected ResourceConfig application() {
        return new ResourceConfig(Resource.class)
                .property(FlecheAsyncFeature.SSE_HEARTBEAT, "40")
                .property(FlecheProperties.SERVER_OPTIONS, ServerOptions.builder().nanoClock(CLOCK::get).build());
    }

    @BeforeEach
    void clear() {
        ACKS.clear();
        PROBLEMS.clear();
        SINKS.clear();
        headSent = new CountDownLatch(1);
        dropped = new CompletableFuture<>();
        synchronized (SseTest.class) {
            broadcaster = null; // each test has its own application
        }
    }

    /** The lines of the next event: up to the blank line; comments ({@code :...}) count as lines too. */
    private static List<String> readEvent(RawHttp client) throws IOException {
        List<String> lines = new ArrayList<>();
        for (String line = client.readBodyLine(); line != null && !line.isEmpty(); line = client.readBodyLine()) {
            lines.add(line);
        }
        return lines;
    }

    @Test
    void eachEventIsOnTheWireBeforeTheNextIsProduced() throws Exception {
        try (RawHttp client = new RawHttp(port())) {
            client.get("/sse/acked?n=5");
            RawHttp.Response head = client.readHead();
            assertEquals(200, head.status());
            assertTrue(head.header("content-type").startsWith("text/event-stream"));
            assertEquals("chunked", head.header("transfer-encoding"));
            ACKS.add(0);
            for (int i = 1; i <= 5; i++) {
                assertEquals(List.of("id: " + i, "data: event " + i), readEvent(client));
                ACKS.add(i);
            }
            assertNull(client.readBodyLine(), "the stream ended after the last event");
        }
        assertEquals(List.of(), PROBLEMS);
        Await.until("no timer left", () -> container().armedTimers() == 0);
    }

    @Test
    void aClientThatLeavesClosesItsSinkAndTheBroadcasterDropsIt() throws Exception {
        RawHttp leaving = new RawHttp(port());
        try (RawHttp staying = new RawHttp(port())) {
            leaving.get("/sse/broadcast?name=leaving");
            staying.get("/sse/broadcast?name=staying");
            assertEquals(200, leaving.readHead().status());
            assertEquals(200, staying.readHead().status());
            assertEquals(List.of("data: hello leaving"), readEvent(leaving));
            assertEquals(List.of("data: hello staying"), readEvent(staying));
            SseEventSink leavingSink = SINKS.get("leaving");
            assertFalse(leavingSink.isClosed());

            leaving.reset(); // leaving: a FIN after a whole request is now a half-close (the server still answers it), a reset is a departure
            assertTrue(DEPARTED.get("leaving").await(5, TimeUnit.SECONDS), "the transport saw the client leave");
            broadcaster.broadcast(broadcastSse.newEvent("after"));
            assertEquals(List.of("data: after"), readEvent(staying));
            Await.until("the send that failed closed the sink", leavingSink::isClosed);
            broadcaster.broadcast(broadcastSse.newEvent("again"));
            assertEquals(List.of("data: again"), readEvent(staying));
            assertTrue(dropped.get(5, TimeUnit.SECONDS) == leavingSink, "the broadcaster dropped the closed sink");
            assertFalse(SINKS.get("staying").isClosed());
            SINKS.get("staying").close();
            assertNull(staying.readBodyLine(), "closing the sink ends the response");
        }
        Await.until("no timer left", () -> container().armedTimers() == 0);
    }

    private static void advance(long millis) {
        CLOCK.addAndGet(TimeUnit.MILLISECONDS.toNanos(millis));
    }

    /** The next heartbeat is armed; none arrives 1 ms before its interval, one arrives at it. */
    private void nextBeatAfter(RawHttp client, long intervalMillis, int i) throws Exception {
        Await.until("heartbeat " + i + " armed", () -> container().armedTimers() == 1);
        advance(intervalMillis - 1);
        client.setReadTimeout(150);
        assertTrue(client.readsNothing(), "heartbeat " + i + " came before its " + intervalMillis + " ms interval");
        client.setReadTimeout(RawHttp.DEFAULT_TIMEOUT_MILLIS);
        advance(1);
        assertEquals(List.of(": heartbeat"), readEvent(client), "heartbeat " + i);
    }

    private void heartbeats(String path, String sinkName, long intervalMillis) throws Exception {
        try (RawHttp client = new RawHttp(port())) {
            client.get(path);
            assertEquals(200, client.readHead().status());
            assertEquals(List.of("data: started"), readEvent(client));
            for (int i = 0; i < 3; i++) {
                nextBeatAfter(client, intervalMillis, i);
            }
            Await.until("a heartbeat timer armed", () -> container().armedTimers() == 1);
            SINKS.get(sinkName).close();
            assertNull(client.readBodyLine(), "the stream ended");
        }
        Await.until("the heartbeat timer was cancelled with the sink", () -> container().armedTimers() == 0);
    }

    @Test
    void heartbeatsFromTheAnnotation() throws Exception {
        heartbeats("/sse/heartbeat", "heartbeat", 30); // @SseHeartbeat(30 ms)
    }

    @Test
    void heartbeatsFromTheApplicationProperty() throws Exception {
        heartbeats("/sse/default-heartbeat", "default", 40); // the application's 40 ms
    }

    @Test
    void heartbeatsStopWhenTheClientLeaves() throws Exception {
        RawHttp client = new RawHttp(port());
        client.get("/sse/heartbeat");
        assertEquals(200, client.readHead().status());
        assertEquals(List.of("data: started"), readEvent(client));
        nextBeatAfter(client, 30, 0);
        client.reset();
        assertTrue(DEPARTED.get("heartbeat").await(5, TimeUnit.SECONDS), "the transport saw the client leave");
        Await.until("the heartbeat timer was cancelled", () -> container().armedTimers() == 0);
        SseEventSink sink = SINKS.get("heartbeat");
        CompletableFuture<?> sent = sink.send(new OutboundEvent.Builder().comment("late").build())
                .toCompletableFuture();
        ExecutionException failed = assertThrows(ExecutionException.class, () -> sent.get(5, TimeUnit.SECONDS),
                "a send after the departure completes exceptionally (nothing thrown)");
        assertTrue(sink.isClosed(), "and closes the sink: " + failed.getCause());
    }

    @Test
    void zeroTurnsHeartbeatsOff() throws Exception {
        try (RawHttp client = new RawHttp(port())) {
            client.get("/sse/no-heartbeat");
            assertEquals(200, client.readHead().status());
            assertEquals(List.of("data: started"), readEvent(client));
            assertEquals(0, container().armedTimers(), "no heartbeat timer");
            advance(1_000); // the application default (40 ms) would beat now
            client.setReadTimeout(200);
            assertTrue(client.readsNothing(), "no heartbeat arrived");
            SINKS.get("none").close();
        }
    }

    @Test
    void lastEventIdReachesTheResource() throws Exception {
        try (RawHttp client = new RawHttp(port())) {
            client.send("GET /sse/resume HTTP/1.1\r\nHost: test\r\nAccept: text/event-stream\r\n"
                    + "Last-Event-ID: 41\r\n\r\n");
            assertEquals(200, client.readHead().status());
            assertEquals(List.of("event: resumed", "data: 41"), readEvent(client));
        }
    }
}
