package dev.fleche.transport.internal;

import dev.fleche.transport.HttpFields;
import dev.fleche.transport.Timeout;

import java.util.concurrent.atomic.AtomicLong;

/**
 * The hop onto a connection's loop, written once for both protocols' connections: a door call from the loop runs
 * at once (no task object: a reactor-answered GET allocates none), from any other thread it is queued to the loop.
 * What a response does once on the loop is the protocol's ({@link #respondOnLoop}, {@link #streamPartOnLoop}).
 */
abstract class LoopDoor extends TimerNode implements ConnectionDoor {
    final Reactor reactor;

    LoopDoor(Reactor reactor) {
        this.reactor = reactor;
    }

    @Override
    public final boolean inLoop() {
        return reactor.inLoop();
    }

    @Override
    public final void execute(Runnable task) {
        reactor.execute(task);
    }

    @Override
    public final Timeout schedule(Runnable task, long delayNanos) {
        ScheduledTask scheduled = new ScheduledTask(reactor, task);
        if (reactor.inLoop()) {
            scheduled.arm(reactor.now + delayNanos);
        } else {
            long at = reactor.options.nanoClock().getAsLong() + delayNanos;
            reactor.execute(() -> scheduled.arm(at));
        }
        return scheduled;
    }

    @Override
    public final void respond(int stream, int status, String reason, HttpFields fields, byte[] body) {
        if (reactor.inLoop()) {
            respondOnLoop(stream, status, reason, fields, body);
        } else {
            reactor.execute(() -> respondOnLoop(stream, status, reason, fields, body));
        }
    }

    @Override
    public final void streamPart(int stream, ResponseHead head, byte[] data, int length, boolean last,
            AtomicLong handedOver) {
        if (reactor.inLoop()) {
            handedOver.addAndGet(-length);
            streamPartOnLoop(stream, head, data, length, last);
        } else {
            reactor.execute(() -> {
                handedOver.addAndGet(-length);
                streamPartOnLoop(stream, head, data, length, last);
            });
        }
    }

    /** On the loop: the whole response of {@code stream}, unless the stream is over. */
    abstract void respondOnLoop(int stream, int status, String reason, HttpFields fields, byte[] body);

    /** On the loop: a part of the streamed response of {@code stream}, unless the stream is over. */
    abstract void streamPartOnLoop(int stream, ResponseHead head, byte[] data, int length, boolean last);
}
