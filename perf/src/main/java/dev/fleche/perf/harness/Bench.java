package dev.fleche.perf.harness;

import dev.fleche.perf.loadgen.BlockingHttp;
import dev.fleche.perf.loadgen.LoadSpec;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.LocalDateTime;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The benchmark harness: runs every selected scenario on every selected target, in rounds, targets alternating
 * (order rotated every round), each target its own process started with the same JVM flags; samples the server's
 * CPU time, RSS, threads and GC around every measured run; writes JSON, Markdown and HTML under
 * {@code perf/results/}. Driven by {@code perf/bench.sh} (which builds first) and {@code perf/smoke.sh}.
 *
 * <pre>
 *   for each round:  for each target (rotated):
 *     start (start-up time) -> check every endpoint's body once -> throughput scenarios (warm-up, measure) -> stop;
 *     long-poll, idle, SSE, upload and download each on a fresh server (uploads and downloads with a 64 MiB heap;
 *     in smoke mode all on the first server)
 * </pre>
 *
 * Exit status 0 when every target started and every check and run was free of errors (smoke mode's criterion;
 * no throughput threshold), 3 otherwise.
 */
public final class Bench {
    /** Smoke only: the window of a second try when the 0.3 s one completed nothing. */
    private static final double SMOKE_RETRY_SECONDS = 3;

    private static final DateTimeFormatter STAMP = DateTimeFormatter.ofPattern("yyyy-MM-dd-HHmmss");

    private final Options o;
    private final Map<String, Target> known;
    private final Map<String, Scenario> scenarios;
    private final List<Target> targets = new ArrayList<>();
    private final List<Scenario> selected = new ArrayList<>();
    private final Results results;
    private final Path work;
    private final Proc proc;
    private final Path jdkBin;
    private final boolean useWrk;
    private final Progress progress;
    private final Runs runs;
    private int nextPort;

    private Bench(Options o) throws IOException {
        this.o = o;
        this.known = Target.defaults();
        o.extraTargets.forEach((name, cmd) -> known.put(name, new Target(name, name, "custom", cmd,
                o.extraFeatures.getOrDefault(name, java.util.Set.of(Target.HELLO, Target.JSON, Target.ECHO,
                        Target.PIPELINE, Target.ASYNC, Target.POLL, Target.SSE, Target.TRANSFER)), false)));
        o.applySuite(known);
        this.scenarios = Scenario.all(o);
        for (String t : o.targets) {
            Target target = known.get(t);
            if (target == null) {
                throw new IllegalArgumentException("unknown target '" + t + "'; known: " + known.keySet());
            }
            targets.add(target);
        }
        for (String s : o.scenarios) {
            Scenario scenario = scenarios.get(s);
            if (scenario == null) {
                throw new IllegalArgumentException("unknown scenario '" + s + "'; known: " + scenarios.keySet());
            }
            selected.add(scenario);
        }
        String stamp = LocalDateTime.now().format(STAMP);
        this.work = o.root.resolve("perf/results/tmp/bench-" + stamp);
        Files.createDirectories(work);
        this.jdkBin = Path.of(o.java).toAbsolutePath().getParent();
        this.proc = new Proc(jdkBin);
        boolean wrk = Wrk.installed();
        if (o.generator.equals("wrk") && !wrk) {
            throw new IllegalArgumentException("--generator wrk but wrk is not installed (apt-get install -y wrk)");
        }
        this.useWrk = wrk && !o.generator.equals("loadgen");
        this.results = new Results(o, stamp, targets, selected, useWrk ? Wrk.versionLine() : null, jdkVersion(o.java));
        this.progress = new Progress(estimateSeconds());
        this.runs = new Runs(o, proc, work, progress);
        this.nextPort = o.port;
    }

    public static void main(String[] args) throws Exception {
        Options o;
        try {
            o = Options.parse(args);
            if (o.help) {
                System.out.print(Options.USAGE);
                return;
            }
        } catch (RuntimeException e) {
            System.err.println("bench: " + e.getMessage());
            System.err.print(Options.USAGE);
            System.exit(1);
            return;
        }
        if (o.list) {
            list(o);
            return;
        }
        Bench bench;
        try {
            bench = new Bench(o);
        } catch (IllegalArgumentException e) {
            System.err.println("bench: " + e.getMessage());
            System.exit(1);
            return;
        }
        int failures = bench.run();
        System.exit(failures == 0 ? 0 : 3);
    }

    private static void list(Options o) {
        System.out.println("targets (name, features, command):");
        Target.defaults().values().forEach(t -> System.out.printf(Locale.ROOT, "  %-26s %-40s %s%n", t.name(),
                String.join(",", new java.util.TreeSet<>(t.features())), t.command()));
        System.out.println("scenarios:");
        Scenario.all(o).values().forEach(s ->
                System.out.printf(Locale.ROOT, "  %-22s %s%n", s.name(), s.title()));
    }

    /** What a JDK client negotiates with the HTTPS target at {@code port}, or why the handshake failed. */
    private static String tlsSession(int port) {
        try {
            return BlockingHttp.tlsSession("127.0.0.1", port, Duration.ofSeconds(10));
        } catch (IOException e) {
            return "handshake failed: " + e;
        }
    }

    /**
     * Generates the key stores of the HTTPS variants selected (fresh ones every run, with the targets' keytool)
     * into {@link TlsKeys#DIR}.
     */
    private void generateKeys() throws IOException, InterruptedException {
        for (TlsKeys.KeyType key : TlsKeys.KeyType.values()) {
            if (targets.stream().anyMatch(t -> t.tls() == key)) {
                Path store = TlsKeys.generate(o.root.resolve(TlsKeys.DIR), key, jdkBin);
                progress.log("key store " + key.label + ": " + store);
            }
        }
    }

    private int run() throws IOException, InterruptedException {
        generateKeys();
        if (o.pin != null) {
            Proc.run(List.of("taskset", "-a", "-p", "-c", o.pin.substring(o.pin.indexOf(':') + 1),
                    Long.toString(ProcessHandle.current().pid())), 10);
        }
        progress.log("targets: " + names(targets) + " · scenarios: " + names(selected) + " · rounds: " + o.rounds
                + " · generator: " + (useWrk ? "wrk" : "loadgen") + " · flags: " + o.flags);
        progress.log("estimated time: " + Progress.fmt(progress.total) + " · logs: " + work);
        for (int round = 1; round <= o.rounds; round++) {
            for (int k = 0; k < targets.size(); k++) {
                Target t = targets.get((k + round - 1) % targets.size());
                progress.step(round, o.rounds, t, k + 1, targets.size());
                runTarget(round, t);
            }
        }
        Path[] files = results.write(o.out, work);
        progress.log("results: " + files[0] + " · " + files[1] + " · " + files[2]);
        System.out.println(Files.readString(files[1]));
        List<String> problems = results.problems();
        problems.forEach(p -> progress.log("PROBLEM: " + p));
        progress.log(problems.isEmpty() ? "smoke: every target started and every check passed"
                : problems.size() + " problem(s)");
        return problems.size();
    }

    /** Everything one target does in one round. */
    private void runTarget(int round, Target t) throws IOException, InterruptedException {
        List<Scenario> mine = selected.stream().filter(s -> t.can(s.feature())).toList();
        List<Scenario> sameServer = mine.stream().filter(s -> s.throughput() || (o.smoke && s.freshServer())).toList();
        if (!sameServer.isEmpty() || !results.checked(t.name())) {
            try (Server server = start(t, round, "main", o.flags)) {
                if (server == null) {
                    return;
                }
                if (!results.checked(t.name())) {
                    if (t.tls() != null) {
                        results.tlsSession(t.name(), tlsSession(server.port));
                    }
                    results.check(t.name(), Checks.run(t, server.port));
                    progress.log("  " + t.name() + " checks: " + results.checkSummary(t.name()));
                }
                if (o.jitWarmup > 0 && !sameServer.isEmpty()) {
                    runs.jitWarmup(round, t, sameServer.get(0), server, useWrk);
                }
                for (Scenario s : sameServer) {
                    measure(round, t, s, server);
                    if (!server.alive()) {
                        results.problem(t.name() + " died during " + s.name() + " (log: " + server.log + ")");
                        return;
                    }
                }
            }
        }
        if (!o.smoke) {
            for (Scenario s : mine) {
                if (s.freshServer()) {
                    String flags = s.kind().equals("transfer") ? o.transferFlags() : o.flags;
                    try (Server server = start(t, round, s.name(), flags)) {
                        if (server != null) {
                            measure(round, t, s, server);
                        }
                    }
                }
            }
        }
    }

    /**
     * Starts {@code t} with JVM {@code flags}; records its start-up time (with the run's own flags only); null (and
     * a problem) when it does not come up.
     */
    private Server start(Target t, int round, String what, String flags) throws InterruptedException {
        int port = Server.freePort(nextPort);
        nextPort = port + 1;
        List<String> cmd = new ArrayList<>(o.pinServer());
        cmd.addAll(t.commandLine(o.java, flags, port));
        Path log = work.resolve(t.name() + "-r" + round + "-" + what + ".log");
        try {
            Server s = Server.start(cmd, o.root, port, log, Duration.ofSeconds(o.smoke ? 60 : 90), t.tls() != null);
            progress.log(String.format(Locale.ROOT, "  %s up in %.0f ms (pid %d, port %d)", t.name(),
                    s.startupMillis, s.pid(), port));
            if (flags.equals(o.flags) && selected.stream().anyMatch(x -> x.kind().equals("startup"))) {
                results.add(round, t.name(), "startup", Map.of("startupMs", s.startupMillis));
            }
            return s;
        } catch (IOException e) {
            results.problem(t.name() + " did not start: " + e.getMessage());
            progress.log("  " + t.name() + " did not start (log: " + log + ")");
            return null;
        }
    }

    private void measure(int round, Target t, Scenario s, Server server) throws InterruptedException {
        progress.phase(s.name());
        try {
            Map<String, Object> row = run(round, t, s, server);
            String done = completed(s.kind());
            if (row != null && o.smoke && nothingDone(row, done) && (s.kind().equals("closed")
                    || s.kind().equals("open"))) {
                // The smoke's 0.3 s window can end before a slow server answers anything under thousands of
                // connections (Spring at async-5000): once more with a window long enough to prove it works.
                double window = o.duration;
                progress.log("  " + t.name() + " " + s.name() + ": nothing completed in " + window
                        + " s; once more with " + SMOKE_RETRY_SECONDS + " s");
                o.duration = SMOKE_RETRY_SECONDS;
                try {
                    row = run(round, t, s, server);
                } finally {
                    o.duration = window;
                }
            }
            if (row != null) {
                results.add(round, t.name(), s.name(), row);
                progress.log("  " + t.name() + " " + s.name() + ": " + Results.oneLine(s, row));
                Object errors = row.get("errors");
                if (errors instanceof Number n && n.longValue() > 0) {
                    results.problem(t.name() + " " + s.name() + ": " + n + " errors"
                            + (row.get("firstError") != null ? " (" + row.get("firstError") + ")" : ""));
                }
                if (nothingDone(row, done)) {
                    results.problem(t.name() + " " + s.name() + ": completed nothing (" + done + " = "
                            + row.get(done) + "); a run without errors proves nothing if it did no work");
                }
            }
        } catch (IOException | RuntimeException e) {
            results.problem(t.name() + " " + s.name() + " failed: " + e);
            progress.log("  " + t.name() + " " + s.name() + " failed: " + e);
        }
    }

    private Map<String, Object> run(int round, Target t, Scenario s, Server server)
            throws IOException, InterruptedException {
        return switch (s.kind()) {
            case "closed" -> useWrk && s.tls() == LoadSpec.Tls.NONE ? runs.wrk(round, t, s, server)
                    : runs.loadgen(round, t, s, server); // HTTPS: always the generator (consistent handshakes)
            case "open" -> runs.loadgen(round, t, s, server);
            case "longpoll" -> runs.longPoll(s, server);
            case "idle" -> runs.idle(s, server);
            case "sse" -> runs.sse(s, server);
            case "transfer" -> runs.transfer(s, server);
            default -> null;
        };
    }

    private static boolean nothingDone(Map<String, Object> row, String done) {
        return !(row.get(done) instanceof Number n) || n.doubleValue() <= 0;
    }

    /** The row field that counts what a run of this kind completed: it must be above zero. */
    private static String completed(String kind) {
        return switch (kind) {
            case "longpoll" -> "resumed";
            case "idle" -> "stillOpen";
            case "sse" -> "events";
            case "transfer" -> "bytes";
            default -> "requests";
        };
    }

        /** Seconds the whole plan should take (for the progress line): runs, plus ~4 s per server start. */
    private long estimateSeconds() {
        long total = 0;
        for (Target t : targets) {
            long per = 5 + (long) Math.ceil(o.jitWarmup); // start, checks, JIT warm-up
            for (Scenario s : selected) {
                if (!t.can(s.feature())) {
                    continue;
                }
                per += switch (s.kind()) {
                    case "closed", "open" -> (long) Math.ceil(o.warmup + o.duration) + (o.gc ? 2 : 0);
                    case "longpoll" -> (o.smoke ? 1 : 8) + Runs.LONG_POLL_CYCLES * (s.connections() / 1000)
                            + (o.gc ? 3 : 0);
                    case "idle" -> (o.smoke ? 1 : 8) + s.connections() / 1000 + (o.gc ? 3 : 0)
                            + (s.tls() != LoadSpec.Tls.NONE ? s.connections() / 1000 : 0); // ~1,000 handshakes/s
                    case "sse" -> (o.smoke ? 1 : 8) + s.connections() / 1000 + (o.gc ? 3 : 0)
                            + (long) Math.ceil(o.warmup + o.duration);
                    case "transfer" -> (o.smoke ? 1 : 5) + o.transferBytes / (100L << 20); // at ~100 MiB/s
                    default -> 0;
                };
            }
            total += per;
        }
        return total * o.rounds;
    }

    /** The targets' JVM as {@code java -version} names it (its VM line). */
    private static String jdkVersion(String java) {
        String out = Proc.run(List.of(java, "-version"), 30);
        if (out != null) {
            for (String line : out.split("\\R")) {
                if (line.contains(" VM ")) {
                    return line.trim();
                }
            }
        }
        return "unknown (" + java + " -version failed)";
    }

    private static String names(List<?> items) {
        List<String> n = new ArrayList<>();
        for (Object x : items) {
            n.add(x instanceof Target t ? t.name() : ((Scenario) x).name());
        }
        return String.join(",", n);
    }

    /** Progress lines on stderr: round, target, phase and time left. */
    static final class Progress {
        final long total;
        private final long started = System.nanoTime();
        private String where = "";

        Progress(long totalSeconds) {
            this.total = totalSeconds;
        }

        void step(int round, int rounds, Target t, int index, int count) {
            where = "round " + round + "/" + rounds + " · " + t.name() + " (" + index + "/" + count + ")";
            log(where + " · starting");
        }

        void phase(String what) {
            log(where + " · " + what);
        }

        void log(String line) {
            long elapsed = (System.nanoTime() - started) / 1_000_000_000L;
            String left = where.isEmpty() ? "" : " · ~" + fmt(Math.max(0, total - elapsed)) + " left";
            System.err.printf(Locale.ROOT, "[%s] %s%s%n", LocalDateTime.now().format(DateTimeFormatter.ofPattern("HH:mm:ss")),
                    line, line.startsWith("  ") ? "" : left);
            System.err.flush();
        }

        static String fmt(long s) {
            return String.format(Locale.ROOT, "%dm%02ds", s / 60, s % 60);
        }
    }
}
