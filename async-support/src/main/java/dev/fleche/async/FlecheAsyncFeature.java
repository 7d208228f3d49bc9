package dev.fleche.async;

import dev.fleche.async.internal.HeartbeatFilter;
import jakarta.ws.rs.RuntimeType;
import jakarta.ws.rs.core.Feature;
import jakarta.ws.rs.core.FeatureContext;

/**
 * The async support of Fleche for one application. Registered automatically through Jersey's auto-discovery
 * when {@code fleche-async-support} is on the class path; with auto-discovery off
 * ({@code jersey.config.disableAutoDiscovery=true}) register it: {@code config.register(FlecheAsyncFeature.class)}.
 *
 * <table>
 *   <caption>Properties</caption>
 *   <tr><th>property</th><th>type</th><th>default</th><th>meaning</th></tr>
 *   <tr><td>{@value #SSE_HEARTBEAT}</td><td>{@link java.time.Duration}, or a string: milliseconds
 *       ({@code 15000}) or ISO-8601 ({@code PT15S})</td><td>none</td><td>heartbeat interval of every SSE
 *       stream of the application (a method's or class's {@link SseHeartbeat} wins)</td></tr>
 * </table>
 *
 * <p>What it adds: SSE heartbeats. Everything else asynchronous (suspend, timeouts, disconnect callbacks,
 * flushing) is the container's and works without it.
 */
public final class FlecheAsyncFeature implements Feature {
    /** Application property: the default SSE heartbeat interval. */
    public static final String SSE_HEARTBEAT = HeartbeatFilter.SSE_HEARTBEAT;

    /** For {@code register(new FlecheAsyncFeature())}, or registered as a class. */
    public FlecheAsyncFeature() {
    }

    @Override
    public boolean configure(FeatureContext context) {
        if (context.getConfiguration().getRuntimeType() != RuntimeType.SERVER) {
            return false;
        }
        if (!context.getConfiguration().isRegistered(HeartbeatFilter.class)) {
            context.register(HeartbeatFilter.class);
        }
        return true;
    }
}
