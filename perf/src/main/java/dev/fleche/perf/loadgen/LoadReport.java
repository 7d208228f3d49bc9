package dev.fleche.perf.loadgen;

import org.HdrHistogram.Histogram;

import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;

/**
 * The outcome of one run. Latencies are in nanoseconds in the histograms; the accessors give milliseconds.
 *
 * @param requests responses counted (CLOSED/OPEN: completed while recording; LONG_POLL: resumed polls; SSE: streams
 *                 subscribed, i.e. their 200 {@code text/event-stream} head arrived; IDLE: first responses)
 * @param seconds the recorded window (CLOSED/OPEN/SSE), or the time the run took
 * @param opened connections that opened and got a good first response (IDLE), else connections set up
 * @param stillOpen IDLE: connections the server had not closed when the hold ended
 * @param events SSE: events received in the measured window
 * @param incomplete SSE: events that never arrived (warm-up's and window's); LONG_POLL: polls never resumed
 * @param resumed LONG_POLL: the count the broadcast answered, summed over cycles
 * @param resumeAllMillis LONG_POLL: the longest time from a broadcast to the last poll it resumed
 * @param fullHandshakes TLS: full handshakes that finished (CLOSED/OPEN: in the recorded window)
 * @param resumedHandshakes TLS: handshakes that resumed an earlier session (same window)
 * @param tlsSession TLS: the protocol and cipher suite negotiated first, e.g. {@code TLSv1.3 TLS_AES_256_GCM_SHA384};
 *                   null without TLS
 * @param latency latency from when each request was due (coordinated-omission corrected in the open loop); SSE:
 *                how late each measured event arrived, from the send time it carries
 * @param service latency from when each request went out (equal to {@code latency} except in the open loop)
 */
public record LoadReport(String description, LoadSpec.Mode mode, long requests, double seconds,
                         long statusErrors, long bodyErrors, long socketErrors, long timeouts, long connectErrors,
                         long dropped, long reconnects, long closedByServer, int opened, int stillOpen,
                         long events, long incomplete, long resumed, double resumeAllMillis,
                         long fullHandshakes, long resumedHandshakes, String tlsSession, Histogram latency, Histogram service, String firstError) {

    /** Errors of every kind. */
    public long errors() {
        return statusErrors + bodyErrors + socketErrors + timeouts + connectErrors + dropped + incomplete;
    }

    /** Responses per second over the recorded window. */
    public double throughput() {
        return seconds > 0 ? requests / seconds : 0;
    }

    /** TLS: full handshakes per second of the recorded window. */
    public double fullHandshakesPerSecond() {
        return seconds > 0 ? fullHandshakes / seconds : 0;
    }

    /** TLS: resumed handshakes per second of the recorded window. */
    public double resumedHandshakesPerSecond() {
        return seconds > 0 ? resumedHandshakes / seconds : 0;
    }

    /** SSE: events per second of the measured window. */
    public double eventsPerSecond() {
        return seconds > 0 ? events / seconds : 0;
    }

    /** The latency at {@code percentile} (0..100) in milliseconds, NaN when nothing was recorded. */
    public double latencyMillis(double percentile) {
        return millis(latency, percentile);
    }

    /** The service time (from the actual send) at {@code percentile} in milliseconds. */
    public double serviceMillis(double percentile) {
        return millis(service, percentile);
    }

    public double maxMillis() {
        return latency.getTotalCount() == 0 ? Double.NaN : latency.getMaxValue() / 1e6;
    }

    private static double millis(Histogram h, double percentile) {
        return h.getTotalCount() == 0 ? Double.NaN : h.getValueAtPercentile(percentile) / 1e6;
    }

    /** The figures as a flat map (for JSON). */
    public Map<String, Object> toMap() {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("mode", mode.name().toLowerCase(Locale.ROOT));
        m.put("description", description);
        m.put("requests", requests);
        m.put("seconds", round(seconds));
        m.put("throughput", round(throughput()));
        m.put("errors", errors());
        m.put("statusErrors", statusErrors);
        m.put("bodyErrors", bodyErrors);
        m.put("socketErrors", socketErrors);
        m.put("timeouts", timeouts);
        m.put("connectErrors", connectErrors);
        m.put("dropped", dropped);
        m.put("reconnects", reconnects);
        m.put("closedByServer", closedByServer);
        m.put("opened", opened);
        m.put("stillOpen", stillOpen);
        m.put("events", events);
        m.put("incomplete", incomplete);
        m.put("resumed", resumed);
        m.put("resumeAllMs", round(resumeAllMillis));
        if (tlsSession != null) {
            m.put("tls", tlsSession);
            m.put("fullHandshakes", fullHandshakes);
            m.put("resumedHandshakes", resumedHandshakes);
        }
        Map<String, Object> lat = new LinkedHashMap<>();
        lat.put("p50", round(latencyMillis(50)));
        lat.put("p90", round(latencyMillis(90)));
        lat.put("p99", round(latencyMillis(99)));
        lat.put("p99.9", round(latencyMillis(99.9)));
        lat.put("max", round(maxMillis()));
        m.put("latencyMs", lat);
        if (mode == LoadSpec.Mode.OPEN) {
            Map<String, Object> svc = new LinkedHashMap<>();
            svc.put("p50", round(serviceMillis(50)));
            svc.put("p99", round(serviceMillis(99)));
            svc.put("p99.9", round(serviceMillis(99.9)));
            m.put("serviceMs", svc);
        }
        m.put("firstError", firstError);
        return m;
    }

    private static Object round(double v) {
        if (Double.isNaN(v) || Double.isInfinite(v)) {
            return null;
        }
        return Math.round(v * 1000) / 1000.0;
    }

    /** A human-readable summary, several lines. */
    public String format() {
        StringBuilder b = new StringBuilder();
        b.append(description).append('\n');
        switch (mode) {
            case CLOSED, OPEN -> b.append(String.format(Locale.ROOT, "  %d responses in %.2f s: %.1f req/s%n",
                    requests, seconds, throughput()));
            case LONG_POLL -> b.append(String.format(Locale.ROOT,
                    "  %d polls resumed (broadcast said %d), all resumed within %.1f ms%n",
                    requests, resumed, resumeAllMillis));
            case SSE -> b.append(String.format(Locale.ROOT,
                    "  %d streams subscribed, %d events in the %.2f s window: %.1f events/s; %d never arrived%n",
                    requests, events, seconds, eventsPerSecond(), incomplete));
            case IDLE -> b.append(String.format(Locale.ROOT,
                    "  %d connections opened with a good response; %d still open at the end%n", opened, stillOpen));
        }
        if (tlsSession != null) {
            b.append(String.format(Locale.ROOT, "  TLS %s: %d full handshakes (%.1f/s), %d resumed (%.1f/s)%n",
                    tlsSession, fullHandshakes, fullHandshakesPerSecond(), resumedHandshakes,
                    resumedHandshakesPerSecond()));
        }
        b.append(String.format(Locale.ROOT,
                "  errors %d (status %d, body %d, socket %d, timeout %d, connect %d, dropped %d, incomplete %d); "
                        + "reconnects %d, closed by server %d%n",
                errors(), statusErrors, bodyErrors, socketErrors, timeouts, connectErrors, dropped, incomplete,
                reconnects, closedByServer));
        b.append(String.format(Locale.ROOT, "  %s ms: p50 %s  p90 %s  p99 %s  p99.9 %s  max %s%n",
                mode == LoadSpec.Mode.SSE ? "event lateness" : "latency", fmt(latencyMillis(50)), fmt(latencyMillis(90)), fmt(latencyMillis(99)), fmt(latencyMillis(99.9)),
                fmt(maxMillis())));
        if (mode == LoadSpec.Mode.OPEN) {
            b.append(String.format(Locale.ROOT, "  service time ms (from the actual send, uncorrected): p50 %s  p99 %s  p99.9 %s%n",
                    fmt(serviceMillis(50)), fmt(serviceMillis(99)), fmt(serviceMillis(99.9))));
        }
        if (firstError != null) {
            b.append("  first error: ").append(firstError).append('\n');
        }
        return b.toString();
    }

    private static String fmt(double ms) {
        if (Double.isNaN(ms)) {
            return "-";
        }
        return ms < 10 ? String.format(Locale.ROOT, "%.3f", ms) : String.format(Locale.ROOT, "%.1f", ms);
    }
}
