package dev.fleche.perf.harness;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * Readings of {@code /proc} (Linux) and of the JDK's {@code jstat}/{@code jcmd} for one server process: CPU
 * time, RSS, threads, GC counts and the heap after a full GC. Every reading that fails returns -1 (the report
 * then shows a blank) rather than failing the run.
 */
final class Proc {
    private static final long CLK_TCK = clockTicks();

    private final Path jdkBin;

    /** @param jdkBin the JDK's bin directory (for jstat and jcmd) */
    Proc(Path jdkBin) {
        this.jdkBin = jdkBin;
    }

    /** utime + stime of {@code pid} in nanoseconds, -1 when unknown (process gone). */
    static long cpuNanos(long pid) {
        String[] f = statFields("/proc/" + pid + "/stat");
        if (f == null) {
            return -1;
        }
        return ticksToNanos(Long.parseLong(f[11]) + Long.parseLong(f[12]));
    }

    /** This JVM's own CPU time plus that of its reaped children (wrk), in nanoseconds. */
    static long selfAndChildrenCpuNanos() {
        String[] f = statFields("/proc/self/stat");
        if (f == null) {
            return -1;
        }
        return ticksToNanos(Long.parseLong(f[11]) + Long.parseLong(f[12]) + Long.parseLong(f[13])
                + Long.parseLong(f[14]));
    }

    /** The whole box's busy CPU time (all CPUs, idle and iowait excluded), in nanoseconds. */
    static long boxBusyNanos() {
        try {
            String line = Files.readAllLines(Path.of("/proc/stat"), StandardCharsets.US_ASCII).get(0);
            String[] f = line.trim().split("\\s+");
            long busy = 0;
            for (int i = 1; i < f.length && i <= 8; i++) {
                if (i != 4 && i != 5) { // idle, iowait
                    busy += Long.parseLong(f[i]);
                }
            }
            return ticksToNanos(busy);
        } catch (IOException | RuntimeException e) {
            return -1;
        }
    }

    /** VmRSS in KiB, -1 when unknown. */
    static long rssKb(long pid) {
        return statusField(pid, "VmRSS:");
    }

    /** VmHWM, the peak RSS so far, in KiB; -1 when unknown. */
    static long rssPeakKb(long pid) {
        return statusField(pid, "VmHWM:");
    }

    /** Threads of the process, -1 when unknown. */
    static long threads(long pid) {
        return statusField(pid, "Threads:");
    }

    static double loadAverage() {
        try {
            return Double.parseDouble(Files.readString(Path.of("/proc/loadavg")).split(" ")[0]);
        } catch (IOException | RuntimeException e) {
            return -1;
        }
    }

    /** GC collections and total GC time (ms) so far, from {@code jstat -gc}; {-1, -1} when unavailable. */
    long[] gc(long pid) {
        Map<String, String> m = jstat(pid);
        if (m == null) {
            return new long[] {-1, -1};
        }
        long count = num(m, "YGC") + num(m, "FGC") + Math.max(0, num(m, "CGC"));
        double gct = Double.parseDouble(m.getOrDefault("GCT", "0"));
        return new long[] {count, Math.round(gct * 1000)};
    }

    /** Heap used in KiB right after a full GC ({@code jcmd GC.run}, then {@code jstat -gc}); -1 when unavailable. */
    long heapAfterGcKb(long pid) {
        if (run(List.of(jdkBin.resolve("jcmd").toString(), Long.toString(pid), "GC.run"), 60) == null) {
            return -1;
        }
        Map<String, String> m = jstat(pid);
        if (m == null) {
            return -1;
        }
        double kb = 0;
        for (String c : new String[] {"S0U", "S1U", "EU", "OU"}) {
            kb += Double.parseDouble(m.getOrDefault(c, "0"));
        }
        return Math.round(kb);
    }

    private Map<String, String> jstat(long pid) {
        String out = run(List.of(jdkBin.resolve("jstat").toString(), "-gc", Long.toString(pid)), 30);
        if (out == null) {
            return null;
        }
        String[] lines = out.trim().split("\n");
        if (lines.length < 2) {
            return null;
        }
        String[] names = lines[0].trim().split("\\s+");
        String[] values = lines[1].trim().split("\\s+");
        Map<String, String> m = new HashMap<>();
        for (int i = 0; i < Math.min(names.length, values.length); i++) {
            m.put(names[i], values[i].equals("-") ? "-1" : values[i]);
        }
        return m;
    }

    private static long num(Map<String, String> m, String key) {
        try {
            return (long) Double.parseDouble(m.getOrDefault(key, "0"));
        } catch (NumberFormatException e) {
            return 0;
        }
    }

    /** Runs a command, returns its stdout, or null when it failed or took longer than {@code seconds}. */
    static String run(List<String> command, long seconds) {
        try {
            Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
            byte[] out = p.getInputStream().readAllBytes();
            if (!p.waitFor(seconds, TimeUnit.SECONDS) || p.exitValue() != 0) {
                p.destroyForcibly();
                return null;
            }
            return new String(out, StandardCharsets.UTF_8);
        } catch (IOException e) {
            return null;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return null;
        }
    }

    private static long statusField(long pid, String name) {
        try {
            for (String line : Files.readAllLines(Path.of("/proc/" + pid + "/status"), StandardCharsets.US_ASCII)) {
                if (line.startsWith(name)) {
                    return Long.parseLong(line.substring(name.length()).trim().split("\\s+")[0]);
                }
            }
        } catch (IOException | RuntimeException e) {
            return -1;
        }
        return -1;
    }

    /** The fields of a /proc stat line after the command name (field 3 "state" is index 0). */
    private static String[] statFields(String file) {
        try {
            String s = Files.readString(Path.of(file), StandardCharsets.US_ASCII);
            return s.substring(s.lastIndexOf(')') + 2).trim().split("\\s+");
        } catch (IOException | RuntimeException e) {
            return null;
        }
    }

    private static long ticksToNanos(long ticks) {
        return ticks * (1_000_000_000L / CLK_TCK);
    }

    private static long clockTicks() {
        String out = run(List.of("getconf", "CLK_TCK"), 10);
        try {
            return out == null ? 100 : Long.parseLong(out.trim());
        } catch (NumberFormatException e) {
            return 100;
        }
    }

    static List<String> split(String command) {
        return new ArrayList<>(Arrays.asList(command.trim().split("\\s+")));
    }
}
