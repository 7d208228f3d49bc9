package dev.fleche.async;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;
import java.util.concurrent.TimeUnit;

/**
 * Sends an SSE comment ({@code : heartbeat}) on the resource's event streams every {@link #value()}
 * {@link #unit()}s while the stream is open, so that proxies and clients do not take an idle stream for a dead
 * one. On a method (or on a class, for all its methods) that produces an SSE stream through an injected
 * {@code SseEventSink}; overrides {@value FlecheAsyncFeature#SSE_HEARTBEAT}. {@code 0} turns heartbeats off.
 *
 * <p>The beat runs on the connection's reactor timer (no thread per stream); the comment is written by a worker
 * thread. The timer is cancelled when the sink closes or the client leaves. Heartbeats start with the stream's
 * response, i.e. at the first event sent (or {@code flush()} of Jersey's sink).
 */
@Documented
@Retention(RetentionPolicy.RUNTIME)
@Target({ElementType.METHOD, ElementType.TYPE})
public @interface SseHeartbeat {

    /** The interval; {@code 0} for none. */
    long value();

    /** The unit of {@link #value()}. */
    TimeUnit unit() default TimeUnit.SECONDS;
}
