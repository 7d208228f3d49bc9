package dev.fleche.perf.soak;

import java.util.ArrayList;
import java.util.List;

/**
 * The server's resources at one moment: open file descriptors, threads, armed timers, heap used after a full GC.
 * {@link #departures} compares a later snapshot with a baseline: each figure must be within
 * {@link #TOLERANCE} of it (with a floor of {@link #MIN_SLACK} for small counts, so that 20 fds may be 21).
 */
record Baseline(long fds, long threads, long timers, long heap) {
    static final double TOLERANCE = 0.05;
    static final long MIN_SLACK = 1;

    /** Parses the control endpoint's {@code timers=N threads=N heap=N} and adds the fd count. */
    static Baseline of(long fds, String stats) {
        long timers = -1;
        long threads = -1;
        long heap = -1;
        for (String part : stats.trim().split(" ")) {
            int eq = part.indexOf('=');
            if (eq < 0) {
                throw new IllegalArgumentException("malformed stats: " + stats);
            }
            long value = Long.parseLong(part.substring(eq + 1));
            switch (part.substring(0, eq)) {
                case "timers" -> timers = value;
                case "threads" -> threads = value;
                case "heap" -> heap = value;
                default -> throw new IllegalArgumentException("unknown stat: " + part);
            }
        }
        if (timers < 0 || threads < 0 || heap < 0) {
            throw new IllegalArgumentException("incomplete stats: " + stats);
        }
        return new Baseline(fds, threads, timers, heap);
    }

    /** What in {@code after} is outside the tolerance around this baseline; empty when all returned. */
    List<String> departures(Baseline after) {
        List<String> out = new ArrayList<>();
        check(out, "fds", fds, after.fds);
        check(out, "threads", threads, after.threads);
        check(out, "timers", timers, after.timers);
        check(out, "heap", heap, after.heap);
        return out;
    }

    private static void check(List<String> out, String name, long before, long after) {
        long slack = Math.max(MIN_SLACK, (long) Math.ceil(before * TOLERANCE));
        if (Math.abs(after - before) > slack) {
            out.add(name + " " + before + " -> " + after + " (more than ±" + slack + ")");
        }
    }

    @Override
    public String toString() {
        return "fds=" + fds + " threads=" + threads + " timers=" + timers + " heap=" + heap;
    }
}
