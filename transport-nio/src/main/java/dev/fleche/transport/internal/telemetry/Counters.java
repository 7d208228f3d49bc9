package dev.fleche.transport.internal.telemetry;

import dev.fleche.transport.internal.rules.Refusal;
import dev.fleche.transport.internal.rules.StaticRule;
import dev.fleche.transport.http1.ProtocolRule;

/**
 * One reactor's counters. Written only by the reactor thread (plain fields, no atomics on the hot path); read by
 * others for {@code ServerMetrics} snapshots, which are therefore approximate while the server runs.
 */
public final class Counters {
    /** The protocols {@link #requestsByProtocol} counts, in its order (also {@code ServerMetrics}'s). */
    public static final java.util.List<String> PROTOCOLS = dev.fleche.transport.ServerMetrics.protocols();
    static final int HTTP_1_0 = 0, HTTP_1_1 = 1, HTTP_2 = 2;
    /** Index of a status class in {@link #statusClasses}: {@code status / 100}; 1..5 are counted. */
    public static final int STATUS_CLASSES = 6;

    public long accepted;
    public long closed;
    public long requests;
    /** Requests by protocol, indexed by {@link #HTTP_1_0}, {@link #HTTP_1_1}, {@link #HTTP_2}; they sum to requests. */
    public final long[] requestsByProtocol = new long[PROTOCOLS.size()];
    /** Connections that switched to HTTP/2 (ALPN, prior knowledge, upgrade). */
    public long http2Connections;
    /** HTTP/2 streams reset (RST_STREAM) by the client or by us, but for the NO_ERROR that only stops a body. */
    public long http2StreamsReset;
    public long bytesRead;
    public long bytesWritten;
    public long protocolErrors;
    public long timeouts;
    public long handlerErrors;
    /** Response bytes queued by this reactor's connections and not yet taken by their sockets, now (a gauge). */
    public long queuedOutputBytes;
    // HTTP/2 work, not in ServerMetrics: what a client's frames cost, which tests count instead of time
    /** HTTP/2 frames read and handled. */
    public long http2Frames;
    /** Times an HTTP/2 stream was asked to send what its windows allow (a pump). */
    public long http2StreamsPumped;
    /** HTTP/2 stream send windows changed by a new SETTINGS_INITIAL_WINDOW_SIZE. */
    public long http2StreamWindowsChanged;
    /** Exchanges ended (response done and body read, or connection closed); in flight = requests - this. */
    public long exchangesEnded;
    /** Final response heads framed, by {@code status / 100} (1..5; a handler's 6xx..9xx is in none). */
    public final long[] statusClasses = new long[STATUS_CLASSES];
    /** Refusals by the parser's rules, indexed by {@link ProtocolRule#ordinal()}. */
    public final long[] protocolRules = new long[ProtocolRule.values().length];
    /** The transport's own refusals, indexed by {@link Refusal#ordinal()}. */
    public final long[] refusals = new long[Refusal.values().length];
    /** Static content's refusals, indexed by {@link StaticRule#ordinal()}. */
    public final long[] staticRules = new long[StaticRule.values().length];

    public void responded(int status) {
        int statusClass = status / 100;
        if (statusClass < STATUS_CLASSES) {
            statusClasses[statusClass]++;
        }
    }

    public void refused(ProtocolRule rule) {
        protocolRules[rule.ordinal()]++;
    }

    public void refused(Refusal refusal) {
        refusals[refusal.ordinal()]++;
    }

    public void refused(StaticRule rule) {
        staticRules[rule.ordinal()]++;
    }
}
