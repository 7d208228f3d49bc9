package dev.fleche.perf.harness;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * The harness's command line (see {@link #USAGE}). Defaults follow shared BENCHMARKS.md: 3 rounds, 15 s warm-up,
 * 30 s measured, 100 connections, {@code -Xms512m -Xmx512m}, 10,000 long-poll, idle and SSE clients, 1 GiB
 * transfers with {@code -Xmx64m}. {@code --smoke} is the CI mode: every target and scenario, one round, tiny loads,
 * the project's generator, no GC sampling, no fresh servers.
 */
final class Options {
    /** The heap of the upload/download servers (BENCHMARKS.md: 1 GiB through a resource with -Xmx64m). */
    static final String TRANSFER_HEAP = "-Xms64m -Xmx64m";

    /** The HTTPS scenarios (issue 13's table), in report order. */
    static final List<String> TLS_SCENARIOS = List.of("tls-hello", "tls-handshake-full", "tls-handshake-resumed",
            "tls-download", "tls-idle");

    static final String USAGE = """
            usage: perf/bench.sh [options]        (runs dev.fleche.perf.harness.Bench after building what it needs)

              --suite NAME        full (default): every target; transport: Fleche's transport and the raw peers
                                  (hello, pipeline, idle); rest: the JAX-RS targets, Riposte and Spring;
                                  tls: the HTTPS variants (NAME-tls-ec, NAME-tls-rsa) x the tls-* scenarios
              --targets LIST      comma-separated target names (overrides the suite's); see --list
              --target NAME=CMD   add a target: CMD with PORT (JAVA and FLAGS are replaced); it gets every scenario;
                                  with --targets, name it there too. NAME[hello,json,echo,async]=CMD: it has only
                                  those endpoints (checks and scenarios of the others are left out)
              --scenarios LIST    comma-separated scenario names (default: the suite's); see --list
              --rounds N          rounds; targets alternate, order rotated every round (default 3)
              --warmup S          warm-up before each measured throughput run and SSE window (default 15)
              --jit-warmup S      unmeasured load of the first throughput scenario right after each server start,
                                  before its own warm-up, so that the JIT has compiled the common paths (default 0)
              --duration S        each measured throughput run and SSE window (default 30; wrk rounds up to
                                  whole seconds)
              --threads T         wrk/generator threads (default 2)
              --generator G       auto (wrk when installed, default), wrk, loadgen: for closed-loop throughput
              --rate R            the open-loop scenario's rate, requests/s (default 5000)
              --longpoll N        long-poll clients (default 10000)
              --idle N            idle connections (default 10000)
              --sse N             SSE clients (default 10000); each gets one event per second for --warmup, then
                                  for the measured --duration
              --transfer-bytes B  upload/download size (default 1g; k, m, g: KiB, MiB, GiB), through a server
                                  started with -Xms64m -Xmx64m in place of the heap flags of --flags
              --flags "..."       JVM flags, identical for every target (default "-Xms512m -Xmx512m")
              --java PATH         java binary for the targets (default: the harness's own)
              --pin S:W           taskset: servers on CPUs S, wrk on CPUs W (e.g. 0:1)
              --cores N           multi-core mode: servers on CPUs 0..N-1, the generator on every other CPU
                                  with one thread each (at most 8), 256 connections; what --pin, --threads and
                                  --connections set, which win when given too
              --connections C     connections of hello, json, echo, pipeline and the TLS throughput runs (default 100)
              --port P            first port to try (default 18080)
              --out DIR           where results go (default perf/results)
              --no-gc             do not sample GC and heap (jstat, jcmd)
              --smoke             CI smoke: 1 round, 0.3 s runs, small loads (50 SSE clients, an event every
                                  50 ms; 4 MiB transfers), the project's generator, no GC sampling
              --root DIR          the repository root (bench.sh passes it)
              --list              print the targets and scenarios, and exit
              -h, --help          this help
            """;

    Path root = Path.of("").toAbsolutePath();
    String suite = "full";
    List<String> targets;
    List<String> scenarios;
    Map<String, String> extraTargets = new LinkedHashMap<>();
    /** The features (endpoints) of an added target named with {@code NAME[f1,f2]=CMD}; absent: every one. */
    Map<String, Set<String>> extraFeatures = new LinkedHashMap<>();
    int rounds = 3;
    double warmup = 15;
    double jitWarmup = 0;
    double duration = 30;
    int threads = 2;
    int connections = 100;
    /** {@code --cores}: 0 when not given. */
    int cores;
    String generator = "auto";
    int rate = 5000;
    int longPoll = 10_000;
    int idle = 10_000;
    int sse = 10_000;
    long transferBytes = 1L << 30;
    String flags = "-Xms512m -Xmx512m";
    /** The targets' java: by default the binary running the harness. */
    String java = ProcessHandle.current().info().command().orElse("java");
    String pin;
    int port = 18080;
    Path out;
    boolean gc = true;
    boolean smoke;
    boolean list;
    boolean help;
    String commandLine;

    static Options parse(String[] args) {
        Options o = new Options();
        o.commandLine = String.join(" ", args);
        boolean rounds = false;
        boolean warmup = false;
        boolean duration = false;
        boolean longPoll = false;
        boolean threads = false;
        boolean connections = false;
        boolean idle = false;
        boolean sse = false;
        boolean transferBytes = false;
        for (int i = 0; i < args.length; i++) {
            String a = args[i];
            switch (a) {
                case "--suite" -> o.suite = args[++i];
                case "--targets" -> o.targets = csv(args[++i]);
                case "--target" -> {
                    String def = args[++i];
                    int eq = def.indexOf('=');
                    if (eq <= 0 || !def.contains("PORT")) {
                        throw new IllegalArgumentException("--target wants NAME=COMMAND with PORT in it");
                    }
                    String name = def.substring(0, eq);
                    int bracket = name.indexOf('[');
                    if (bracket > 0 && name.endsWith("]")) { // NAME[f1,f2]: the endpoints the target has
                        o.extraFeatures.put(name.substring(0, bracket),
                                Set.copyOf(csv(name.substring(bracket + 1, name.length() - 1))));
                        name = name.substring(0, bracket);
                    }
                    o.extraTargets.put(name, def.substring(eq + 1));
                }
                case "--scenarios" -> o.scenarios = csv(args[++i]);
                case "--rounds" -> { o.rounds = positive(a, args[++i]); rounds = true; }
                case "--warmup" -> { o.warmup = seconds(a, args[++i], 0); warmup = true; }
                case "--jit-warmup" -> o.jitWarmup = seconds(a, args[++i], 0);
                case "--duration" -> { o.duration = seconds(a, args[++i], 0.1); duration = true; }
                case "--threads" -> { o.threads = positive(a, args[++i]); threads = true; }
                case "--generator" -> o.generator = args[++i].toLowerCase(Locale.ROOT);
                case "--rate" -> o.rate = positive(a, args[++i]);
                case "--longpoll" -> { o.longPoll = positive(a, args[++i]); longPoll = true; }
                case "--idle" -> { o.idle = positive(a, args[++i]); idle = true; }
                case "--sse" -> { o.sse = positive(a, args[++i]); sse = true; }
                case "--transfer-bytes" -> { o.transferBytes = bytes(a, args[++i]); transferBytes = true; }
                case "--flags" -> o.flags = args[++i];
                case "--java" -> o.java = args[++i];
                case "--pin" -> o.pin = args[++i];
                case "--cores" -> o.cores = positive(a, args[++i]);
                case "--connections" -> { o.connections = positive(a, args[++i]); connections = true; }
                case "--port" -> o.port = positive(a, args[++i]);
                case "--out" -> o.out = Path.of(args[++i]).toAbsolutePath();
                case "--no-gc" -> o.gc = false;
                case "--smoke" -> o.smoke = true;
                case "--list" -> o.list = true;
                case "--root" -> o.root = Path.of(args[++i]).toAbsolutePath();
                case "-h", "--help" -> o.help = true;
                default -> throw new IllegalArgumentException("unknown argument: " + a);
            }
        }
        if (o.smoke) {
            o.rounds = rounds ? o.rounds : 1;
            o.warmup = warmup ? o.warmup : 0;
            o.duration = duration ? o.duration : 0.3;
            o.longPoll = longPoll ? o.longPoll : 500;
            o.idle = idle ? o.idle : 500;
            o.sse = sse ? o.sse : 50;
            o.transferBytes = transferBytes ? o.transferBytes : 4L << 20;
            o.rate = Math.min(o.rate, 500);
            o.gc = false;
            if (o.generator.equals("auto")) {
                o.generator = "loadgen";
            }
        }
        if (!List.of("auto", "wrk", "loadgen").contains(o.generator)) {
            throw new IllegalArgumentException("--generator must be auto, wrk or loadgen");
        }
        if (o.cores > 0) {
            int cpus = Runtime.getRuntime().availableProcessors();
            if (o.cores >= cpus) {
                throw new IllegalArgumentException("--cores " + o.cores + " leaves no CPU for the generator (" + cpus
                        + " CPUs)");
            }
            if (o.pin == null) {
                o.pin = "0-" + (o.cores - 1) + ":" + o.cores + "-" + (cpus - 1);
            }
            if (!threads) {
                o.threads = Math.min(8, cpus - o.cores);
            }
            if (!connections) {
                o.connections = 256;
            }
        }
        if (o.pin != null && !o.pin.contains(":")) {
            throw new IllegalArgumentException("--pin wants SERVER_CPUS:WRK_CPUS, e.g. 0:1");
        }
        if (o.out == null) {
            o.out = o.root.resolve("perf/results");
        }
        return o;
    }

    /** The suite's targets and scenarios unless given. */
    void applySuite(Map<String, Target> known) {
        List<String> t;
        List<String> s;
        switch (suite) {
            case "full" -> {
                t = new ArrayList<>(known.keySet());
                if (!smoke) {
                    t.remove("fleche-transport"); // fleche-raw serves the same hello with every other endpoint
                } // the smoke covers every target it knows, this one too
                s = new ArrayList<>(List.of("hello", "json", "echo", "pipeline", "async-1000", "async-2000",
                        "async-5000", "rate", "longpoll", "idle", "sse", "upload", "download", "startup"));
                s.addAll(TLS_SCENARIOS); // run by the HTTPS variants only
            }
            case "tls" -> {
                t = known.values().stream().filter(x -> x.tls() != null).map(Target::name).toList();
                s = TLS_SCENARIOS;
            }
            case "transport" -> {
                t = List.of("fleche-transport", "fleche-raw", "microhttp", "netty", "vertx");
                s = List.of("hello", "pipeline", "idle", "startup");
            }
            case "rest" -> {
                t = new ArrayList<>();
                for (Target x : known.values()) {
                    if (!x.group().equals("transport") && !x.name().equals("fleche-raw")
                            && !x.name().equals("fleche-transport") && x.tls() == null) {
                        t.add(x.name());
                    }
                }
                s = List.of("hello", "json", "echo", "async-1000", "async-5000", "longpoll", "startup");
            }
            default -> throw new IllegalArgumentException("unknown suite: " + suite + " (full, transport, rest, tls)");
        }
        if (targets == null) {
            targets = new ArrayList<>(t);
            targets.addAll(extraTargets.keySet());
        }
        if (scenarios == null) {
            scenarios = s;
        }
    }

    /** SSE: between two broadcasts: a second, 50 ms in smoke mode. */
    Duration sseInterval() {
        return smoke ? Duration.ofMillis(50) : Duration.ofSeconds(1);
    }

    /** The JVM flags of the upload/download servers: {@link #flags} with its heap sizes replaced by 64 MiB. */
    String transferFlags() {
        List<String> kept = new ArrayList<>();
        for (String f : Proc.split(flags)) {
            if (!f.startsWith("-Xms") && !f.startsWith("-Xmx") && !f.isEmpty()) {
                kept.add(f);
            }
        }
        kept.add(TRANSFER_HEAP);
        return String.join(" ", kept);
    }

    List<String> pinServer() {
        return pin == null ? List.of() : List.of("taskset", "-c", pin.substring(0, pin.indexOf(':')));
    }

    List<String> pinClient() {
        return pin == null ? List.of() : List.of("taskset", "-c", pin.substring(pin.indexOf(':') + 1));
    }

    private static List<String> csv(String s) {
        return new ArrayList<>(Arrays.stream(s.split(",")).map(String::trim).filter(x -> !x.isEmpty()).toList());
    }

    private static double seconds(String name, String v, double min) {
        double s = Double.parseDouble(v);
        if (!(s >= min)) {
            throw new IllegalArgumentException(name + " must be >= " + min + " s");
        }
        return s;
    }

    /** A size in bytes: a number, optionally followed by k, m or g (KiB, MiB, GiB). */
    static long bytes(String name, String v) {
        String s = v.trim().toLowerCase(Locale.ROOT);
        int shift = switch (s.isEmpty() ? ' ' : s.charAt(s.length() - 1)) {
            case 'k' -> 10;
            case 'm' -> 20;
            case 'g' -> 30;
            default -> 0;
        };
        long n = Long.parseLong(shift == 0 ? s : s.substring(0, s.length() - 1));
        if (n < 1 || n > (Long.MAX_VALUE >> shift)) {
            throw new IllegalArgumentException(name + " must be a positive size, was " + v);
        }
        return n << shift;
    }

    private static int positive(String name, String v) {
        int n = Integer.parseInt(v);
        if (n < 1) {
            throw new IllegalArgumentException(name + " must be >= 1");
        }
        return n;
    }
}
