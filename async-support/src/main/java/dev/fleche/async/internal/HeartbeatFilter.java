package dev.fleche.async.internal;

import dev.fleche.async.SseHeartbeat;
import dev.fleche.jersey.ClientConnection;
import dev.fleche.jersey.FlecheProperties;
import jakarta.ws.rs.container.ContainerRequestContext;
import jakarta.ws.rs.container.ContainerResponseContext;
import jakarta.ws.rs.container.ContainerResponseFilter;
import jakarta.ws.rs.container.ResourceInfo;
import jakarta.ws.rs.core.Configuration;
import jakarta.ws.rs.core.Context;
import jakarta.ws.rs.sse.SseEventSink;

import java.lang.reflect.Method;
import java.time.Duration;
import java.time.format.DateTimeParseException;

/**
 * Starts a {@link Heartbeat} on each SSE response that asks for one ({@link SseHeartbeat} on the method or class,
 * else {@value #SSE_HEARTBEAT}). A response filter sees the sink as the response entity when
 * the stream starts; requests not served by Fleche (no {@link ClientConnection}) are left alone.
 */
public final class HeartbeatFilter implements ContainerResponseFilter {
    /** The property naming the SSE heartbeat period, {@code FlecheAsyncFeature.SSE_HEARTBEAT}. */
    public static final String SSE_HEARTBEAT = "fleche.async.sse.heartbeat";

    @Context
    private Configuration configuration;
    @Context
    private ResourceInfo resourceInfo;
    /** The application default in nanoseconds (0: none); -1 until read. */
    private volatile long defaultNanos = -1;

    @Override
    public void filter(ContainerRequestContext request, ContainerResponseContext response) {
        Object entity = response.getEntity();
        if (!(entity instanceof SseEventSink)) {
            return;
        }
        long nanos = intervalNanos();
        Object connection = request.getProperty(FlecheProperties.CONNECTION);
        if (nanos > 0 && connection instanceof ClientConnection) {
            new Heartbeat((SseEventSink) entity, (ClientConnection) connection, nanos).start();
        }
    }

    private long intervalNanos() {
        Method method = resourceInfo == null ? null : resourceInfo.getResourceMethod();
        SseHeartbeat annotation = method == null ? null : method.getAnnotation(SseHeartbeat.class);
        if (annotation == null && method != null) {
            annotation = resourceInfo.getResourceClass().getAnnotation(SseHeartbeat.class);
        }
        if (annotation != null) {
            return annotation.unit().toNanos(annotation.value());
        }
        long nanos = defaultNanos;
        if (nanos < 0) {
            nanos = parse(configuration.getProperty(SSE_HEARTBEAT));
            defaultNanos = nanos;
        }
        return nanos;
    }

    /** A {@link Duration}, a number of milliseconds, or an ISO-8601 duration string; null is none. */
    static long parse(Object value) {
        if (value == null) {
            return 0;
        }
        Duration duration;
        if (value instanceof Duration) {
            duration = (Duration) value;
        } else if (value instanceof Number) {
            duration = Duration.ofMillis(((Number) value).longValue());
        } else {
            String text = value.toString().trim();
            try {
                duration = text.chars().allMatch(Character::isDigit) && !text.isEmpty()
                        ? Duration.ofMillis(Long.parseLong(text)) : Duration.parse(text);
            } catch (DateTimeParseException | NumberFormatException e) {
                throw new IllegalArgumentException(SSE_HEARTBEAT
                        + " must be a duration (milliseconds or ISO-8601 such as PT15S), was \"" + text + "\"", e);
            }
        }
        if (duration.isNegative()) {
            throw new IllegalArgumentException(SSE_HEARTBEAT + " must not be negative: " + value);
        }
        return duration.toNanos();
    }
}
