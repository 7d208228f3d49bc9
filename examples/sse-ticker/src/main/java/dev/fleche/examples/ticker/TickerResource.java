package dev.fleche.examples.ticker;

import jakarta.ws.rs.BadRequestException;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.HeaderParam;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.Configuration;
import jakarta.ws.rs.core.Context;
import jakarta.ws.rs.core.HttpHeaders;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import jakarta.ws.rs.sse.Sse;
import jakarta.ws.rs.sse.SseEventSink;

import java.util.regex.Pattern;

/**
 * {@code GET /ticks}: a {@code text/event-stream} of ticks. A client that reconnects with {@code Last-Event-ID}
 * (browsers' {@code EventSource} do it on their own) is told where it left off.
 */
@Path("ticks")
public class TickerResource {
    /** The application property holding the {@link Ticker}. */
    static final String TICKER = "ticker.ticker";
    /** What this stream sends as event ids: tick numbers. */
    private static final Pattern TICK_ID = Pattern.compile("[0-9]{1,18}");

    private final Ticker ticker;

    /** One instance per request (the JAX-RS default); the ticker comes from the application's properties. */
    public TickerResource(@Context Configuration config) {
        this.ticker = (Ticker) config.getProperty(TICKER);
    }

    @GET
    @Produces(MediaType.SERVER_SENT_EVENTS)
    public void subscribe(@Context SseEventSink sink, @Context Sse sse,
                          @HeaderParam(HttpHeaders.LAST_EVENT_ID_HEADER) String lastEventId) {
        if (lastEventId != null && !TICK_ID.matcher(lastEventId).matches()) {
            // Refused before the stream starts, so the client gets a plain 400 rather than an event stream.
            throw new BadRequestException(Response.status(Response.Status.BAD_REQUEST)
                    .type(MediaType.TEXT_PLAIN_TYPE.withCharset("utf-8"))
                    .entity("Last-Event-ID must be the id of a tick (a number), as sent in this stream.\n").build());
        }
        ticker.subscribe(sse, sink, lastEventId);
    }
}
