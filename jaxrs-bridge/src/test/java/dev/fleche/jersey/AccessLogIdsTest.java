package dev.fleche.jersey;

import dev.fleche.transport.AccessLog;
import dev.fleche.transport.ServerOptions;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import org.glassfish.jersey.server.ResourceConfig;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.logging.Handler;
import java.util.logging.Level;
import java.util.logging.LogRecord;
import java.util.logging.Logger;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * FlecheRequestIds feeds the transport's access log: the request id the application saw (kept or generated) and
 * the trace id of a valid {@code traceparent} are on the request's line.
 */
class AccessLogIdsTest {
    private static final String TRACEPARENT = "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01";
    /** HTTP/1.1: the lines below are an HTTP/1.1 exchange's (the JDK client would otherwise upgrade to h2c). */
    private final HttpClient client = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
            .connectTimeout(Duration.ofSeconds(5)).build();
    private final Logger logger = Logger.getLogger("test.bridge.access");
    private final List<String> lines = new CopyOnWriteArrayList<>();
    private final Handler capture = new Handler() {
        @Override
        public void publish(LogRecord record) {
            lines.add(record.getMessage());
        }

        @Override
        public void flush() {
        }

        @Override
        public void close() {
        }
    };
    private FlecheHttpServer server;

    @Path("hi")
    public static class Hi {
        @GET
        public String hi() {
            return "hi";
        }
    }

    @AfterEach
    void stop() throws InterruptedException {
        if (server != null) {
            server.stop(Duration.ofSeconds(1));
        }
        logger.removeHandler(capture);
    }

    private void start() {
        logger.setUseParentHandlers(false);
        logger.setLevel(Level.INFO);
        logger.addHandler(capture);
        AccessLog log = AccessLog.builder().logger("test.bridge.access")
                .clock(Clock.fixed(Instant.parse("2026-01-02T03:04:05.678Z"), ZoneOffset.UTC)).build();
        server = FlecheHttpServerFactory.createServer(URI.create("http://127.0.0.1:0/"),
                new ResourceConfig(Hi.class).register(FlecheRequestIds.class),
                ServerOptions.builder().address("127.0.0.1", 0).reactors(1).nanoClock(() -> 0L).accessLog(log).build());
    }

    private String line(int n) {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (lines.size() < n) {
            assertTrue(System.nanoTime() - deadline < 0, "no access-log line " + n + ": " + lines);
            java.util.concurrent.locks.LockSupport.parkNanos(1_000_000);
        }
        return lines.get(n - 1);
    }

    private HttpResponse<String> get(String... headers) throws Exception {
        HttpRequest.Builder request = HttpRequest.newBuilder(server.baseUri().resolve("hi"))
                .timeout(Duration.ofSeconds(10)).header("User-Agent", "ids-test");
        for (int i = 0; i < headers.length; i += 2) {
            request.header(headers[i], headers[i + 1]);
        }
        return client.send(request.build(), HttpResponse.BodyHandlers.ofString());
    }

    @Test
    void generatedAndKeptIdsAndTheTraceIdReachTheLine() throws Exception {
        start();
        HttpResponse<String> generated = get("X-Request-Id", "bad id!", "traceparent", TRACEPARENT);
        String id = generated.headers().firstValue(FlecheRequestIds.HEADER).orElseThrow();
        String first = line(1);
        assertTrue(first.startsWith("{\"time\":\"2026-01-02T03:04:05.678Z\",\"remote\":\"127.0.0.1\","
                + "\"method\":\"GET\",\"target\":\"/hi\",\"protocol\":\"HTTP/1.1\",\"status\":200,\"bytesIn\":0,"
                + "\"bytesOut\":"), first);
        assertTrue(first.endsWith(",\"durationMicros\":0,\"connection\":1,\"requestId\":\"" + id + "\","
                + "\"traceId\":\"4bf92f3577b34da6a3ce929d0e0e4736\",\"userAgent\":\"ids-test\"}"), first);

        get("X-Request-Id", "kept-1");
        assertTrue(line(2).endsWith(",\"requestId\":\"kept-1\",\"userAgent\":\"ids-test\"}"), line(2));
        assertEquals(2, lines.size());
    }
}
