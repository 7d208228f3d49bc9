package dev.fleche.perf.harness;

import dev.fleche.perf.harness.Results.Column;

import java.util.List;
import java.util.Locale;
import java.util.Map;

/** The Markdown report: the run's settings, one table of medians per scenario, the checks and the problems. */
final class MarkdownReport {
    private MarkdownReport() {
    }

    static String render(Results r) {
        StringBuilder b = new StringBuilder();
        b.append("# Fleche benchmark ").append(r.stamp).append("\n\n");
        r.meta.forEach((k, v) -> {
            if (v != null) {
                b.append("- ").append(k).append(": `").append(v).append("`\n");
            }
        });
        b.append("\nMedians over rounds (errors: summed). `÷ best`: the target's median over the best peer's "
                + "(peers: every target that is not Fleche's). CPU µs/req = server CPU time (utime+stime, "
                + "/proc/PID/stat) during the measured run ÷ responses. See perf/README.md for every column.\n");
        for (Scenario s : r.scenarios) {
            b.append("\n## ").append(s.name()).append(": ").append(s.title()).append("\n\n");
            table(b, r, s);
        }
        if (!r.tlsSessions.isEmpty()) {
            b.append("\n## TLS sessions negotiated (JDK client, default protocols and cipher suites)\n\n");
            r.tlsSessions.forEach((t, session) -> b.append("- ").append(t).append(": `").append(session)
                    .append("`\n"));
        }
        b.append("\n## Endpoint checks\n\n");
        for (Map.Entry<String, Map<String, String>> e : r.checks.entrySet()) {
            b.append("- ").append(e.getKey()).append(": ");
            List<String> parts = e.getValue().entrySet().stream().map(x -> x.getKey() + " " + x.getValue()).toList();
            b.append(String.join(", ", parts)).append('\n');
        }
        b.append("\n## Problems\n\n");
        if (r.problems.isEmpty()) {
            b.append("none\n");
        }
        r.problems.forEach(p -> b.append("- ").append(p).append('\n'));
        return b.toString();
    }

    static void table(StringBuilder b, Results r, Scenario s) {
        List<Column> cols = Results.columns(s);
        Column head = Results.headline(s);
        Column second = Results.secondary(s);
        b.append("| target |");
        cols.forEach(c -> b.append(' ').append(c.header()).append(" |"));
        b.append(' ').append(head.header()).append(" ÷ best |");
        if (second != null) {
            b.append(' ').append(second.header()).append(" ÷ best |");
        }
        b.append(" rounds |\n|---|");
        cols.forEach(c -> b.append("---:|"));
        b.append("---:|");
        if (second != null) {
            b.append("---:|");
        }
        b.append("---:|\n");
        for (Target t : r.targets) {
            if (!t.can(s.feature())) {
                continue;
            }
            int rounds = r.rows(s.name(), t.name()).size();
            b.append("| ").append(t.self() ? "**" + t.name() + "**" : t.name()).append(" |");
            if (rounds == 0) {
                b.append(" failed |");
                b.append(" |".repeat(cols.size() - 1 + (second != null ? 2 : 1)));
                b.append(" 0 |\n");
                continue;
            }
            for (Column c : cols) {
                b.append(' ').append(Results.fmt(c.format(), r.aggregate(s.name(), t.name(), c.key()))).append(" |");
            }
            b.append(' ').append(ratio(r, s, t, head)).append(" |");
            if (second != null) {
                b.append(' ').append(ratio(r, s, t, second)).append(" |");
            }
            b.append(' ').append(rounds).append(" |\n");
        }
        String best = bestPeers(r, s);
        if (!best.isEmpty()) {
            b.append("\n").append(best).append('\n');
        }
    }

    /**
     * "Best peer: NAME (column), NAME (column)." for the scenario, once per TLS key type among its targets (HTTPS
     * figures are compared at equal key); empty when there is none.
     */
    static String bestPeers(Results r, Scenario s) {
        Column head = Results.headline(s);
        Column second = Results.secondary(s);
        List<TlsKeys.KeyType> keys = r.targets.stream().filter(t -> t.can(s.feature())).map(Target::tls)
                .distinct().toList();
        StringBuilder b = new StringBuilder();
        for (TlsKeys.KeyType key : keys) {
            String best = r.best(s.name(), head.key(), head.better(), key);
            if (best == null) {
                continue;
            }
            String bestSecond = second == null ? null : r.best(s.name(), second.key(), second.better(), key);
            b.append(b.length() > 0 ? " " : "").append("Best peer").append(key != null ? " (" + key.label + ")" : "")
                    .append(": ").append(best).append(" (").append(head.header()).append(')');
            if (bestSecond != null) {
                b.append(", ").append(bestSecond).append(" (").append(second.header()).append(')');
            }
            b.append('.');
        }
        return b.toString();
    }

    /** The target's median of {@code c} over the best peer's with the same TLS key (empty when unknown). */
    static String ratio(Results r, Scenario s, Target t, Column c) {
        String best = r.best(s.name(), c.key(), c.better(), t.tls());
        if (best == null) {
            return "";
        }
        Double v = r.aggregate(s.name(), t.name(), c.key());
        Double bv = r.aggregate(s.name(), best, c.key());
        if (v == null || bv == null || bv == 0) {
            return "";
        }
        return String.format(Locale.ROOT, "%.2f", v / bv);
    }
}
