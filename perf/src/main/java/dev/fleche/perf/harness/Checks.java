package dev.fleche.perf.harness;

import dev.fleche.perf.loadgen.BlockingHttp;
import dev.fleche.perf.loadgen.Engine;
import dev.fleche.perf.loadgen.LoadReport;
import dev.fleche.perf.loadgen.LoadSpec;
import dev.fleche.perf.loadgen.Transfer;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Checks, once per target, that every endpoint it claims answers as the contract says (status, media type,
 * body), and that an unknown path answers 404. The result per endpoint is {@code ok} or what was wrong. SSE is
 * checked by the generator itself (2 subscribers, 3 broadcasts), transfers by {@link Transfer} with 100 KiB.
 */
final class Checks {
    private static final Duration TIMEOUT = Duration.ofSeconds(10);
    private static final long TRANSFER_BYTES = 100 * 1024;

    private Checks() {
    }

    static Map<String, String> run(Target t, int port) {
        if (t.tls() != null) {
            return https(port);
        }
        Map<String, String> r = new LinkedHashMap<>();
        check(r, "hello", () -> expect(get(port, "/hello"), 200, "text/plain", Scenario.HELLO_BODY));
        if (t.can(Target.JSON)) {
            check(r, "json", () -> expect(get(port, "/json"), 200, "application/json", Scenario.JSON_BODY));
        }
        if (t.can(Target.ECHO)) {
            check(r, "echo", () -> expect(BlockingHttp.exchange("127.0.0.1", port, "POST", "/echo",
                    Scenario.ECHO_BODY.getBytes(StandardCharsets.UTF_8), "application/json", TIMEOUT),
                    200, "application/json", Scenario.ECHO_BODY));
        }
        if (t.can(Target.ASYNC)) {
            check(r, "async", () -> expect(get(port, "/async?delayMs=20"), 200, "text/plain", Scenario.HELLO_BODY));
        }
        if (t.can(Target.POLL)) {
            check(r, "poll", () -> {
                String w = expectCount(get(port, "/waiting"));
                return w != null ? "/waiting: " + w : expectCount(BlockingHttp.exchange("127.0.0.1", port, "POST",
                        "/broadcast", null, null, TIMEOUT));
            });
        }
        if (t.can(Target.SSE)) {
            check(r, "sse", () -> sse(port));
        }
        if (t.can(Target.TRANSFER)) {
            check(r, "upload", () -> Transfer.upload("127.0.0.1", port, "/upload", TRANSFER_BYTES, TIMEOUT).failure());
            check(r, "download", () -> Transfer.download("127.0.0.1", port, "/download?bytes=" + TRANSFER_BYTES,
                    TRANSFER_BYTES, TIMEOUT).failure());
        }
        check(r, "404", () -> {
            int status = get(port, "/no-such-path").status();
            return status == 404 ? null : "status " + status + " for /no-such-path";
        });
        return r;
    }

    /** An HTTPS variant: {@code /hello}, a 100 KiB download and the 404, each over TLS. */
    private static Map<String, String> https(int port) {
        Map<String, String> r = new LinkedHashMap<>();
        check(r, "https hello", () -> expect(BlockingHttp.get("127.0.0.1", port, "/hello", TIMEOUT, true), 200,
                "text/plain", Scenario.HELLO_BODY));
        check(r, "https download", () -> Transfer.download("127.0.0.1", port, "/download?bytes=" + TRANSFER_BYTES,
                TRANSFER_BYTES, TIMEOUT, LoadSpec.Tls.RESUME).failure());
        check(r, "https 404", () -> {
            int status = BlockingHttp.get("127.0.0.1", port, "/no-such-path", TIMEOUT, true).status();
            return status == 404 ? null : "status " + status + " for /no-such-path";
        });
        return r;
    }

    /** Two subscribers, three broadcasts 20 ms apart: every event must arrive, numbered and stamped. */
    private static String sse(int port) throws IOException {
        LoadSpec spec = LoadSpec.builder().mode(LoadSpec.Mode.SSE).port(port).path("/sse").connections(2)
                .interval(Duration.ofMillis(20)).duration(Duration.ofMillis(60)).timeout(TIMEOUT).build();
        LoadReport report;
        try {
            report = Engine.run(spec);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return "interrupted";
        }
        if (report.errors() > 0 || report.requests() != 2 || report.events() != 6) {
            return report.requests() + " streams, " + report.events() + " events (want 2 and 6), " + report.errors()
                    + " errors" + (report.firstError() != null ? ": " + report.firstError() : "");
        }
        return null;
    }

    private interface Check {
        /** Null when fine, else what was wrong. */
        String run() throws IOException;
    }

    private static void check(Map<String, String> results, String name, Check c) {
        try {
            String problem = c.run();
            results.put(name, problem == null ? "ok" : problem);
        } catch (IOException | RuntimeException e) {
            results.put(name, e.toString());
        }
    }

    private static BlockingHttp.Response get(int port, String path) throws IOException {
        return BlockingHttp.get("127.0.0.1", port, path, TIMEOUT);
    }

    private static String expect(BlockingHttp.Response res, int status, String type, String body) {
        String got = res.bodyText();
        String ct = res.header("content-type");
        if (res.status() != status || ct == null || !ct.startsWith(type) || !got.equals(body)) {
            return "status " + res.status() + ", type " + ct + ", body '" + abbreviate(got) + "'";
        }
        return null;
    }

    private static String expectCount(BlockingHttp.Response res) {
        if (res.status() != 200 || !res.bodyText().trim().matches("\\d+")) {
            return "status " + res.status() + ", body '" + abbreviate(res.bodyText()) + "' (want a count)";
        }
        return null;
    }

    private static String abbreviate(String s) {
        return s.length() > 60 ? s.substring(0, 60) + "…" : s;
    }
}
