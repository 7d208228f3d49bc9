package dev.fleche.perf.fleche;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.fleche.perf.app.Item;
import dev.fleche.perf.app.Message;
import dev.fleche.transport.HttpExchange;
import dev.fleche.transport.HttpFields;
import dev.fleche.transport.HttpServer;
import dev.fleche.transport.ServerOptions;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Benchmark target: Fleche's transport with a raw handler, no JAX-RS, serving the benchmark endpoints the way the
 * other transport-ceiling peers (raw Netty, Vert.x, microhttp) do: {@code /hello}, {@code /json} and
 * {@code /echo} with Jackson, {@code /async?delayMs=N} resumed by the connection's own timer, {@code /poll},
 * {@code /waiting}, {@code /broadcast}, and {@code /sse?count=C&intervalMs=I}. Everything runs on the reactor
 * threads.
 *
 * <p>Usage: {@code FlecheRawPeer PORT [HOST]}; prints {@code READY <port>} once listening. Settings: the
 * transport's defaults, accept backlog 4096.
 */
public final class FlecheRawPeer {
    private static final byte[] HELLO = "Hello, World!".getBytes(StandardCharsets.UTF_8);
    private static final byte[] NOT_FOUND = "Not Found".getBytes(StandardCharsets.UTF_8);
    private static final byte[] SSE_EVENT = "data: Hello, World!\n\n".getBytes(StandardCharsets.UTF_8);
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final ConcurrentLinkedQueue<HttpExchange> WAITING = new ConcurrentLinkedQueue<>();
    private static final AtomicInteger WAITING_COUNT = new AtomicInteger();

    private FlecheRawPeer() {
    }

    public static void main(String[] args) throws Exception {
        int port = Integer.parseInt(args[0]);
        String host = args.length > 1 ? args[1] : "127.0.0.1";
        HttpServer server = HttpServer.create(ServerOptions.builder().address(host, port).backlog(4096).build(),
                FlecheRawPeer::handle);
        server.start();
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            try {
                server.stop(Duration.ofSeconds(2));
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }));
        System.out.println("READY " + server.port());
        System.out.flush();
    }

    private static void handle(HttpExchange ex) throws IOException {
        String path = ex.path();
        boolean get = ex.method().equals("GET");
        boolean post = ex.method().equals("POST");
        if (get && path.equals("/hello")) {
            ex.respond(200, text(), HELLO);
        } else if (get && path.equals("/json")) {
            ex.respond(200, json(), JSON.writeValueAsBytes(new Message("Hello, World!")));
        } else if (post && path.equals("/echo")) {
            echo(ex);
        } else if (get && path.equals("/async")) {
            long delay = queryLong(ex.query(), "delayMs", 130);
            ex.schedule(() -> ex.respond(200, text(), HELLO), delay, TimeUnit.MILLISECONDS);
        } else if (get && path.equals("/poll")) {
            WAITING.add(ex);
            WAITING_COUNT.incrementAndGet();
        } else if (get && path.equals("/waiting")) {
            ex.respond(200, text(), Integer.toString(WAITING_COUNT.get()).getBytes(StandardCharsets.US_ASCII));
        } else if (post && path.equals("/broadcast")) {
            int n = 0;
            for (HttpExchange w; (w = WAITING.poll()) != null; n++) {
                WAITING_COUNT.decrementAndGet();
                w.respond(200, text(), HELLO);
            }
            ex.respond(200, text(), Integer.toString(n).getBytes(StandardCharsets.US_ASCII));
        } else if (get && path.equals("/sse")) {
            sse(ex);
        } else {
            ex.respond(404, text(), NOT_FOUND);
        }
    }

    private static void echo(HttpExchange ex) throws IOException {
        if (!ex.isBodyReceived()) { // bodies above the aggregation size: not the benchmark's case
            ex.respond(413, text(), "body too large for this peer".getBytes(StandardCharsets.US_ASCII));
            return;
        }
        try (InputStream in = ex.requestBody()) {
            Item item = JSON.readValue(in, Item.class);
            ex.respond(200, json(), JSON.writeValueAsBytes(item));
        }
    }

    private static void sse(HttpExchange ex) {
        long count = queryLong(ex.query(), "count", 10);
        long interval = queryLong(ex.query(), "intervalMs", 100);
        OutputStream out = ex.startResponse(200, new HttpFields(1).add("Content-Type", "text/event-stream"), -1);
        new EventStream(ex, out, count, interval).run();
    }

    /** Writes one event per run, then schedules the next on the connection's timer; ends after {@code count}. */
    private static final class EventStream implements Runnable {
        private final HttpExchange ex;
        private final OutputStream out;
        private final long count;
        private final long intervalMs;
        private long sent;

        EventStream(HttpExchange ex, OutputStream out, long count, long intervalMs) {
            this.ex = ex;
            this.out = out;
            this.count = count;
            this.intervalMs = intervalMs;
        }

        @Override
        public void run() {
            try {
                if (sent++ == count || !ex.isOpen()) {
                    out.close();
                    return;
                }
                out.write(SSE_EVENT);
                out.flush();
                ex.schedule(this, intervalMs, TimeUnit.MILLISECONDS);
            } catch (IOException e) {
                ex.abort();
            }
        }
    }

    private static HttpFields text() {
        return new HttpFields(1).add("Content-Type", "text/plain");
    }

    private static HttpFields json() {
        return new HttpFields(1).add("Content-Type", "application/json");
    }

    static long queryLong(String query, String name, long otherwise) {
        if (query == null) {
            return otherwise;
        }
        for (String pair : query.split("&")) {
            int eq = pair.indexOf('=');
            if (eq > 0 && pair.substring(0, eq).equals(name)) {
                try {
                    return Long.parseLong(pair.substring(eq + 1));
                } catch (NumberFormatException e) {
                    return otherwise;
                }
            }
        }
        return otherwise;
    }
}
