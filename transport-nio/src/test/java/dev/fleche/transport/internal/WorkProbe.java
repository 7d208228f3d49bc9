package dev.fleche.transport.internal;

import dev.fleche.transport.internal.loop.Reactor;
import dev.fleche.transport.HttpServer;

import java.lang.reflect.Field;

/**
 * What a running server's HTTP/2 connections did, as work rather than time: frames handled, streams pumped, stream
 * windows changed by SETTINGS — the reactors' internal counters (not in {@code ServerMetrics}), summed. For tests
 * that bound what a client's frames cost; it reaches the reactors through the server's private field (tests run on
 * the class path).
 */
public final class WorkProbe {
    private WorkProbe() {
    }

    /** HTTP/2 frames read and handled, by every connection of {@code server}. */
    public static long http2Frames(HttpServer server) {
        long sum = 0;
        for (Reactor reactor : reactors(server)) {
            sum += reactor.counters().http2Frames;
        }
        return sum;
    }

    /** Times a stream was pumped (asked to send what its windows allow). */
    public static long http2StreamsPumped(HttpServer server) {
        long sum = 0;
        for (Reactor reactor : reactors(server)) {
            sum += reactor.counters().http2StreamsPumped;
        }
        return sum;
    }

    /** Stream send windows changed by a client's SETTINGS_INITIAL_WINDOW_SIZE. */
    public static long http2StreamWindowsChanged(HttpServer server) {
        long sum = 0;
        for (Reactor reactor : reactors(server)) {
            sum += reactor.counters().http2StreamWindowsChanged;
        }
        return sum;
    }

    private static Reactor[] reactors(HttpServer server) {
        try {
            Field field = HttpServer.class.getDeclaredField("reactors");
            field.setAccessible(true);
            return (Reactor[]) field.get(server);
        } catch (ReflectiveOperationException e) {
            throw new AssertionError("HttpServer.reactors", e);
        }
    }
}
