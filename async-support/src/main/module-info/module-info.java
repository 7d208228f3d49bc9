/**
 * Long polling and SSE helpers for Jersey on Fleche: {@code dev.fleche.async} ({@code FlecheAsyncFeature},
 * {@code LongPollTopic}, {@code @SseHeartbeat}). {@code internal} is not exported. The Jersey {@code requires}
 * are filled in by the build (see the module descriptor of {@code dev.fleche.jersey}).
 */
module dev.fleche.async {
    exports dev.fleche.async;

    // Public signatures name Feature, AsyncResponse and the SSE types.
    requires transitive jakarta.ws.rs;
    requires dev.fleche.jersey;
    requires ${jpms.jersey.common};
    requires ${jpms.jersey.sse};

    // AsyncAutoDiscoverable is found through META-INF/services and instantiated by Jersey reflectively; it registers
    // HeartbeatFilter, which HK2 constructs.
    opens dev.fleche.async.internal;

    provides org.glassfish.jersey.internal.spi.AutoDiscoverable with dev.fleche.async.internal.AsyncAutoDiscoverable;
}
