package dev.fleche.perf.loadgen;

import org.HdrHistogram.Histogram;
import org.HdrHistogram.HistogramLogWriter;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.util.concurrent.TimeUnit;

/**
 * The HdrHistogram interval log of one run, written by the {@link Engine} to {@link LoadSpec#hlog()}: a header
 * naming the run, then one latency histogram per interval (and, when given, the service-time histogram of the same
 * interval, tagged {@code service}). Nothing is written when the spec names no file.
 */
final class IntervalLog implements AutoCloseable {
    private final PrintStream out;
    private final HistogramLogWriter writer;
    private final long startMillis = System.currentTimeMillis();
    private final long startNanos = System.nanoTime();

    IntervalLog(LoadSpec spec) throws IOException {
        if (spec.hlog() == null) {
            out = null;
            writer = null;
            return;
        }
        if (spec.hlog().getParent() != null) {
            Files.createDirectories(spec.hlog().getParent());
        }
        out = new PrintStream(Files.newOutputStream(spec.hlog()), false, StandardCharsets.US_ASCII);
        writer = new HistogramLogWriter(out);
        writer.outputComment("[" + spec.describe() + "] latency in ns; tag 'service': from the actual send");
        writer.outputLogFormatVersion();
        writer.outputStartTime(startMillis);
        writer.setBaseTime(startMillis);
        writer.outputLegend();
    }

    /** Logs {@code latency} (and {@code service}, tagged, when given) for the interval from {@code fromNanos} to now. */
    void interval(Histogram latency, Histogram service, long fromNanos) {
        if (writer == null) {
            return;
        }
        long start = startMillis + TimeUnit.NANOSECONDS.toMillis(fromNanos - startNanos);
        long end = System.currentTimeMillis();
        latency.setStartTimeStamp(start);
        latency.setEndTimeStamp(end);
        writer.outputIntervalHistogram(latency);
        if (service != null) {
            Histogram tagged = service.copy();
            tagged.setTag("service");
            tagged.setStartTimeStamp(start);
            tagged.setEndTimeStamp(end);
            writer.outputIntervalHistogram(tagged);
        }
    }

    @Override
    public void close() {
        if (out != null) {
            out.close();
        }
    }
}
