package dev.fleche.perf.jmh;

import org.openjdk.jmh.infra.BenchmarkParams;
import org.openjdk.jmh.infra.IterationParams;
import org.openjdk.jmh.profile.InternalProfiler;
import org.openjdk.jmh.results.AggregationPolicy;
import org.openjdk.jmh.results.IterationResult;
import org.openjdk.jmh.results.Result;
import org.openjdk.jmh.results.ScalarResult;

import java.lang.management.ManagementFactory;
import java.util.Collection;
import java.util.List;

/**
 * A JMH profiler that reports the CPU time of the whole benchmark process per operation ({@code ·cpu}, ns/op):
 * the benchmark threads plus the JIT compiler and GC threads they keep busy, which is what a server pays per
 * request. Next to the time per operation it shows work done off the measured thread. Use with
 * {@code -prof dev.fleche.perf.jmh.CpuProfiler}.
 */
public final class CpuProfiler implements InternalProfiler {
    private long cpuBefore;

    @Override
    public String getDescription() {
        return "process CPU time per operation (all threads: benchmark, JIT, GC)";
    }

    @Override
    public void beforeIteration(BenchmarkParams benchmarkParams, IterationParams iterationParams) {
        cpuBefore = processCpuNanos();
    }

    @Override
    @SuppressWarnings("rawtypes") // the InternalProfiler signature
    public Collection<? extends Result> afterIteration(BenchmarkParams benchmarkParams,
                                                       IterationParams iterationParams, IterationResult result) {
        long cpu = processCpuNanos() - cpuBefore;
        long ops = result.getMetadata() == null ? 0 : result.getMetadata().getMeasuredOps();
        double perOp = ops > 0 ? (double) cpu / ops : Double.NaN;
        return List.of(new ScalarResult("·cpu", perOp, "ns/op", AggregationPolicy.AVG));
    }

    private static long processCpuNanos() {
        java.lang.management.OperatingSystemMXBean os = ManagementFactory.getOperatingSystemMXBean();
        if (os instanceof com.sun.management.OperatingSystemMXBean sun) {
            return sun.getProcessCpuTime();
        }
        return -1;
    }
}
