package dev.fleche.perf.harness;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * One thing measured on a target.
 *
 * @param kind how it runs: {@code closed} (throughput: wrk, or the project's generator), {@code open} (fixed rate,
 *             the generator), {@code longpoll}, {@code idle} and {@code sse} (the generator, each on a fresh
 *             server for long-poll and idle), {@code startup} (measured at every server start)
 * @param feature the endpoint a target needs for it
 * @param connections connections (long-poll, idle, SSE: clients)
 * @param depth requests in flight per connection (pipelining when &gt; 1)
 */
record Scenario(String name, String kind, String feature, String method, String path, String body,
                String expectBody, int connections, int depth, String title) {

    static final String HELLO_BODY = "Hello, World!";
    static final String JSON_BODY = "{\"message\":\"Hello, World!\"}";
    static final String ECHO_BODY = "{\"name\":\"wrk\",\"amount\":12.34}";
    static final int ASYNC_DELAY_MS = 130;

    /** SSE: the events each stream carries (the {@code count} of the path). */
    int sseEvents() {
        int at = path.indexOf("count=");
        if (at < 0) {
            return 0;
        }
        int end = path.indexOf('&', at);
        return Integer.parseInt(path.substring(at + 6, end < 0 ? path.length() : end));
    }

    boolean throughput() {
        return kind.equals("closed") || kind.equals("open");
    }

    boolean freshServer() {
        return kind.equals("longpoll") || kind.equals("idle");
    }

    /** For async scenarios: connections / delay, the most a server can answer. */
    double idealRate() {
        return path.startsWith("/async") ? connections / (ASYNC_DELAY_MS / 1000.0) : 0;
    }

    /**
     * Every scenario, for a run of the given size. {@code smoke} shrinks connection counts so that a CI run takes
     * seconds; {@code longPollClients}, {@code idleConnections} and {@code rate} come from the options.
     */
    static Map<String, Scenario> all(boolean smoke, int longPollClients, int idleConnections, int rate) {
        int c = 100;
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
                "GET /hello at a fixed " + rate + " req/s over " + c + " connections (open loop, coordinated "
                        + "omission corrected)"));
        add(m, new Scenario("longpoll", "longpoll", Target.POLL, "GET", "/poll", null, HELLO_BODY, longPollClients, 1,
                longPollClients + " clients wait on GET /poll; one POST /broadcast resumes them all"));
        add(m, new Scenario("idle", "idle", Target.HELLO, "GET", "/hello", null, HELLO_BODY, idleConnections, 1,
                idleConnections + " keep-alive connections, one GET /hello each, then idle"));
        int sseClients = smoke ? 50 : 1000;
        int events = smoke ? 5 : 20;
        int interval = smoke ? 20 : 50;
        add(m, new Scenario("sse", "sse", Target.SSE, "GET", "/sse?count=" + events + "&intervalMs=" + interval, null,
                null, sseClients, 1, sseClients + " clients each read " + events + " server-sent events, one every "
                + interval + " ms"));
        add(m, new Scenario("startup", "startup", Target.HELLO, "GET", "/hello", null, HELLO_BODY, 1, 1,
                "JVM start to the first 200 on GET /hello"));
        return m;
    }

    private static void add(Map<String, Scenario> m, Scenario s) {
        m.put(s.name(), s);
    }
}
