package dev.fleche.perf.harness;

import dev.fleche.perf.harness.Results.Column;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The HTML report: one self-contained file (inline CSS and SVG, no script, no external asset). Per scenario the
 * table of medians, a bar chart of its headline figure (and of CPU per request, per SSE event or per MiB
 * transferred) and, where latencies were measured (SSE: event lateness), a latency-percentile chart (p50, p90,
 * p99, p99.9, max on a log scale, one line per target). Fleche's targets are drawn in orange, peers in blue.
 */
final class HtmlReport {
    private static final String[] PALETTE = {"#1f77b4", "#2ca02c", "#d62728", "#9467bd", "#8c564b", "#e377c2",
        "#7f7f7f", "#bcbd22", "#17becf", "#393b79", "#637939", "#8c6d31", "#843c39", "#7b4173", "#3182bd"};
    private static final String FLECHE = "#ff7f0e";

    private HtmlReport() {
    }

    static String render(Results r) {
        StringBuilder b = new StringBuilder(64 * 1024);
        b.append("<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">\n<title>Fleche benchmark ")
                .append(esc(r.stamp)).append("</title>\n<style>\n")
                .append("body{font:14px/1.45 system-ui,sans-serif;margin:24px auto;max-width:1100px;color:#222;padding:0 16px}")
                .append("h1{font-size:22px}h2{font-size:17px;margin-top:34px;border-bottom:1px solid #ddd;padding-bottom:4px}")
                .append("table{border-collapse:collapse;margin:8px 0;font-size:12.5px}")
                .append("td,th{border:1px solid #ddd;padding:3px 7px;text-align:right}")
                .append("td:first-child,th:first-child{text-align:left}th{background:#f4f4f4}")
                .append("tr.self td{background:#fff4e8;font-weight:600}")
                .append(".meta{font-size:12.5px;color:#444}.meta code{background:#f4f4f4;padding:0 3px}")
                .append(".charts{display:flex;flex-wrap:wrap;gap:18px}.bad{color:#c00}.ok{color:#080}")
                .append("svg text{font:11px system-ui,sans-serif}details{margin:10px 0}pre{font-size:11px;overflow:auto}")
                .append("\n</style></head><body>\n");
        b.append("<h1>Fleche benchmark ").append(esc(r.stamp)).append("</h1>\n<ul class=\"meta\">\n");
        r.meta.forEach((k, v) -> {
            if (v != null) {
                b.append("<li>").append(esc(k)).append(": <code>").append(esc(String.valueOf(v))).append("</code></li>\n");
            }
        });
        b.append("</ul>\n<p class=\"meta\">Medians over rounds (errors: summed); <em>÷ best</em> is the median over "
                + "the best peer's. CPU µs/req = server CPU time during the measured run ÷ responses: the figure least "
                + "disturbed by a shared machine. Absolute numbers drift ±30&nbsp;% between runs on this box: compare "
                + "within a run.</p>\n");
        if (!r.problems.isEmpty()) {
            b.append("<h2 class=\"bad\">Problems</h2><ul>\n");
            r.problems.forEach(p -> b.append("<li class=\"bad\">").append(esc(p)).append("</li>\n"));
            b.append("</ul>\n");
        }
        for (Scenario s : r.scenarios) {
            scenario(b, r, s);
        }
        checks(b, r);
        b.append("<details><summary>raw rows</summary><pre>");
        for (Map<String, Object> row : r.rows) {
            b.append(esc(row.toString())).append('\n');
        }
        b.append("</pre></details>\n</body></html>\n");
        return b.toString();
    }

    private static void scenario(StringBuilder b, Results r, Scenario s) {
        b.append("<h2 id=\"").append(esc(s.name())).append("\">").append(esc(s.name())).append(": ")
                .append(esc(s.title())).append("</h2>\n");
        table(b, r, s);
        List<Target> shown = r.targets.stream().filter(t -> t.can(s.feature()) && !r.rows(s.name(), t.name()).isEmpty()).toList();
        if (shown.isEmpty()) {
            return;
        }
        b.append("<div class=\"charts\">\n");
        bars(b, r, s, shown, Results.headline(s));
        Column second = Results.secondary(s);
        if (second != null) {
            bars(b, r, s, shown, second);
        }
        switch (s.kind()) {
            case "closed", "open" -> latency(b, r, s, shown);
            case "longpoll" -> bars(b, r, s, shown, new Column("heapKbPerClient", "heap KB/client", "%.2f", -1));
            case "idle" -> bars(b, r, s, shown, new Column("rssKbPerConn", "RSS KB/conn", "%.1f", -1));
            case "sse" -> {
                latency(b, r, s, shown);
                bars(b, r, s, shown, new Column("heapKbPerClient", "heap KB/client", "%.2f", -1));
            }
            case "transfer" -> bars(b, r, s, shown, new Column("rssPeakMb", "peak RSS MB", "%.0f", -1));
            default -> { }
        }
        b.append("</div>\n");
    }

    private static void table(StringBuilder b, Results r, Scenario s) {
        List<Column> cols = Results.columns(s);
        Column head = Results.headline(s);
        Column second = Results.secondary(s);
        b.append("<table><tr><th>target</th>");
        cols.forEach(c -> b.append("<th>").append(esc(c.header())).append("</th>"));
        b.append("<th>").append(esc(head.header())).append(" ÷ best</th>");
        if (second != null) {
            b.append("<th>").append(esc(second.header())).append(" ÷ best</th>");
        }
        b.append("<th>rounds</th></tr>\n");
        for (Target t : r.targets) {
            if (!t.can(s.feature())) {
                continue;
            }
            int rounds = r.rows(s.name(), t.name()).size();
            b.append("<tr").append(t.self() ? " class=\"self\"" : "").append("><td title=\"")
                    .append(esc(t.label())).append("\">").append(esc(t.name())).append("</td>");
            for (Column c : cols) {
                b.append("<td>").append(Results.fmt(c.format(), r.aggregate(s.name(), t.name(), c.key()))).append("</td>");
            }
            b.append("<td>").append(MarkdownReport.ratio(r, s, t, head)).append("</td>");
            if (second != null) {
                b.append("<td>").append(MarkdownReport.ratio(r, s, t, second)).append("</td>");
            }
            b.append("<td>").append(rounds == 0 ? "<span class=\"bad\">failed</span>" : rounds).append("</td></tr>\n");
        }
        b.append("</table>\n");
        String best = MarkdownReport.bestPeers(r, s);
        if (!best.isEmpty()) {
            b.append("<p class=\"meta\">").append(esc(best)).append("</p>\n");
        }
    }

    /** A horizontal bar chart of {@code c}'s median per target. */
    static void bars(StringBuilder b, Results r, Scenario s, List<Target> shown, Column c) {
        List<Target> ts = new ArrayList<>();
        List<Double> vs = new ArrayList<>();
        for (Target t : shown) {
            Double v = r.aggregate(s.name(), t.name(), c.key());
            if (v != null) {
                ts.add(t);
                vs.add(v);
            }
        }
        if (ts.isEmpty()) {
            return;
        }
        double max = vs.stream().mapToDouble(Double::doubleValue).max().orElse(1);
        max = max <= 0 ? 1 : max;
        int label = 150;
        int width = 520;
        int bar = width - label - 70;
        int rowH = 20;
        int height = 26 + ts.size() * rowH + 6;
        b.append("<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"").append(width).append("\" height=\"").append(height)
                .append("\" role=\"img\"><title>").append(esc(s.name() + ": " + c.header())).append("</title>");
        b.append("<text x=\"0\" y=\"14\" font-weight=\"600\">").append(esc(c.header()))
                .append(c.better() > 0 ? " (higher is better)" : c.better() < 0 ? " (lower is better)" : "")
                .append("</text>");
        for (int i = 0; i < ts.size(); i++) {
            int y = 26 + i * rowH;
            double w = Math.max(1, vs.get(i) / max * bar);
            Target t = ts.get(i);
            b.append("<text x=\"").append(label - 6).append("\" y=\"").append(y + 13).append("\" text-anchor=\"end\">")
                    .append(esc(t.name())).append("</text>");
            b.append(String.format(Locale.ROOT, "<rect x=\"%d\" y=\"%d\" width=\"%.1f\" height=\"%d\" fill=\"%s\"/>",
                    label, y + 2, w, rowH - 5, t.self() ? FLECHE : PALETTE[0]));
            b.append(String.format(Locale.ROOT, "<text x=\"%.1f\" y=\"%d\">%s</text>", label + w + 4, y + 13,
                    esc(Results.fmt(c.format(), vs.get(i)))));
        }
        b.append("</svg>\n");
    }

    /** Latency percentiles, log-scaled, one line per target. */
    static void latency(StringBuilder b, Results r, Scenario s, List<Target> shown) {
        String[] keys = {"p50", "p90", "p99", "p99.9", "max"};
        List<Target> ts = new ArrayList<>();
        List<double[]> vs = new ArrayList<>();
        double lo = Double.MAX_VALUE;
        double hi = 0;
        for (Target t : shown) {
            double[] v = new double[keys.length];
            boolean any = false;
            for (int i = 0; i < keys.length; i++) {
                Double x = r.aggregate(s.name(), t.name(), keys[i]);
                v[i] = x == null ? Double.NaN : Math.max(x, 0.001);
                if (x != null) {
                    any = true;
                    lo = Math.min(lo, v[i]);
                    hi = Math.max(hi, v[i]);
                }
            }
            if (any) {
                ts.add(t);
                vs.add(v);
            }
        }
        if (ts.isEmpty()) {
            return;
        }
        double logLo = Math.floor(Math.log10(lo));
        double logHi = Math.ceil(Math.log10(hi));
        if (logHi <= logLo) {
            logHi = logLo + 1;
        }
        int left = 50;
        int top = 26;
        int plotW = 300;
        int plotH = 220;
        int legendX = left + plotW + 20;
        int width = legendX + 170;
        int height = Math.max(top + plotH + 34, top + ts.size() * 15 + 10);
        b.append("<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"").append(width).append("\" height=\"")
                .append(height).append("\" role=\"img\"><title>").append(esc(s.name())).append(s.kind().equals("sse") ? ": event lateness" : ": latency")
                .append(" percentiles</title>");
        b.append("<text x=\"0\" y=\"14\" font-weight=\"600\">").append(s.kind().equals("sse") ? "event lateness"
                : "latency").append(" by percentile, ms (log scale; lower is better)</text>");
        for (double e = logLo; e <= logHi; e++) {
            double y = top + plotH - (e - logLo) / (logHi - logLo) * plotH;
            b.append(String.format(Locale.ROOT, "<line x1=\"%d\" y1=\"%.1f\" x2=\"%d\" y2=\"%.1f\" stroke=\"#ddd\"/>",
                    left, y, left + plotW, y));
            b.append(String.format(Locale.ROOT, "<text x=\"%d\" y=\"%.1f\" text-anchor=\"end\">%s</text>", left - 4, y + 4,
                    tick(Math.pow(10, e))));
        }
        for (int i = 0; i < keys.length; i++) {
            double x = left + i * (plotW / (double) (keys.length - 1));
            b.append(String.format(Locale.ROOT, "<text x=\"%.1f\" y=\"%d\" text-anchor=\"middle\">%s</text>", x,
                    top + plotH + 16, keys[i]));
        }
        int color = 0;
        for (int k = 0; k < ts.size(); k++) {
            Target t = ts.get(k);
            String stroke = t.self() ? FLECHE : PALETTE[color++ % PALETTE.length];
            StringBuilder pts = new StringBuilder();
            for (int i = 0; i < keys.length; i++) {
                if (Double.isNaN(vs.get(k)[i])) {
                    continue;
                }
                double x = left + i * (plotW / (double) (keys.length - 1));
                double y = top + plotH - (Math.log10(vs.get(k)[i]) - logLo) / (logHi - logLo) * plotH;
                pts.append(String.format(Locale.ROOT, "%.1f,%.1f ", x, y));
            }
            b.append("<polyline fill=\"none\" stroke-width=\"").append(t.self() ? "2.5" : "1.5")
                    .append("\" stroke=\"").append(stroke).append("\"")
                    .append(t.self() && t.name().endsWith("-nb") ? " stroke-dasharray=\"5,3\"" : "")
                    .append(" points=\"").append(pts.toString().trim()).append("\"/>");
            int ly = top + k * 15;
            b.append(String.format(Locale.ROOT, "<line x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\" stroke=\"%s\" stroke-width=\"2.5\"/>",
                    legendX, ly + 6, legendX + 16, ly + 6, stroke));
            b.append(String.format(Locale.ROOT, "<text x=\"%d\" y=\"%d\">%s</text>", legendX + 20, ly + 10, esc(t.name())));
        }
        b.append("</svg>\n");
    }

    private static void checks(StringBuilder b, Results r) {
        b.append("<h2>Endpoint checks</h2>\n<table><tr><th>target</th><th>checks</th></tr>\n");
        r.checks.forEach((t, c) -> {
            b.append("<tr><td>").append(esc(t)).append("</td><td style=\"text-align:left\">");
            c.forEach((what, status) -> b.append(status.equals("ok") ? "<span class=\"ok\">" : "<span class=\"bad\">")
                    .append(esc(what)).append(status.equals("ok") ? " ✓" : ": " + esc(status)).append("</span> "));
            b.append("</td></tr>\n");
        });
        b.append("</table>\n");
    }

    private static String tick(double v) {
        return v >= 1 ? String.format(Locale.ROOT, "%.0f", v) : String.format(Locale.ROOT, "%s", v);
    }

    static String esc(String s) {
        return s.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;").replace("\"", "&quot;");
    }
}
