package dev.fleche.transport.internal;

import dev.fleche.transport.http1.ProtocolRule;

/**
 * One reactor's counters. Written only by the reactor thread (plain fields, no atomics on the hot path); read by
 * others for {@code ServerMetrics} snapshots, which are therefore approximate while the server runs.
 */
final class Counters {
    /** Index of a status class in {@link #statusClasses}: {@code status / 100}; 1..5 are counted. */
    static final int STATUS_CLASSES = 6;

    long accepted;
    long closed;
    long requests;
    long bytesRead;
    long bytesWritten;
    long protocolErrors;
    long timeouts;
    long handlerErrors;
    /** Exchanges ended (response done and body read, or connection closed); in flight = requests - this. */
    long exchangesEnded;
    /** Final response heads framed, by {@code status / 100} (1..5; a handler's 6xx..9xx is in none). */
    final long[] statusClasses = new long[STATUS_CLASSES];
    /** Refusals by the parser's rules, indexed by {@link ProtocolRule#ordinal()}. */
    final long[] protocolRules = new long[ProtocolRule.values().length];
    /** The transport's own refusals, indexed by {@link Refusal#ordinal()}. */
    final long[] refusals = new long[Refusal.values().length];

    void responded(int status) {
        int statusClass = status / 100;
        if (statusClass < STATUS_CLASSES) {
            statusClasses[statusClass]++;
        }
    }

    void refused(ProtocolRule rule) {
        protocolRules[rule.ordinal()]++;
    }

    void refused(Refusal refusal) {
        refusals[refusal.ordinal()]++;
    }
}
