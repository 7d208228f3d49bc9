package dev.fleche.perf.loadgen;

import org.HdrHistogram.SingleWriterRecorder;

/**
 * What one {@link Worker} counted. The counters are written by the worker thread only and read by the engine
 * after the worker ended; the two recorders may be read at any time (interval histograms for the log).
 */
final class Stats {
    /** Latency from when each request was due (open loop: coordinated omission corrected), in nanoseconds. */
    final SingleWriterRecorder latency = new SingleWriterRecorder(3);
    /** Latency from when each request actually went out (service time), in nanoseconds. */
    final SingleWriterRecorder service = new SingleWriterRecorder(3);

    long requests;
    long statusErrors;
    long bodyErrors;
    long socketErrors;
    long timeouts;
    long connectErrors;
    long reconnects;
    long dropped;
    long closedByServer;
    /** SSE: events received in the measured window. */
    long events;
    /** TLS: handshakes that finished (while counting), full and resumed. */
    long fullHandshakes;
    long resumedHandshakes;
    /** TLS: the protocol and cipher suite of the first handshake. */
    String tlsSession;
    String firstError;

    void error(String what) {
        if (firstError == null) {
            firstError = what;
        }
    }

    void handshake(boolean resumed, String session) {
        if (resumed) {
            resumedHandshakes++;
        } else {
            fullHandshakes++;
        }
        if (tlsSession == null) {
            tlsSession = session;
        }
    }

    void record(long latencyNanos, long serviceNanos) {
        latency.recordValue(Math.max(0, latencyNanos));
        service.recordValue(Math.max(0, serviceNanos));
    }
}
