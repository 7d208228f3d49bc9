package dev.fleche.transport.internal.exchange;

import dev.fleche.transport.internal.loop.Reactor;
import dev.fleche.transport.internal.loop.ScheduledTask;
import dev.fleche.transport.HttpFields;
import dev.fleche.transport.Timeout;

import java.util.concurrent.atomic.AtomicLong;

/**
 * The hop onto a connection's loop, written once for both protocols' connections: a door call from the loop runs
 * at once (no task object: a reactor-answered GET allocates none), from any other thread it is queued to the loop.
 * What a response does once on the loop is the connection's ({@link OnLoop}).
 */
public final class LoopHop {
    /** What a connection does with a response once on its loop. */
    public interface OnLoop {
        /** The whole response of {@code stream}, unless the stream is over. */
        void respondOnLoop(int stream, int status, String reason, HttpFields fields, byte[] body);

        /** A part of the streamed response of {@code stream}, unless the stream is over. */
        void streamPartOnLoop(int stream, ResponseHead head, byte[] data, int length, boolean last);
    }

    private LoopHop() {
    }

    public static Timeout schedule(Reactor reactor, Runnable task, long delayNanos) {
        ScheduledTask scheduled = new ScheduledTask(reactor, task);
        if (reactor.inLoop()) {
            scheduled.arm(reactor.now + delayNanos);
        } else {
            long at = reactor.options.nanoClock().getAsLong() + delayNanos;
            reactor.execute(() -> scheduled.arm(at));
        }
        return scheduled;
    }

    public static void respond(Reactor reactor, OnLoop to, int stream, int status, String reason, HttpFields fields,
            byte[] body) {
        if (reactor.inLoop()) {
            to.respondOnLoop(stream, status, reason, fields, body);
        } else {
            reactor.execute(() -> to.respondOnLoop(stream, status, reason, fields, body));
        }
    }

    public static void streamPart(Reactor reactor, OnLoop to, int stream, ResponseHead head, byte[] data, int length,
            boolean last, AtomicLong handedOver) {
        if (reactor.inLoop()) {
            handedOver.addAndGet(-length);
            to.streamPartOnLoop(stream, head, data, length, last);
        } else {
            reactor.execute(() -> {
                handedOver.addAndGet(-length);
                to.streamPartOnLoop(stream, head, data, length, last);
            });
        }
    }
}
