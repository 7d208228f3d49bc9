package dev.fleche.perf.app;

import jakarta.ws.rs.GET;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.Context;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.sse.Sse;
import jakarta.ws.rs.sse.SseBroadcaster;
import jakarta.ws.rs.sse.SseEventSink;

import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;

/**
 * Server-sent events through one {@link SseBroadcaster}, the Jakarta REST way to send the same event to many
 * clients (a ticker, a chat room):
 *
 * <table>
 *   <caption>Endpoints</caption>
 *   <tr><td>{@code GET /sse}</td><td>{@code text/event-stream}: subscribes to the broadcaster; the stream stays open
 *       and carries every later broadcast</td></tr>
 *   <tr><td>{@code GET /sse/subscribers}</td><td>how many streams are subscribed (text): registered, minus those the
 *       broadcaster reported closed</td></tr>
 *   <tr><td>{@code POST /sse/broadcast}</td><td>sends one event, {@link EventData#of data} {@code <number> <µs>}, to
 *       every subscriber; answers how many subscribers there are (text)</td></tr>
 * </table>
 *
 * <p>The harness posts one broadcast per second (the pace of a ticker); how the event reaches each stream (at once,
 * or through an executor) is the implementation's own. A class of its own so that the {@code @NonBlocking} variant
 * of {@link BenchResource} does not cover it (streams do not suit the reactor). The broadcaster is created once,
 * from the first request's {@link Sse}.
 */
@Path("sse")
public class SseResource {
    private static final AtomicInteger SUBSCRIBERS = new AtomicInteger();
    private static final AtomicLong SENT = new AtomicLong();
    private static final AtomicReference<SseBroadcaster> BROADCASTER = new AtomicReference<>();

    @GET
    @Produces(MediaType.SERVER_SENT_EVENTS)
    public void subscribe(@Context SseEventSink sink, @Context Sse sse) {
        broadcaster(sse).register(sink);
        SUBSCRIBERS.incrementAndGet();
    }

    @GET
    @Path("subscribers")
    @Produces(MediaType.TEXT_PLAIN)
    public String subscribers() {
        return Integer.toString(SUBSCRIBERS.get());
    }

    @POST
    @Path("broadcast")
    @Produces(MediaType.TEXT_PLAIN)
    public String broadcast(@Context Sse sse) {
        broadcaster(sse).broadcast(sse.newEvent(EventData.of(SENT.incrementAndGet())));
        return Integer.toString(SUBSCRIBERS.get());
    }

    /** The one broadcaster: a plain read once it exists, no lock on the subscribe path. */
    private static SseBroadcaster broadcaster(Sse sse) {
        SseBroadcaster current = BROADCASTER.get();
        if (current != null) {
            return current;
        }
        SseBroadcaster created = sse.newBroadcaster();
        created.onClose(sink -> SUBSCRIBERS.decrementAndGet());
        if (!BROADCASTER.compareAndSet(null, created)) {
            created.close(); // another request's won; this one never had a sink
            return BROADCASTER.get();
        }
        return created;
    }
}
