package dev.fleche.jersey;

import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.container.AsyncResponse;
import jakarta.ws.rs.container.Suspended;
import org.glassfish.jersey.CommonProperties;
import org.glassfish.jersey.server.ResourceConfig;
import org.glassfish.jersey.server.monitoring.ApplicationEvent;
import org.glassfish.jersey.server.monitoring.ApplicationEventListener;
import org.glassfish.jersey.server.monitoring.RequestEvent;
import org.glassfish.jersey.server.monitoring.RequestEventListener;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** FlecheMetrics: exact meter values after a scripted sequence of requests, and a Prometheus scrape. */
class MetricsTest {
    private final HttpClient client = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
    /** One permit per request Jersey finished (after jersey-micrometer's listener recorded it). */
    private final Semaphore finished = new Semaphore(0);
    private FlecheHttpServer server;

    static volatile CountDownLatch entered = new CountDownLatch(1);
    static final CompletableFuture<AsyncResponse> SUSPENDED = new CompletableFuture<>();
    static volatile CountDownLatch release = new CountDownLatch(1);

    @Path("hello")
    public static class Hello {
        @GET
        public String hello() {
            return "hello";
        }

        @GET
        @Path("suspend")
        public void suspend(@Suspended AsyncResponse response) {
            SUSPENDED.complete(response);
        }

        @GET
        @Path("block")
        public String block() throws InterruptedException {
            entered.countDown();
            return release.await(10, TimeUnit.SECONDS) ? "released" : "never released";
        }
    }

    @Path("items")
    public static class Items {
        @GET
        @Path("{id}")
        public String item(@jakarta.ws.rs.PathParam("id") int id) {
            if (id == 500) {
                throw new IllegalStateException("unmapped");
            }
            if (id == 409) {
                throw new jakarta.ws.rs.WebApplicationException(409);
            }
            if (id == 303) {
                return null;
            }
            return "item " + id;
        }

        @GET
        @Path("moved")
        public jakarta.ws.rs.core.Response moved() {
            return jakarta.ws.rs.core.Response.seeOther(URI.create("/items/1")).build();
        }

        @jakarta.ws.rs.POST
        @jakarta.ws.rs.Consumes("application/json")
        public String post(String body) {
            return body;
        }
    }

    @Path("timed")
    public static class TimedResource {
        @GET
        @io.micrometer.core.annotation.Timed("custom.timed")
        public String timed() {
            return "timed";
        }
    }

    /** Counts finished requests; ranked after the metrics listener (Jersey calls listeners by ascending rank). */
    final class Finished implements ApplicationEventListener {
        @Override
        public void onEvent(ApplicationEvent event) {
        }

        @Override
        public RequestEventListener onRequest(RequestEvent start) {
            return event -> {
                if (event.getType() == RequestEvent.Type.FINISHED) {
                    finished.release();
                }
            };
        }
    }

    @AfterEach
    void stop() throws InterruptedException {
        if (server != null) {
            server.stop(Duration.ofSeconds(1));
        }
    }

    private void start(FlecheMetrics metrics) {
        start(metrics, new ResourceConfig(Hello.class));
    }

    private void start(FlecheMetrics metrics, ResourceConfig config) {
        config.register(metrics).register(new Finished(), Integer.MAX_VALUE);
        server = FlecheHttpServerFactory.createServer(URI.create("http://127.0.0.1:0/"), config);
    }

    private int get(String path) throws Exception {
        HttpRequest request = HttpRequest.newBuilder(server.baseUri().resolve(path)).timeout(Duration.ofSeconds(10))
                .build();
        return client.send(request, HttpResponse.BodyHandlers.ofString()).statusCode();
    }

    /** Three requests to a resource, one to nothing, all on one kept-alive connection. */
    private void script() throws Exception {
        assertEquals(200, get("hello"));
        assertEquals(200, get("hello"));
        assertEquals(200, get("hello"));
        assertEquals(404, get("missing"));
        assertTrue(finished.tryAcquire(4, 10, TimeUnit.SECONDS), "Jersey finished the 4 requests");
    }

    @Test
    void transportAndResourceMeters() throws Exception {
        SimpleMeterRegistry registry = new SimpleMeterRegistry();
        start(FlecheMetrics.builder(registry).percentiles(0.5, 0.99).build());
        script();

        assertEquals(4.0, count(registry, "fleche.requests"));
        // the JDK client upgrades to h2c on its first request: all four are HTTP/2 streams
        assertEquals(4.0, count(registry, "fleche.requests.by.protocol", "protocol", "HTTP/2"));
        assertEquals(0.0, count(registry, "fleche.requests.by.protocol", "protocol", "HTTP/1.1"));
        assertEquals(0.0, count(registry, "fleche.requests.by.protocol", "protocol", "HTTP/1.0"));
        assertEquals(1.0, count(registry, "fleche.http2.connections"));
        assertEquals(0.0, count(registry, "fleche.http2.streams.reset"));
        assertEquals(1.0, count(registry, "fleche.connections.accepted"), "the client kept its connection");
        assertEquals(0.0, count(registry, "fleche.connections.refused"));
        assertEquals(1.0, registry.get("fleche.connections.open").gauge().value());
        assertEquals(0.0, count(registry, "fleche.protocol.errors"));
        assertEquals(0.0, count(registry, "fleche.timeouts"));
        assertEquals(0.0, count(registry, "fleche.handler.errors"));
        assertEquals(0.0, count(registry, "fleche.workers.rejected"));
        assertEquals(0.0, registry.get("fleche.timers.armed").gauge().value());
        assertEquals(0.0, registry.get("fleche.workers.queued").gauge().value());
        assertEquals((double) server.transport().metrics().bytesRead(), count(registry, "fleche.bytes.read"));
        assertTrue(count(registry, "fleche.bytes.written") > 0);
        assertEquals(0.0, count(registry, "fleche.responses", "status", "1xx"));
        assertEquals(3.0, count(registry, "fleche.responses", "status", "2xx"));
        assertEquals(0.0, count(registry, "fleche.responses", "status", "3xx"));
        assertEquals(1.0, count(registry, "fleche.responses", "status", "4xx"));
        assertEquals(0.0, count(registry, "fleche.responses", "status", "5xx"));
        assertEquals(0.0, count(registry, "fleche.refusals", "rule", "HEADER_SECTION_TOO_LARGE"));
        assertEquals(dev.fleche.transport.ServerMetrics.refusalRules().size(),
                registry.get("fleche.refusals").functionCounters().size(), "one counter per rule");
        assertEquals(0.0, registry.get("fleche.exchanges.in.flight").gauge().value());
        assertEquals(0.0, registry.get("fleche.output.queued").gauge().value(), "every answer was taken");
        assertEquals(0.0, count(registry, "fleche.refusals", "rule", "HTTP2_RESETS"), "an HTTP/2 budget's trips");
        assertEquals(0.0, registry.get("fleche.requests.suspended").gauge().value());
        assertEquals(0.0, count(registry, "fleche.accesslog.dropped"));

        Timer hello = registry.get(FlecheMetrics.DEFAULT_REQUEST_METRIC).tags("uri", "/hello", "status", "200",
                "method", "GET", "outcome", "SUCCESS").timer();
        assertEquals(3, hello.count());
        assertEquals(2, hello.takeSnapshot().percentileValues().length, "the percentiles asked for");
        assertEquals(1, registry.get(FlecheMetrics.DEFAULT_REQUEST_METRIC).tags("status", "404").timer().count());
        assertEquals(2, registry.get(FlecheMetrics.DEFAULT_REQUEST_METRIC).timers().size());
    }

    /** The same meters, tags and counts as jersey-micrometer's own listener, fed the same requests. */
    @Test
    void requestTimersMatchJerseyMicrometer() throws Exception {
        SimpleMeterRegistry ours = new SimpleMeterRegistry();
        SimpleMeterRegistry jerseys = new SimpleMeterRegistry();
        start(new FlecheMetrics(ours), new ResourceConfig(Hello.class, Items.class).register(
                new org.glassfish.jersey.micrometer.server.MetricsApplicationEventListener(jerseys,
                        new org.glassfish.jersey.micrometer.server.DefaultJerseyTagsProvider(),
                        FlecheMetrics.DEFAULT_REQUEST_METRIC, true)));
        String[] paths = {"hello", "hello", "items/7", "items/8", "items/500", "items/409", "items/409",
            "items/303", "items/moved", "missing", "items/x"};
        for (String path : paths) {
            get(path);
        }
        HttpRequest head = HttpRequest.newBuilder(server.baseUri().resolve("hello"))
                .method("HEAD", HttpRequest.BodyPublishers.noBody()).timeout(Duration.ofSeconds(10)).build();
        assertEquals(200, client.send(head, HttpResponse.BodyHandlers.discarding()).statusCode());
        assertTrue(finished.tryAcquire(paths.length + 1, 10, TimeUnit.SECONDS));

        Map<String, Long> expected = timers(jerseys);
        assertEquals(9, expected.size(), expected.toString());
        assertEquals(expected, timers(ours));
        assertEquals(2L, expected.get("[tag(exception=WebApplicationException), tag(method=GET), "
                + "tag(outcome=CLIENT_ERROR), tag(status=409), tag(uri=/items/{id})]"), expected.toString());

        // Ours also times what is refused before a resource method matched (jersey-micrometer's does not).
        HttpRequest post = HttpRequest.newBuilder(server.baseUri().resolve("items"))
                .POST(HttpRequest.BodyPublishers.ofString("x")).header("Content-Type", "text/plain")
                .timeout(Duration.ofSeconds(10)).build();
        assertEquals(415, client.send(post, HttpResponse.BodyHandlers.discarding()).statusCode());
        assertTrue(finished.tryAcquire(1, 10, TimeUnit.SECONDS));
        assertEquals(1, ours.get(FlecheMetrics.DEFAULT_REQUEST_METRIC).tags("status", "415").timer().count());
    }

    /** With a {@code @Timed} method, jersey-micrometer's own listener times the requests. */
    @Test
    void timedAnnotationsAreHonoured() throws Exception {
        SimpleMeterRegistry registry = new SimpleMeterRegistry();
        start(new FlecheMetrics(registry), new ResourceConfig(Hello.class, TimedResource.class));
        assertEquals(200, get("timed"));
        assertEquals(200, get("hello"));
        assertTrue(finished.tryAcquire(2, 10, TimeUnit.SECONDS));
        assertEquals(1, registry.get("custom.timed").timer().count());
        assertEquals(1, registry.get(FlecheMetrics.DEFAULT_REQUEST_METRIC).tags("uri", "/hello").timer().count());
    }

    /** Each request timer of {@code registry}: its sorted tags and its count. */
    private static Map<String, Long> timers(MeterRegistry registry) {
        Map<String, Long> timers = new java.util.TreeMap<>();
        for (Timer timer : registry.get(FlecheMetrics.DEFAULT_REQUEST_METRIC).timers()) {
            timers.put(timer.getId().getTags().toString(), timer.count());
        }
        return timers;
    }

    @Test
    void prometheusScrape() throws Exception {
        PrometheusMeterRegistry registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
        start(FlecheMetrics.builder(registry).requestMetricName("app.requests").build());
        script();

        Map<String, Double> samples = parse(registry.scrape());
        assertEquals(4.0, samples.get("fleche_requests_total"), samples.toString());
        assertEquals(1.0, samples.get("fleche_connections_accepted_total"));
        assertEquals(4.0, samples.get("fleche_requests_by_protocol_total{protocol=\"HTTP/2\"}"));
        assertEquals(0.0, samples.get("fleche_requests_by_protocol_total{protocol=\"HTTP/1.1\"}"));
        assertEquals(1.0, samples.get("fleche_http2_connections_total"));
        assertEquals(1.0, samples.get("fleche_connections_open"));
        assertEquals(0.0, samples.get("fleche_workers_rejected_total"));
        assertEquals((double) server.transport().metrics().bytesRead(), samples.get("fleche_bytes_read_bytes_total"));
        assertEquals(3.0, samples.get("app_requests_seconds_count{exception=\"None\",method=\"GET\","
                + "outcome=\"SUCCESS\",status=\"200\",uri=\"/hello\"}"), samples.keySet().toString());
        assertEquals(1.0, samples.get("app_requests_seconds_count{exception=\"None\",method=\"GET\","
                + "outcome=\"CLIENT_ERROR\",status=\"404\",uri=\"NOT_FOUND\"}"), samples.keySet().toString());
        assertEquals(3.0, samples.get("fleche_responses_total{status=\"2xx\"}"));
        assertEquals(1.0, samples.get("fleche_responses_total{status=\"4xx\"}"));
        assertEquals(0.0, samples.get("fleche_refusals_total{rule=\"OVERLOADED\"}"));
        assertEquals(0.0, samples.get("fleche_exchanges_in_flight"));
        assertEquals(0.0, samples.get("fleche_requests_suspended"));

        // a refusal by the parser, on a connection of its own
        try (dev.fleche.transport.testing.RawHttp raw = new dev.fleche.transport.testing.RawHttp(server.port())) {
            raw.send("GET /hello HTTP/1.1\r\nHost: t\r\nName : x\r\n\r\n");
            assertEquals(400, raw.read().status());
        }
        samples = parse(registry.scrape());
        assertEquals(1.0, samples.get("fleche_refusals_total{rule=\"FIELD_NAME_WHITESPACE\"}"),
                samples.toString());
        assertEquals(2.0, samples.get("fleche_responses_total{status=\"4xx\"}"));
    }

    @Test
    void suspendedAndInFlightGauges() throws Exception {
        SimpleMeterRegistry registry = new SimpleMeterRegistry();
        start(new FlecheMetrics(registry));
        CompletableFuture<HttpResponse<String>> pending = client.sendAsync(HttpRequest.newBuilder(
                server.baseUri().resolve("hello/suspend")).timeout(Duration.ofSeconds(10)).build(),
                HttpResponse.BodyHandlers.ofString());
        AsyncResponse suspended = SUSPENDED.get(10, TimeUnit.SECONDS);
        until("suspended",
                () -> registry.get("fleche.requests.suspended").gauge().value() == 1.0);
        assertEquals(1.0, registry.get("fleche.exchanges.in.flight").gauge().value());
        suspended.resume("resumed");
        assertEquals("resumed", pending.get(10, TimeUnit.SECONDS).body());
        until("not suspended",
                () -> registry.get("fleche.requests.suspended").gauge().value() == 0.0
                        && registry.get("fleche.exchanges.in.flight").gauge().value() == 0.0);
    }

    @Test
    void saturatedWorkersAreCounted() throws Exception {
        entered = new CountDownLatch(1);
        release = new CountDownLatch(1);
        SimpleMeterRegistry registry = new SimpleMeterRegistry();
        start(new FlecheMetrics(registry), new ResourceConfig(Hello.class)
                .property(CommonProperties.USE_VIRTUAL_THREADS, false)
                .property(FlecheProperties.WORKER_THREADS, 1).property(FlecheProperties.WORKER_QUEUE, 0));
        CompletableFuture<HttpResponse<String>> first = client.sendAsync(HttpRequest.newBuilder(
                server.baseUri().resolve("hello/block")).timeout(Duration.ofSeconds(10)).build(),
                HttpResponse.BodyHandlers.ofString());
        assertTrue(entered.await(10, TimeUnit.SECONDS));
        assertEquals(1.0, registry.get("fleche.workers.in.flight").gauge().value());
        assertEquals(503, get("hello"));
        assertEquals(503, get("hello"));
        assertEquals(2.0, count(registry, "fleche.workers.rejected"));
        release.countDown();
        assertEquals("released", first.get(10, TimeUnit.SECONDS).body());
        assertEquals(3.0, count(registry, "fleche.requests"));
    }

    @Test
    void settingsAreChecked() {
        MeterRegistry registry = new SimpleMeterRegistry();
        assertThrows(IllegalArgumentException.class, () -> FlecheMetrics.builder(registry).percentiles(1.0));
        assertThrows(IllegalArgumentException.class, () -> FlecheMetrics.builder(registry).percentiles(0));
        assertThrows(IllegalArgumentException.class, () -> FlecheMetrics.builder(registry).requestMetricName(" "));
        assertThrows(IllegalArgumentException.class, () -> FlecheMetrics.builder(null));
    }

    /** Polls {@code condition} until it holds; fails after 10 s. */
    private static void until(String what, java.util.function.BooleanSupplier condition) {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (!condition.getAsBoolean()) {
            assertTrue(System.nanoTime() - deadline < 0, "timed out waiting for: " + what);
            java.util.concurrent.locks.LockSupport.parkNanos(1_000_000);
        }
    }

    private static double count(MeterRegistry registry, String name) {
        return registry.get(name).functionCounter().count();
    }

    private static double count(MeterRegistry registry, String name, String tag, String value) {
        return registry.get(name).tag(tag, value).functionCounter().count();
    }

    /** The Prometheus text format: {@code name{labels} value} per sample line, comments skipped. */
    private static Map<String, Double> parse(String scrape) {
        Pattern sample = Pattern.compile("^([a-zA-Z_:][a-zA-Z0-9_:]*(?:\\{[^}]*\\})?) (\\S+)$");
        Map<String, Double> samples = new HashMap<>();
        for (String line : scrape.split("\n")) {
            if (line.startsWith("#") || line.isBlank()) {
                continue;
            }
            Matcher m = sample.matcher(line);
            assertTrue(m.matches(), "not a sample line: " + line);
            samples.put(m.group(1), Double.parseDouble(m.group(2)));
        }
        return samples;
    }
}
