package dev.fleche.perf.harness;

import dev.fleche.perf.loadgen.Engine;
import dev.fleche.perf.loadgen.LoadReport;
import dev.fleche.perf.loadgen.LoadSpec;
import dev.fleche.perf.loadgen.Transfer;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The measured runs of one scenario on a running server, each returning its row of figures: closed loop with wrk
 * or the project's generator (warm-up, then the window sampled by {@link Window}), open loop, long-poll, idle and
 * SSE with the generator, sampling the server while the clients wait, idle or listen, and uploads and downloads
 * with {@link Transfer}.
 */
final class Runs {
    /** Broadcasts per long-poll run: the first is the cold one. */
    static final int LONG_POLL_CYCLES = 3;

    private static final double MIB = 1024.0 * 1024.0;
    /** A transfer that moves no byte for this long fails. */
    private static final Duration TRANSFER_STALL = Duration.ofSeconds(30);

    private final Options o;
    private final Proc proc;
    private final Path work;
    private final Bench.Progress progress;

    Runs(Options o, Proc proc, Path work, Bench.Progress progress) {
        this.o = o;
        this.proc = proc;
        this.work = work;
        this.progress = progress;
    }

    /** CPU and box samples around a measured window. */
    final class Window {
        final long pid;
        final long cpu0;
        final long box0;
        final long self0;
        final long[] gc0;
        final long t0 = System.nanoTime();

        Window(long pid) {
            this.pid = pid;
            this.gc0 = o.gc ? proc.gc(pid) : new long[] {-1, -1};
            this.cpu0 = Proc.cpuNanos(pid);
            this.box0 = Proc.boxBusyNanos();
            this.self0 = Proc.selfAndChildrenCpuNanos();
        }

        /** Adds CPU µs/request, RSS, threads, GC and the box's other load to {@code row}. */
        void close(Map<String, Object> row, long requests) {
            long server = close(row);
            row.put("cpuUsPerReq", requests > 0 && server >= 0 ? server / 1e3 / requests : null);
        }

        /**
         * Adds the server's CPU as % of one core, RSS, threads, GC and the box's other load to {@code row}; returns
         * the server's CPU time in the window, in nanoseconds (-1 when unknown: the process is gone).
         */
        long close(Map<String, Object> row) {
            long cpu1 = Proc.cpuNanos(pid);
            long box1 = Proc.boxBusyNanos();
            long self1 = Proc.selfAndChildrenCpuNanos();
            double wall = (System.nanoTime() - t0) / 1e9;
            long server = cpu0 >= 0 && cpu1 >= 0 ? cpu1 - cpu0 : -1;
            row.put("serverCpuPct", wall > 0 && server >= 0 ? 100.0 * server / 1e9 / wall : null);
            row.put("rssMb", Proc.rssKb(pid) / 1024.0);
            row.put("threads", Proc.threads(pid));
            int cpus = Runtime.getRuntime().availableProcessors();
            double other = (box1 - box0 - server - (self1 - self0)) / 1e9 / wall / cpus * 100;
            row.put("otherLoadPct", Math.max(0, other));
            if (o.gc) {
                long[] gc1 = proc.gc(pid);
                if (gc0[0] >= 0 && gc1[0] >= 0) {
                    row.put("gcCount", gc1[0] - gc0[0]);
                    row.put("gcMs", gc1[1] - gc0[1]);
                }
            }
            return server;
        }
    }

    /**
     * Unmeasured load of {@code s} right after {@code server} started ({@code --jit-warmup}), so that every
     * scenario after it starts from compiled code rather than the first one paying the JIT's warm-up.
     */
    void jitWarmup(int round, Target t, Scenario s, Server server, boolean useWrk)
            throws IOException, InterruptedException {
        progress.phase("JIT warm-up " + secs(o.jitWarmup) + " with " + s.name());
        if (useWrk && s.kind().equals("closed") && s.tls() == LoadSpec.Tls.NONE) {
            String url = "http://127.0.0.1:" + server.port + s.path();
            Wrk.run(work, t.name() + "-r" + round + "-jit-warmup", s, url, o.threads, (int) Math.ceil(o.jitWarmup),
                    o.pinClient());
        } else {
            Engine.run(base(s, server).duration(millis(o.jitWarmup)).threads(o.threads).depth(s.depth()).build());
        }
    }

    Map<String, Object> wrk(int round, Target t, Scenario s, Server server)
            throws IOException, InterruptedException {
        String url = "http://127.0.0.1:" + server.port + s.path();
        String tag = t.name() + "-r" + round + "-" + s.name();
        if (o.warmup > 0) {
            progress.phase(s.name() + ": warm-up " + secs(o.warmup));
            Wrk.run(work, tag + "-warmup", s, url, o.threads, (int) Math.ceil(o.warmup), o.pinClient());
        }
        progress.phase(s.name() + ": measuring " + secs(o.duration));
        Window w = new Window(server.pid());
        Wrk.Result r = Wrk.run(work, tag, s, url, o.threads, (int) Math.ceil(o.duration), o.pinClient());
        if (r == null) {
            throw new IOException("wrk printed no figures (see " + work.resolve(tag + ".wrk.txt") + ")");
        }
        Map<String, Object> row = new LinkedHashMap<>();
        row.put("generator", "wrk");
        row.put("rps", r.throughput());
        row.put("requests", r.requests());
        row.put("p50", r.p50());
        row.put("p90", r.p90());
        row.put("p99", r.p99());
        row.put("p99.9", r.p999());
        row.put("max", r.max());
        row.put("errors", r.socketErrors() + r.statusErrors() + r.timeouts());
        w.close(row, r.requests());
        ideal(s, row);
        return row;
    }

    Map<String, Object> loadgen(int round, Target t, Scenario s, Server server)
            throws IOException, InterruptedException {
        LoadSpec.Builder b = base(s, server).warmup(millis(o.warmup)).duration(millis(o.duration))
                .threads(o.threads).depth(s.depth())
                .hlog(work.resolve(t.name() + "-r" + round + "-" + s.name() + ".hlog"));
        if (s.kind().equals("open")) {
            b.mode(LoadSpec.Mode.OPEN).rate(o.rate);
        }
        Window[] w = new Window[1];
        progress.phase(s.name() + (o.warmup > 0 ? ": warm-up " + secs(o.warmup) + ", then " : ": ") + "measuring "
                + secs(o.duration));
        LoadReport r = Engine.run(b.build(), new Engine.Hooks() {
            @Override
            public void recording() {
                w[0] = new Window(server.pid());
            }
        });
        Map<String, Object> row = new LinkedHashMap<>();
        row.put("generator", "loadgen");
        row.put("rps", r.throughput());
        row.put("requests", r.requests());
        latencies(row, r);
        if (s.kind().equals("open")) {
            row.put("rate", o.rate);
            row.put("serviceP99", r.serviceMillis(99));
        }
        row.put("errors", r.errors());
        row.put("firstError", r.firstError());
        handshakes(s, row, r);
        if (w[0] != null) {
            w[0].close(row, r.requests());
        }
        ideal(s, row);
        return row;
    }

    /**
     * Long-poll: {@value #LONG_POLL_CYCLES} cycles on the fresh server (every client polls, one broadcast resumes
     * them all). The first cycle runs the resume path for the first time (interpreted, then compiled: the JIT's
     * warm-up) and is reported apart as {@code resumeAllColdMs}; {@code resumeAllMs} is the slowest of the others.
     * Threads, heap and RSS are sampled while the last cycle's clients wait.
     */
    Map<String, Object> longPoll(Scenario s, Server server) throws IOException, InterruptedException {
        long pid = server.pid();
        long heap0 = o.gc ? proc.heapAfterGcKb(pid) : -1;
        long rss0 = Proc.rssKb(pid);
        long cpu0 = Proc.cpuNanos(pid);
        Map<String, Object> row = new LinkedHashMap<>();
        double[] warmResumeAll = {0};
        progress.phase(s.name() + ": " + s.connections() + " clients, " + LONG_POLL_CYCLES + " broadcasts");
        LoadReport r = Engine.run(base(s, server).mode(LoadSpec.Mode.LONG_POLL).cycles(LONG_POLL_CYCLES)
                .timeout(Duration.ofSeconds(60)).build(), new Engine.Hooks() {
            @Override
            public void ready(int cycle, int clients) {
                row.put("waiting", clients);
                row.put("threads", Proc.threads(pid));
                long heap = o.gc ? proc.heapAfterGcKb(pid) : -1;
                row.put("heapKbPerClient", heap >= 0 && heap0 >= 0 && clients > 0 ? (heap - heap0) / (double) clients : null);
                long rss = Proc.rssKb(pid);
                row.put("rssKbPerClient", clients > 0 ? (rss - rss0) / (double) clients : null);
                row.put("rssMb", rss / 1024.0);
            }

            @Override
            public void resumed(int cycle, double millis) {
                if (cycle == 1) {
                    row.put("resumeAllColdMs", millis);
                } else {
                    warmResumeAll[0] = Math.max(warmResumeAll[0], millis);
                }
            }
        });
        row.put("resumed", r.requests() / (double) LONG_POLL_CYCLES);
        row.put("resumeAllMs", warmResumeAll[0]);
        latencies(row, r);
        row.put("cpuMs", (Proc.cpuNanos(pid) - cpu0) / 1e6);
        row.put("errors", r.errors());
        row.put("firstError", r.firstError());
        return row;
    }

    Map<String, Object> idle(Scenario s, Server server) throws IOException, InterruptedException {
        long pid = server.pid();
        long heap0 = o.gc ? proc.heapAfterGcKb(pid) : -1;
        long rss0 = Proc.rssKb(pid);
        Map<String, Object> row = new LinkedHashMap<>();
        progress.phase(s.name() + ": " + s.connections() + " connections");
        LoadReport r = Engine.run(base(s, server).mode(LoadSpec.Mode.IDLE).hold(Duration.ofSeconds(1)).build(),
                new Engine.Hooks() {
                    @Override
                    public void ready(int cycle, int open) {
                        try {
                            Thread.sleep(o.smoke ? 200 : 2000); // let the server settle
                        } catch (InterruptedException e) {
                            Thread.currentThread().interrupt();
                        }
                        long heap = o.gc ? proc.heapAfterGcKb(pid) : -1;
                        long rss = Proc.rssKb(pid);
                        row.put("open", open);
                        row.put("heapKbPerConn", heap >= 0 && heap0 >= 0 && open > 0 ? (heap - heap0) / (double) open : null);
                        row.put("rssKbPerConn", open > 0 ? (rss - rss0) / (double) open : null);
                        row.put("heapBeforeMb", heap0 >= 0 ? heap0 / 1024.0 : null);
                        row.put("rssMb", rss / 1024.0);
                        row.put("threads", Proc.threads(pid));
                    }
                });
        row.put("stillOpen", r.stillOpen());
        row.put("errors", r.errors());
        row.put("firstError", r.firstError());
        handshakes(s, row, r);
        return row;
    }

    /**
     * N clients subscribe; with all of them counted, the heap after a full GC and the RSS (minus the values before
     * they connected); then one broadcast event per interval, the warm-up's and then the measured window's, the
     * server's CPU sampled over the window; every event checked, the lateness of the window's recorded.
     */
    Map<String, Object> sse(Scenario s, Server server) throws IOException, InterruptedException {
        long pid = server.pid();
        long heap0 = o.gc ? proc.heapAfterGcKb(pid) : -1;
        long rss0 = Proc.rssKb(pid);
        Map<String, Object> row = new LinkedHashMap<>();
        LoadSpec spec = base(s, server).mode(LoadSpec.Mode.SSE).expectBody((byte[]) null).interval(o.sseInterval())
                .warmup(millis(o.warmup)).duration(millis(o.duration)).build();
        progress.phase(s.name() + ": " + s.connections() + " clients, then " + spec.warmupTicks() + " + "
                + spec.ticks() + " events each");
        Window[] w = new Window[1];
        long[] cpu = {-1};
        LoadReport r = Engine.run(spec, new Engine.Hooks() {
            @Override
            public void ready(int cycle, int clients) {
                long heap = o.gc ? proc.heapAfterGcKb(pid) : -1;
                row.put("heapKbPerClient", heap >= 0 && heap0 >= 0 && clients > 0 ? (heap - heap0) / (double) clients : null);
                row.put("rssKbPerClient", clients > 0 ? (Proc.rssKb(pid) - rss0) / (double) clients : null);
            }

            @Override
            public void recording() {
                w[0] = new Window(pid);
            }

            @Override
            public void recorded() {
                cpu[0] = w[0].close(row);
            }
        });
        long expected = (long) s.connections() * spec.ticks();
        row.put("clients", r.requests());
        row.put("events", r.events());
        row.put("expected", expected);
        row.put("seconds", r.seconds());
        latencies(row, r);
        row.put("cpuUsPerEvent", r.events() > 0 && cpu[0] >= 0 ? cpu[0] / 1e3 / r.events() : null);
        row.put("errors", r.errors());
        row.put("firstError", r.firstError());
        return row;
    }

    /**
     * One upload or download of {@code --transfer-bytes} (POST scenarios upload), timed; the server's CPU, RSS and
     * peak RSS sampled around it. A failure (status, count, short body, stall, a dead server, an
     * {@code OutOfMemoryError} in its log) is one error, with every reason seen; MiB/s only for a transfer that
     * succeeded.
     */
    Map<String, Object> transfer(Scenario s, Server server) throws IOException {
        long pid = server.pid();
        long bytes = o.transferBytes;
        progress.phase(s.name() + ": " + Scenario.size(bytes));
        Map<String, Object> row = new LinkedHashMap<>();
        Window w = new Window(pid);
        Transfer.Result r = s.method().equals("POST")
                ? Transfer.upload("127.0.0.1", server.port, s.path(), bytes, TRANSFER_STALL, s.tls())
                : Transfer.download("127.0.0.1", server.port, s.path(), bytes, TRANSFER_STALL, s.tls());
        long cpu = w.close(row);
        List<String> failures = new ArrayList<>();
        if (r.failure() != null) {
            failures.add(r.failure());
        }
        if (!server.alive()) {
            failures.add("the server died");
        }
        if (outOfMemory(server.log)) {
            failures.add("OutOfMemoryError in the server's log");
        }
        String failure = failures.isEmpty() ? null : String.join("; ", failures);
        row.put("bytes", r.bytes());
        row.put("seconds", r.seconds());
        row.put("mibPerSec", failure == null ? r.mibPerSecond() : null);
        row.put("cpuMsPerMiB", failure == null && cpu >= 0 ? cpu / 1e6 / (bytes / MIB) : null);
        row.put("rssPeakMb", Proc.rssPeakKb(pid) / 1024.0);
        row.put("errors", failure == null ? 0 : 1);
        row.put("firstError", failure);
        return row;
    }

    private static boolean outOfMemory(Path log) throws IOException {
        return Files.readString(log, StandardCharsets.ISO_8859_1).contains("OutOfMemoryError");
    }

    /**
     * HTTPS scenarios: the handshakes counted (full and resumed, in all and per second of the window) and the
     * session negotiated. A run whose handshakes are not what the scenario says (a resumed one in
     * {@code tls-handshake-full}; in {@code tls-handshake-resumed} more full ones than connection slots, i.e. the
     * server declined sessions offered: each slot's first handshake may be full) counts one error, with the
     * reason: its handshakes/s would be mislabelled.
     */
    private static void handshakes(Scenario s, Map<String, Object> row, LoadReport r) {
        if (s.tls() == LoadSpec.Tls.NONE) {
            return;
        }
        row.put("tls", r.tlsSession());
        row.put("fullHandshakes", r.fullHandshakes());
        row.put("resumedHandshakes", r.resumedHandshakes());
        if (!s.connectionPerRequest()) {
            return;
        }
        row.put("fullHandshakesPerSec", r.fullHandshakesPerSecond());
        row.put("resumedHandshakesPerSec", r.resumedHandshakesPerSecond());
        long all = r.fullHandshakes() + r.resumedHandshakes();
        String wrong = null;
        if (s.tls() == LoadSpec.Tls.FULL && r.resumedHandshakes() > 0) {
            wrong = r.resumedHandshakes() + " of " + all + " handshakes resumed where every one should be full";
        } else if (s.tls() == LoadSpec.Tls.RESUME && r.fullHandshakes() > s.connections()) {
            wrong = r.fullHandshakes() + " of " + all + " handshakes full for " + s.connections() + " clients, each "
                    + "offering its session after its first: the server declined sessions";
        }
        if (wrong != null) {
            row.put("errors", ((Number) row.get("errors")).longValue() + 1);
            if (row.get("firstError") == null) {
                row.put("firstError", wrong);
            }
        }
    }

    private LoadSpec.Builder base(Scenario s, Server server) {
        LoadSpec.Builder b = LoadSpec.builder().host("127.0.0.1").port(server.port).method(s.method()).path(s.path())
                .connections(s.connections()).expectBody(s.expectBody()).threads(o.threads).tls(s.tls())
                .connectionPerRequest(s.connectionPerRequest());
        if (s.body() != null) {
            b.body(s.body()).contentType("application/json");
        }
        return b;
    }

    private static void latencies(Map<String, Object> row, LoadReport r) {
        row.put("p50", r.latencyMillis(50));
        row.put("p90", r.latencyMillis(90));
        row.put("p99", r.latencyMillis(99));
        row.put("p99.9", r.latencyMillis(99.9));
        row.put("max", r.maxMillis());
    }

    private static void ideal(Scenario s, Map<String, Object> row) {
        if (s.idealRate() > 0 && row.get("rps") instanceof Double rps) {
            row.put("pctOfIdeal", 100 * rps / s.idealRate());
        }
    }

    private static Duration millis(double seconds) {
        return Duration.ofMillis(Math.round(seconds * 1000));
    }

    private static String secs(double seconds) {
        return seconds == Math.rint(seconds) ? (long) seconds + " s" : seconds + " s";
    }
}
