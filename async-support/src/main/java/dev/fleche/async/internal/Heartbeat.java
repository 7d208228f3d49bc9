package dev.fleche.async.internal;

import dev.fleche.jersey.ClientConnection;
import jakarta.ws.rs.sse.OutboundSseEvent;
import jakarta.ws.rs.sse.SseEventSink;
import org.glassfish.jersey.media.sse.OutboundEvent;

import java.util.concurrent.TimeUnit;

/**
 * The heartbeat of one SSE stream: a comment every interval, while the sink is open.
 *
 * <pre>
 *   start ─▶ [ARMED on the reactor timer] ─tick─▶ sink closed? ─yes─▶ (end)
 *                 ▲                                   │no
 *                 └──── re-arm ◀── send ": heartbeat" on a worker
 * </pre>
 *
 * The timer belongs to the request's {@link ClientConnection}, so the container cancels it when the response
 * completes (the sink closed, or the client left); re-arming after that arms nothing. One beat is in flight at a
 * time: the next is armed only after the previous comment was written, so a slow client never piles them up.
 */
final class Heartbeat {
    private static final OutboundSseEvent COMMENT = new OutboundEvent.Builder().comment("heartbeat").build();

    private final SseEventSink sink;
    private final ClientConnection connection;
    private final long intervalNanos;

    Heartbeat(SseEventSink sink, ClientConnection connection, long intervalNanos) {
        this.sink = sink;
        this.connection = connection;
        this.intervalNanos = intervalNanos;
    }

    void start() {
        connection.schedule(this::tick, intervalNanos, TimeUnit.NANOSECONDS);
    }

    /** Reactor thread: never writes here (a write could block); hands the beat to a worker. */
    private void tick() {
        if (sink.isClosed() || !connection.isOpen()) {
            return;
        }
        if (!connection.dispatch(this::beat)) {
            start(); // workers saturated: skip this beat
        }
    }

    private void beat() {
        try {
            sink.send(COMMENT);
        } catch (IllegalStateException closed) {
            return;
        }
        if (!sink.isClosed()) {
            start();
        }
    }
}
