package dev.fleche.examples.ticker;

import jakarta.ws.rs.GET;
import jakarta.ws.rs.HeaderParam;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.Configuration;
import jakarta.ws.rs.core.Context;
import jakarta.ws.rs.core.HttpHeaders;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.sse.Sse;
import jakarta.ws.rs.sse.SseEventSink;

/**
 * {@code GET /ticks}: a {@code text/event-stream} of ticks. A client that reconnects with {@code Last-Event-ID}
 * (browsers' {@code EventSource} do it on their own) is told where it left off.
 */
@Path("ticks")
public class TickerResource {
    /** The application property holding the {@link Ticker}. */
    static final String TICKER = "ticker.ticker";

    private final Ticker ticker;

    /** One instance per request (the JAX-RS default); the ticker comes from the application's properties. */
    public TickerResource(@Context Configuration config) {
        this.ticker = (Ticker) config.getProperty(TICKER);
    }

    @GET
    @Produces(MediaType.SERVER_SENT_EVENTS)
    public void subscribe(@Context SseEventSink sink, @Context Sse sse,
                          @HeaderParam(HttpHeaders.LAST_EVENT_ID_HEADER) String lastEventId) {
        ticker.subscribe(sse, sink, lastEventId);
    }
}
