package dev.fleche.perf.harness;

import dev.fleche.perf.loadgen.LoadSpec;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * One thing measured on a target.
 *
 * @param kind how it runs: {@code closed} (throughput: wrk, or the project's generator), {@code open} (fixed rate,
 *             the generator), {@code longpoll}, {@code idle} and {@code sse} (the generator), {@code transfer}
 *             (one large body, {@link dev.fleche.perf.loadgen.Transfer}), {@code startup} (measured at every server
 *             start); long-poll, idle, SSE and transfers each on a fresh server
 * @param feature the endpoint a target needs for it
 * @param connections connections (long-poll, idle, SSE: clients; transfer: 1)
 * @param depth requests in flight per connection (pipelining when &gt; 1)
 * @param tls how the generator speaks to the target: plain HTTP, or HTTPS with or without session resumption
 *            (the {@code tls-*} scenarios, run on the targets' HTTPS variants)
 * @param connectionPerRequest closed loop: a new connection, hence a new TLS handshake, for every request
 */
record Scenario(String name, String kind, String feature, String method, String path, String body,
                String expectBody, int connections, int depth, String title, LoadSpec.Tls tls,
                boolean connectionPerRequest) {

    /** A plain-HTTP scenario. */
    Scenario(String name, String kind, String feature, String method, String path, String body, String expectBody,
             int connections, int depth, String title) {
        this(name, kind, feature, method, path, body, expectBody, connections, depth, title, LoadSpec.Tls.NONE,
                false);
    }

    static final String HELLO_BODY = "Hello, World!";
    static final String JSON_BODY = "{\"message\":\"Hello, World!\"}";
    static final String ECHO_BODY = "{\"name\":\"wrk\",\"amount\":12.34}";
    static final int ASYNC_DELAY_MS = 130;

    boolean throughput() {
        return kind.equals("closed") || kind.equals("open");
    }

    boolean freshServer() {
        return kind.equals("longpoll") || kind.equals("idle") || kind.equals("sse") || kind.equals("transfer");
    }

    /** For async scenarios: connections / delay, the most a server can answer. */
    double idealRate() {
        return path.startsWith("/async") ? connections / (ASYNC_DELAY_MS / 1000.0) : 0;
    }

    /**
     * Every scenario, for a run of the given size: smoke mode shrinks connection counts so that a CI run takes
     * seconds; long-poll, idle and SSE clients, the rate and the transfer size come from the options.
     */
    static Map<String, Scenario> all(Options o) {
        boolean smoke = o.smoke;
        int c = o.connections;
        Map<String, Scenario> m = new LinkedHashMap<>();
        add(m, new Scenario("hello", "closed", Target.HELLO, "GET", "/hello", null, HELLO_BODY, c, 1,
                "GET /hello, " + c + " connections"));
        add(m, new Scenario("json", "closed", Target.JSON, "GET", "/json", null, JSON_BODY, c, 1,
                "GET /json (Jackson), " + c + " connections"));
        add(m, new Scenario("echo", "closed", Target.ECHO, "POST", "/echo", ECHO_BODY, ECHO_BODY, c, 1,
                "POST /echo (JSON in and out), " + c + " connections"));
        add(m, new Scenario("pipeline", "closed", Target.PIPELINE, "GET", "/hello", null, HELLO_BODY, c, 16,
                "GET /hello, " + c + " connections, 16 pipelined requests per write"));
        for (int n : new int[] {1000, 2000, 5000}) {
            int conns = smoke ? n / 10 : n;
            add(m, new Scenario("async-" + n, "closed", Target.ASYNC, "GET", "/async?delayMs=" + ASYNC_DELAY_MS,
                    null, HELLO_BODY, conns, 1, "GET /async?delayMs=" + ASYNC_DELAY_MS + " (suspended, resumed by a "
                    + "scheduler), " + conns + " connections; ideal " + Math.round(conns / 0.13) + " req/s"));
        }
        add(m, new Scenario("rate", "open", Target.HELLO, "GET", "/hello", null, HELLO_BODY, c, 1,
                "GET /hello at a fixed " + o.rate + " req/s over " + c + " connections (open loop, coordinated "
                        + "omission corrected)"));
        add(m, new Scenario("longpoll", "longpoll", Target.POLL, "GET", "/poll", null, HELLO_BODY, o.longPoll, 1,
                o.longPoll + " clients wait on GET /poll; one POST /broadcast resumes them all"));
        add(m, new Scenario("idle", "idle", Target.HELLO, "GET", "/hello", null, HELLO_BODY, o.idle, 1,
                o.idle + " keep-alive connections, one GET /hello each, then idle"));
        long every = o.sseInterval().toMillis();
        add(m, new Scenario("sse", "sse", Target.SSE, "GET", "/sse", null, null, o.sse, 1, o.sse
                + " clients subscribed to GET /sse each receive one event every " + (every % 1000 == 0 ? every / 1000
                + " s" : every + " ms") + " (one POST /sse/broadcast, sent through one broadcaster)"));
        String size = size(o.transferBytes);
        add(m, new Scenario("upload", "transfer", Target.TRANSFER, "POST", "/upload", null, null, 1, 1,
                "POST /upload of " + size + ", read as a stream, answered with its length; server with "
                        + Options.TRANSFER_HEAP));
        add(m, new Scenario("download", "transfer", Target.TRANSFER, "GET", "/download?bytes=" + o.transferBytes,
                null, null, 1, 1, "GET /download of " + size + ", written as a stream; server with "
                        + Options.TRANSFER_HEAP));
        int tc = smoke ? 10 : c; // smoke: cold JVMs do 100 concurrent handshakes too slowly for a 0.3 s window
        add(m, new Scenario("tls-hello", "closed", Target.HTTPS, "GET", "/hello", null, HELLO_BODY, tc, 1,
                "HTTPS: GET /hello, " + tc + " keep-alive connections", LoadSpec.Tls.RESUME, false));
        add(m, new Scenario("tls-handshake-full", "closed", Target.HTTPS, "GET", "/hello", null, HELLO_BODY, tc, 1,
                "HTTPS: GET /hello on a new connection each, " + tc + " at a time, every handshake full (no session "
                        + "offered)", LoadSpec.Tls.FULL, true));
        add(m, new Scenario("tls-handshake-resumed", "closed", Target.HTTPS, "GET", "/hello", null, HELLO_BODY, tc,
                1, "HTTPS: GET /hello on a new connection each, " + tc + " at a time, the session resumed (TLS 1.3 "
                        + "PSK / TLS 1.2)", LoadSpec.Tls.RESUME, true));
        add(m, new Scenario("tls-download", "transfer", Target.HTTPS_TRANSFER, "GET", "/download?bytes="
                + o.transferBytes, null, null, 1, 1, "HTTPS: GET /download of " + size + ", written as a stream; "
                + "server with " + Options.TRANSFER_HEAP, LoadSpec.Tls.RESUME, false));
        add(m, new Scenario("tls-idle", "idle", Target.HTTPS, "GET", "/hello", null, HELLO_BODY, o.idle, 1,
                o.idle + " HTTPS keep-alive connections, each a full handshake and one GET /hello, then idle",
                LoadSpec.Tls.FULL, false));
        add(m, new Scenario("startup", "startup", Target.HELLO, "GET", "/hello", null, HELLO_BODY, 1, 1,
                "JVM start to the first 200 on GET /hello"));
        return m;
    }

    /** {@code bytes} in the largest binary unit that divides it: {@code 1 GiB}, {@code 4 MiB}, {@code 1000 bytes}. */
    static String size(long bytes) {
        String[] units = {"GiB", "MiB", "KiB"};
        for (int i = 0; i < units.length; i++) {
            long unit = 1L << (30 - 10 * i);
            if (bytes % unit == 0) {
                return bytes / unit + " " + units[i];
            }
        }
        return bytes + " bytes";
    }

    private static void add(Map<String, Scenario> m, Scenario s) {
        m.put(s.name(), s);
    }
}
