package dev.fleche.perf.app;

import jakarta.ws.rs.DefaultValue;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.Context;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.sse.Sse;
import jakarta.ws.rs.sse.SseEventSink;

import java.util.concurrent.TimeUnit;

/**
 * {@code GET /sse?count=C&intervalMs=I}: a stream of C events {@code data: Hello, World!}, one every I ms, sent by
 * the shared scheduler, then the stream ends. A class of its own so that the {@code @NonBlocking} variant of
 * {@link BenchResource} does not cover it (streams do not suit the reactor).
 */
@Path("sse")
public class SseResource {

    @GET
    @Produces(MediaType.SERVER_SENT_EVENTS)
    public void events(@QueryParam("count") @DefaultValue("10") int count,
                       @QueryParam("intervalMs") @DefaultValue("100") long intervalMs,
                       @Context SseEventSink sink, @Context Sse sse) {
        int total = Math.max(0, Math.min(count, 1_000_000));
        long interval = Math.max(1, Math.min(intervalMs, 60_000));
        new Stream(sink, sse, total, interval).next();
    }

    /** Sends one event, then schedules the next once the send completed. */
    private static final class Stream {
        private final SseEventSink sink;
        private final Sse sse;
        private final int total;
        private final long intervalMs;
        private int sent;

        Stream(SseEventSink sink, Sse sse, int total, long intervalMs) {
            this.sink = sink;
            this.sse = sse;
            this.total = total;
            this.intervalMs = intervalMs;
        }

        void next() {
            if (sink.isClosed()) {
                return;
            }
            if (sent == total) {
                close();
                return;
            }
            sent++;
            sink.send(sse.newEvent(BenchResource.HELLO)).whenComplete((ok, failure) -> {
                if (failure != null) {
                    close();
                } else {
                    BenchResource.SCHEDULER.schedule(this::next, intervalMs, TimeUnit.MILLISECONDS);
                }
            });
        }

        /** {@code SseEventSink.close()} declares {@code IOException} in Jakarta REST 4.0, nothing in 3.1. */
        private void close() {
            try {
                sink.close();
            } catch (Exception e) {
                // the client is gone: nothing left to close
            }
        }
    }
}
