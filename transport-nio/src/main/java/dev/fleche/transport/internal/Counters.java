package dev.fleche.transport.internal;

/**
 * One reactor's counters. Written only by the reactor thread (plain fields, no atomics on the hot path); read by
 * others for {@code ServerMetrics} snapshots, which are therefore approximate while the server runs.
 */
final class Counters {
    long accepted;
    long closed;
    long requests;
    long bytesRead;
    long bytesWritten;
    long protocolErrors;
    long timeouts;
    long handlerErrors;
}
