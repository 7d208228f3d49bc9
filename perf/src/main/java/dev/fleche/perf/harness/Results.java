package dev.fleche.perf.harness;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.ZonedDateTime;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Every figure of a run: one row per (round, target, scenario), the endpoint checks, the problems met; medians
 * over rounds and ratios to the best peer; written as JSON (everything), Markdown and HTML (the tables; HTML adds
 * the charts, see {@link HtmlReport}).
 */
final class Results {
    /** A table column: row key, header, format, and which way is better (1 higher, -1 lower, 0 neither). */
    record Column(String key, String header, String format, int better) {
    }

    private final Options o;
    final String stamp;
    final List<Target> targets;
    final List<Scenario> scenarios;
    final String wrkVersion;
    final String jdk;
    final List<Map<String, Object>> rows = new ArrayList<>();
    final Map<String, Map<String, String>> checks = new LinkedHashMap<>();
    final List<String> problems = new ArrayList<>();
    /** HTTPS targets: what the JDK client negotiated with each (recorded once, at its first start). */
    final Map<String, String> tlsSessions = new LinkedHashMap<>();
    final Map<String, Object> meta = new LinkedHashMap<>();

    Results(Options o, String stamp, List<Target> targets, List<Scenario> scenarios, String wrkVersion, String jdk) {
        this.o = o;
        this.stamp = stamp;
        this.targets = targets;
        this.scenarios = scenarios;
        this.wrkVersion = wrkVersion;
        this.jdk = jdk;
        meta.put("date", ZonedDateTime.now().toString());
        meta.put("command", "perf/bench.sh " + o.commandLine);
        meta.put("jdk", jdk + " (" + o.java + ")");
        meta.put("flags", o.flags);
        meta.put("generator", wrkVersion != null ? wrkVersion : "dev.fleche.perf.loadgen (NIO, HdrHistogram)");
        meta.put("commit", git("rev-parse", "--short", "HEAD"));
        String status = git("status", "--porcelain");
        meta.put("uncommittedPaths", status == null ? null : status.isBlank() ? 0 : status.split("\n").length);
        meta.put("cpus", Runtime.getRuntime().availableProcessors());
        String kernel = Proc.run(List.of("uname", "-sr"), 10);
        meta.put("kernel", kernel == null ? "unknown" : kernel.trim());
        meta.put("loadAverageAtStart", Proc.loadAverage());
        meta.put("rounds", o.rounds);
        meta.put("warmupSeconds", o.warmup);
        meta.put("jitWarmupSeconds", o.jitWarmup);
        meta.put("durationSeconds", o.duration);
        meta.put("threads", o.threads);
        meta.put("pin", o.pin);
        meta.put("connections", o.connections);
        meta.put("smoke", o.smoke);
    }

    void add(int round, String target, String scenario, Map<String, Object> figures) {
        Map<String, Object> row = new LinkedHashMap<>();
        row.put("round", round);
        row.put("target", target);
        row.put("scenario", scenario);
        row.putAll(figures);
        rows.add(row);
    }

    boolean checked(String target) {
        return checks.containsKey(target);
    }

    void check(String target, Map<String, String> result) {
        checks.put(target, result);
        result.forEach((what, status) -> {
            if (!status.equals("ok")) {
                problem(target + " check " + what + ": " + status);
            }
        });
    }

    String checkSummary(String target) {
        Map<String, String> c = checks.get(target);
        long bad = c.values().stream().filter(s -> !s.equals("ok")).count();
        return bad == 0 ? "ok (" + String.join(", ", c.keySet()) + ")" : bad + " failed: " + c;
    }

    /** What a handshake with the HTTPS target negotiated (protocol and cipher suite), or why it failed. */
    void tlsSession(String target, String session) {
        tlsSessions.put(target, session);
    }

    void problem(String p) {
        problems.add(p);
    }

    List<String> problems() {
        return Collections.unmodifiableList(problems);
    }

    // ------------------------------------------------------------------ aggregation

    List<Map<String, Object>> rows(String scenario, String target) {
        return rows.stream().filter(r -> r.get("scenario").equals(scenario) && r.get("target").equals(target)).toList();
    }

    /** The median of {@code key} over the rounds (errors: the sum), or null when no round has it. */
    Double aggregate(String scenario, String target, String key) {
        List<Double> v = new ArrayList<>();
        for (Map<String, Object> r : rows(scenario, target)) {
            if (r.get(key) instanceof Number n && !Double.isNaN(n.doubleValue())) {
                v.add(n.doubleValue());
            }
        }
        if (v.isEmpty()) {
            return null;
        }
        if (key.equals("errors")) {
            return v.stream().mapToDouble(Double::doubleValue).sum();
        }
        Collections.sort(v);
        int n = v.size();
        return n % 2 == 1 ? v.get(n / 2) : (v.get(n / 2 - 1) + v.get(n / 2)) / 2;
    }

    /**
     * The best median of {@code key} among the peers with the same TLS key as {@code tls} (null: plain HTTP), so
     * that HTTPS figures are compared at equal key type (among all such targets when none is a peer).
     */
    String best(String scenario, String key, int better, TlsKeys.KeyType tls) {
        List<Target> same = targets.stream().filter(t -> t.tls() == tls).toList();
        boolean anyPeer = same.stream().anyMatch(t -> !t.self() && aggregate(scenario, t.name(), key) != null);
        String best = null;
        double bestValue = 0;
        for (Target t : same) {
            Double v = aggregate(scenario, t.name(), key);
            if (v == null || (anyPeer && t.self())) {
                continue;
            }
            if (best == null || (better > 0 ? v > bestValue : v < bestValue)) {
                best = t.name();
                bestValue = v;
            }
        }
        return best;
    }

    static List<Column> columns(Scenario s) {
        List<Column> c = new ArrayList<>();
        switch (s.kind()) {
            case "closed" -> {
                c.add(new Column("rps", "req/s", "%.0f", 1));
                if (s.connectionPerRequest()) {
                    c.add(new Column("fullHandshakesPerSec", "full handshakes/s", "%.0f", 0));
                    c.add(new Column("resumedHandshakesPerSec", "resumed handshakes/s", "%.0f", 0));
                }
                if (s.idealRate() > 0) {
                    c.add(new Column("pctOfIdeal", "% of ideal", "%.0f", 1));
                }
                c.add(new Column("p50", "p50 ms", "%.2f", -1));
                c.add(new Column("p99", "p99 ms", "%.2f", -1));
                c.add(new Column("p99.9", "p99.9 ms", "%.2f", -1));
                c.add(new Column("cpuUsPerReq", "CPU µs/req", "%.1f", -1));
                c.add(new Column("rssMb", "RSS MB", "%.0f", 0));
                c.add(new Column("threads", "threads", "%.0f", 0));
                c.add(new Column("gcCount", "GCs", "%.0f", 0));
                c.add(new Column("gcMs", "GC ms", "%.0f", 0));
                c.add(new Column("errors", "errors", "%.0f", 0));
                c.add(new Column("otherLoadPct", "other load %", "%.0f", 0));
            }
            case "open" -> {
                c.add(new Column("rps", "req/s", "%.0f", 1));
                c.add(new Column("p50", "p50 ms", "%.2f", -1));
                c.add(new Column("p90", "p90 ms", "%.2f", -1));
                c.add(new Column("p99", "p99 ms", "%.2f", -1));
                c.add(new Column("p99.9", "p99.9 ms", "%.2f", -1));
                c.add(new Column("max", "max ms", "%.1f", -1));
                c.add(new Column("serviceP99", "service p99 ms", "%.2f", 0));
                c.add(new Column("cpuUsPerReq", "CPU µs/req", "%.1f", -1));
                c.add(new Column("errors", "errors", "%.0f", 0));
            }
            case "longpoll" -> {
                c.add(new Column("waiting", "waiting", "%.0f", 0));
                c.add(new Column("resumed", "resumed", "%.0f", 0));
                c.add(new Column("resumeAllMs", "resume all ms", "%.0f", -1));
                c.add(new Column("resumeAllColdMs", "first (cold) ms", "%.0f", -1));
                c.add(new Column("p50", "p50 ms", "%.0f", -1));
                c.add(new Column("p99", "p99 ms", "%.0f", -1));
                c.add(new Column("threads", "threads", "%.0f", -1));
                c.add(new Column("heapKbPerClient", "heap KB/client", "%.2f", -1));
                c.add(new Column("rssKbPerClient", "RSS KB/client", "%.1f", -1));
                c.add(new Column("cpuMs", "CPU ms", "%.0f", -1));
                c.add(new Column("errors", "errors", "%.0f", 0));
            }
            case "idle" -> {
                c.add(new Column("open", "open", "%.0f", 0));
                if (s.tls() != dev.fleche.perf.loadgen.LoadSpec.Tls.NONE) {
                    c.add(new Column("fullHandshakes", "full handshakes", "%.0f", 0));
                }
                c.add(new Column("heapKbPerConn", "heap KB/conn", "%.2f", -1));
                c.add(new Column("rssKbPerConn", "RSS KB/conn", "%.1f", -1));
                c.add(new Column("heapBeforeMb", "heap before MB", "%.1f", 0));
                c.add(new Column("rssMb", "RSS MB", "%.0f", 0));
                c.add(new Column("threads", "threads", "%.0f", -1));
                c.add(new Column("stillOpen", "still open", "%.0f", 0));
                c.add(new Column("errors", "errors", "%.0f", 0));
            }
            case "sse" -> {
                c.add(new Column("clients", "clients", "%.0f", 0));
                c.add(new Column("expected", "events expected", "%.0f", 0));
                c.add(new Column("events", "events", "%.0f", 0));
                c.add(new Column("p50", "late p50 ms", "%.1f", -1));
                c.add(new Column("p99", "late p99 ms", "%.1f", -1));
                c.add(new Column("max", "late max ms", "%.1f", -1));
                c.add(new Column("serverCpuPct", "CPU % of a core", "%.1f", -1));
                c.add(new Column("cpuUsPerEvent", "CPU µs/event", "%.1f", -1));
                c.add(new Column("heapKbPerClient", "heap KB/client", "%.2f", -1));
                c.add(new Column("rssKbPerClient", "RSS KB/client", "%.1f", -1));
                c.add(new Column("rssMb", "RSS MB", "%.0f", 0));
                c.add(new Column("threads", "threads", "%.0f", -1));
                c.add(new Column("errors", "errors", "%.0f", 0));
            }
            case "transfer" -> {
                c.add(new Column("mibPerSec", "MiB/s", "%.0f", 1));
                c.add(new Column("seconds", "seconds", "%.2f", -1));
                c.add(new Column("cpuMsPerMiB", "CPU ms/MiB", "%.2f", -1));
                c.add(new Column("rssMb", "RSS MB", "%.0f", 0));
                c.add(new Column("rssPeakMb", "peak RSS MB", "%.0f", -1));
                c.add(new Column("threads", "threads", "%.0f", 0));
                c.add(new Column("gcCount", "GCs", "%.0f", 0));
                c.add(new Column("errors", "errors", "%.0f", 0));
            }
            case "startup" -> c.add(new Column("startupMs", "start-up ms", "%.0f", -1));
            default -> { }
        }
        return c;
    }

    /** The column whose ratio to the best peer is shown (and charted) first. */
    static Column headline(Scenario s) {
        return switch (s.kind()) {
            case "closed", "open" -> s.kind().equals("open") ? new Column("p99", "p99 ms", "%.2f", -1)
                    : new Column("rps", "req/s", "%.0f", 1);
            case "longpoll" -> new Column("resumeAllMs", "resume all ms", "%.0f", -1);
            case "idle" -> new Column("heapKbPerConn", "heap KB/conn", "%.2f", -1);
            case "sse" -> new Column("p99", "late p99 ms", "%.1f", -1);
            case "transfer" -> new Column("mibPerSec", "MiB/s", "%.0f", 1);
            default -> new Column("startupMs", "start-up ms", "%.0f", -1);
        };
    }

    /** A second ratio: the server's CPU per request (throughput scenarios), per event (SSE), per MiB (transfers). */
    static Column secondary(Scenario s) {
        return switch (s.kind()) {
            case "closed", "open" -> new Column("cpuUsPerReq", "CPU µs/req", "%.1f", -1);
            case "sse" -> new Column("cpuUsPerEvent", "CPU µs/event", "%.1f", -1);
            case "transfer" -> new Column("cpuMsPerMiB", "CPU ms/MiB", "%.2f", -1);
            default -> null;
        };
    }

    static String fmt(String format, Double v) {
        return v == null ? "" : String.format(Locale.ROOT, format, v);
    }

    static String oneLine(Scenario s, Map<String, Object> row) {
        StringBuilder b = new StringBuilder();
        for (Column c : columns(s)) {
            if (row.get(c.key()) instanceof Number n) {
                if (b.length() > 0) {
                    b.append(", ");
                }
                b.append(String.format(Locale.ROOT, c.format(), n.doubleValue())).append(' ').append(c.header());
            }
        }
        return b.toString();
    }

    // ------------------------------------------------------------------ output

    /** Writes bench-STAMP.json, .md and .html into {@code dir}; returns their paths. */
    Path[] write(Path dir, Path work) throws IOException {
        Files.createDirectories(dir);
        meta.put("loadAverageAtEnd", Proc.loadAverage());
        meta.put("logs", work.toString());
        String base = (o.smoke ? "smoke-" : "bench-") + stamp;
        Path json = dir.resolve(base + ".json");
        Path md = dir.resolve(base + ".md");
        Path html = dir.resolve(base + ".html");
        Map<String, Object> all = new LinkedHashMap<>();
        all.put("meta", meta);
        List<Map<String, Object>> ts = new ArrayList<>();
        for (Target t : targets) {
            Map<String, Object> m = new LinkedHashMap<>();
            m.put("name", t.name());
            m.put("label", t.label());
            m.put("group", t.group());
            m.put("fleche", t.self());
            m.put("command", t.command());
            m.put("checks", checks.get(t.name()));
            if (t.tls() != null) {
                m.put("tlsKey", t.tls().label);
                m.put("tlsSession", tlsSessions.get(t.name()));
            }
            ts.add(m);
        }
        all.put("targets", ts);
        List<Map<String, Object>> ss = new ArrayList<>();
        for (Scenario s : scenarios) {
            Map<String, Object> m = new LinkedHashMap<>();
            m.put("name", s.name());
            m.put("title", s.title());
            Map<String, Object> med = new LinkedHashMap<>();
            for (Target t : targets) {
                Map<String, Object> tm = new LinkedHashMap<>();
                for (Column c : columns(s)) {
                    Double v = aggregate(s.name(), t.name(), c.key());
                    if (v != null) {
                        tm.put(c.key(), v);
                    }
                }
                if (!tm.isEmpty()) {
                    tm.put("rounds", rows(s.name(), t.name()).size());
                    med.put(t.name(), tm);
                }
            }
            m.put("medians", med);
            ss.add(m);
        }
        all.put("scenarios", ss);
        all.put("rows", rows);
        all.put("problems", problems);
        new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT).writeValue(json.toFile(), all);
        Files.writeString(md, MarkdownReport.render(this), StandardCharsets.UTF_8);
        Files.writeString(html, HtmlReport.render(this), StandardCharsets.UTF_8);
        return new Path[] {json, md, html};
    }

    private String git(String... args) {
        List<String> cmd = new ArrayList<>(List.of("git", "-C", o.root.toString()));
        cmd.addAll(List.of(args));
        String out = Proc.run(cmd, 20);
        return out == null ? null : out.trim();
    }
}
