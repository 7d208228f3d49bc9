package dev.fleche.examples.ticker;

import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.sse.OutboundSseEvent;
import jakarta.ws.rs.sse.Sse;
import jakarta.ws.rs.sse.SseBroadcaster;
import jakarta.ws.rs.sse.SseEventSink;

import java.time.Duration;
import java.time.Instant;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.ReentrantLock;

/**
 * One broadcaster and one scheduler thread: every interval, event {@code tick} with the next number as its id
 * goes to every subscribed sink. Started by the first subscriber (the {@link Sse} comes with a request); a sink
 * whose client left is dropped by the broadcaster.
 */
final class Ticker implements AutoCloseable {
    private final Duration interval;
    private final AtomicLong ticks = new AtomicLong();
    private final ReentrantLock lock = new ReentrantLock();
    private Sse sse;
    private SseBroadcaster broadcaster;
    private ScheduledExecutorService scheduler;
    private boolean closed;

    Ticker(Duration interval) {
        this.interval = interval;
    }

    /** Subscribes {@code sink}: a {@code welcome} event (or {@code resumed}, after a reconnect) then the ticks. */
    void subscribe(Sse requestSse, SseEventSink sink, String lastEventId) {
        SseBroadcaster target = start(requestSse);
        long now = ticks.get();
        OutboundSseEvent first = lastEventId == null
                ? requestSse.newEventBuilder().name("welcome").data("tick " + now).build()
                : requestSse.newEventBuilder().name("resumed").data("after tick " + lastEventId + ", now tick " + now)
                        .build();
        sink.send(first); // starts the stream: head, first event and heartbeats go out now
        target.register(sink);
    }

    private SseBroadcaster start(Sse requestSse) {
        lock.lock();
        try {
            if (closed) {
                throw new IllegalStateException("ticker stopped");
            }
            if (broadcaster == null) {
                sse = requestSse;
                broadcaster = requestSse.newBroadcaster();
                scheduler = Executors.newSingleThreadScheduledExecutor(task -> {
                    Thread thread = new Thread(task, "ticker");
                    thread.setDaemon(true);
                    return thread;
                });
                long millis = interval.toMillis();
                scheduler.scheduleAtFixedRate(this::tick, millis, millis, TimeUnit.MILLISECONDS);
            }
            return broadcaster;
        } finally {
            lock.unlock();
        }
    }

    private void tick() {
        long n = ticks.incrementAndGet();
        broadcaster.broadcast(sse.newEventBuilder()
                .name("tick")
                .id(Long.toString(n))
                .mediaType(MediaType.APPLICATION_JSON_TYPE)
                .data(String.class, "{\"tick\":" + n + ",\"time\":\"" + Instant.now() + "\"}")
                .build());
    }

    @Override
    public void close() {
        lock.lock();
        try {
            closed = true;
            if (scheduler != null) {
                scheduler.shutdownNow();
                broadcaster.close();
            }
        } finally {
            lock.unlock();
        }
    }
}
