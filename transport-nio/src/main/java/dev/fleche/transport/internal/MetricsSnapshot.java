package dev.fleche.transport.internal;

import dev.fleche.transport.internal.loop.Acceptor;
import dev.fleche.transport.internal.telemetry.Counters;
import dev.fleche.transport.internal.loop.Reactor;
import dev.fleche.transport.internal.rules.Refusal;
import dev.fleche.transport.internal.rules.StaticRule;
import dev.fleche.transport.PemFiles;
import dev.fleche.transport.ServerMetrics;
import dev.fleche.transport.http1.ProtocolRule;
import dev.fleche.transport.internal.telemetry.accesslog.AccessLogWriter;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Sums the reactors' {@link Counters} with the acceptor's and the access log's into one {@link ServerMetrics}.
 * Reads the reactors' plain fields racily: a snapshot taken while the server runs is approximate.
 */
public final class MetricsSnapshot {
    private static final ProtocolRule[] RULES = ProtocolRule.values();
    private static final Refusal[] REFUSALS = Refusal.values();
    private static final StaticRule[] STATIC_RULES = StaticRule.values();

    private MetricsSnapshot() {
    }

    /** The metrics of a server; any argument but {@code open} may be null (not started, no log, no PEM files). */
    public static ServerMetrics of(Reactor[] reactors, int open, Acceptor acceptor, AccessLogWriter accessLog,
                                   PemFiles pem) {
        long accepted = 0, closed = 0, requests = 0, bytesRead = 0, bytesWritten = 0, protocolErrors = 0;
        long timeouts = 0, handlerErrors = 0, ended = 0, http2Connections = 0, http2Resets = 0, queued = 0;
        long[] protocols = new long[Counters.PROTOCOLS.size()];
        long[] classes = new long[Counters.STATUS_CLASSES];
        long[] rules = new long[RULES.length];
        long[] refusals = new long[REFUSALS.length];
        long[] staticRules = new long[STATIC_RULES.length];
        if (reactors != null) {
            for (Reactor reactor : reactors) {
                Counters c = reactor.counters();
                accepted += c.accepted;
                closed += c.closed;
                requests += c.requests;
                bytesRead += c.bytesRead;
                bytesWritten += c.bytesWritten;
                protocolErrors += c.protocolErrors;
                timeouts += c.timeouts;
                handlerErrors += c.handlerErrors;
                ended += c.exchangesEnded;
                http2Connections += c.http2Connections;
                http2Resets += c.http2StreamsReset;
                queued += c.queuedOutputBytes;
                add(protocols, c.requestsByProtocol);
                add(classes, c.statusClasses);
                add(rules, c.protocolRules);
                add(refusals, c.refusals);
                add(staticRules, c.staticRules);
            }
        }
        long overloaded = acceptor == null ? 0 : acceptor.refused();
        refusals[Refusal.OVERLOADED.ordinal()] += overloaded;
        classes[5] += overloaded;
        Map<String, Long> byRule = new LinkedHashMap<>();
        for (ProtocolRule rule : RULES) {
            if (rules[rule.ordinal()] > 0) {
                byRule.put(rule.name(), rules[rule.ordinal()]);
            }
        }
        for (Refusal refusal : REFUSALS) {
            if (refusals[refusal.ordinal()] > 0) {
                byRule.put(refusal.name(), refusals[refusal.ordinal()]);
            }
        }
        for (StaticRule rule : STATIC_RULES) {
            if (staticRules[rule.ordinal()] > 0) {
                byRule.put(rule.name(), staticRules[rule.ordinal()]);
            }
        }
        return new ServerMetrics(open, accepted, overloaded, closed, requests, bytesRead, bytesWritten,
                protocolErrors, timeouts, handlerErrors, classes[1], classes[2], classes[3], classes[4], classes[5],
                byRule, Math.max(0, requests - ended), accessLog == null ? 0 : accessLog.dropped(),
                byProtocol(protocols), http2Connections, http2Resets, pem == null ? 0 : pem.reloads(),
                pem == null ? 0 : pem.reloadFailures(), pem == null ? null : pem.notAfter(),
                Math.max(0, queued));
    }

    private static Map<String, Long> byProtocol(long[] counts) {
        Map<String, Long> byProtocol = new LinkedHashMap<>();
        for (int i = 0; i < counts.length; i++) {
            byProtocol.put(Counters.PROTOCOLS.get(i), counts[i]);
        }
        return byProtocol;
    }

    private static void add(long[] sum, long[] values) {
        for (int i = 0; i < values.length; i++) {
            sum[i] += values[i];
        }
    }
}
