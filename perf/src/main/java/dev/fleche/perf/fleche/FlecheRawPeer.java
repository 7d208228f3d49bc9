package dev.fleche.perf.fleche;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.fleche.perf.app.EventData;
import dev.fleche.perf.app.Item;
import dev.fleche.perf.app.Message;
import dev.fleche.perf.app.PeerTls;
import dev.fleche.perf.app.Peers;
import dev.fleche.transport.HttpExchange;
import dev.fleche.transport.HttpFields;
import dev.fleche.transport.HttpServer;
import dev.fleche.transport.ServerOptions;
import dev.fleche.transport.TlsOptions;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Benchmark target: Fleche's transport with a raw handler, no JAX-RS, serving the benchmark endpoints the way the
 * other transport-ceiling peers (raw Netty, Vert.x, microhttp) do: {@code /hello}, {@code /json} and
 * {@code /echo} with Jackson, {@code /async?delayMs=N} resumed by the connection's own timer, {@code /poll},
 * {@code /waiting}, {@code /broadcast}, the SSE trio {@code /sse}, {@code /sse/subscribers},
 * {@code /sse/broadcast} (the broadcast writes the event to every subscriber's stream from the reactor thread that
 * took the request), {@code /upload} and {@code /download?bytes=N}. Everything runs on the reactor threads but the
 * uploads and downloads: their blocking reads and writes run on a thread of their own each (a cached pool).
 *
 * <p>Usage: {@code FlecheRawPeer PORT [HOST] [--tls KEYSTORE PASSWORD]}; prints {@code READY <port>} once
 * listening. Settings: the transport's defaults, but the accept backlog (4096) and the request body limit (none,
 * instead of 64 MiB, so that uploads larger than that are not refused). With {@code --tls} (see {@link PeerTls})
 * it serves the same endpoints over HTTPS ({@code ServerOptions.tls}, the transport's TLS defaults).
 */
public final class FlecheRawPeer {
    private static final byte[] HELLO = "Hello, World!".getBytes(StandardCharsets.UTF_8);
    private static final byte[] NOT_FOUND = "Not Found".getBytes(StandardCharsets.UTF_8);
    private static final int TRANSFER_BUFFER = 64 * 1024;
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final ConcurrentLinkedQueue<HttpExchange> WAITING = new ConcurrentLinkedQueue<>();
    private static final AtomicInteger WAITING_COUNT = new AtomicInteger();
    private static final Set<Subscriber> SUBSCRIBERS = ConcurrentHashMap.newKeySet();
    private static final AtomicLong SENT = new AtomicLong();
    private static final ExecutorService TRANSFERS = Executors.newCachedThreadPool(r -> {
        Thread t = new Thread(r, "transfer");
        t.setDaemon(true);
        return t;
    });

    private FlecheRawPeer() {
    }

    public static void main(String[] args) throws Exception {
        int port = Peers.port(args);
        String host = Peers.host(args);
        PeerTls tls = PeerTls.fromArgs(args);
        ServerOptions.Builder options = ServerOptions.builder().address(host, port).backlog(4096)
                .maxBodyBytes(Long.MAX_VALUE);
        if (tls != null) {
            options.tls(TlsOptions.builder(tls.serverContext()).build());
        }
        HttpServer server = HttpServer.create(options.build(), FlecheRawPeer::handle);
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
            subscribe(ex);
        } else if (get && path.equals("/sse/subscribers")) {
            ex.respond(200, text(), Integer.toString(SUBSCRIBERS.size()).getBytes(StandardCharsets.US_ASCII));
        } else if (post && path.equals("/sse/broadcast")) {
            ex.respond(200, text(), Integer.toString(broadcast()).getBytes(StandardCharsets.US_ASCII));
        } else if (post && path.equals("/upload")) {
            TRANSFERS.execute(() -> upload(ex));
        } else if (get && path.equals("/download")) {
            long bytes = queryLong(ex.query(), "bytes", 0);
            TRANSFERS.execute(() -> download(ex, bytes));
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

    /** An open event stream. */
    private record Subscriber(HttpExchange ex, OutputStream out) {
    }

    /** Starts the event stream (its head goes out at once) and keeps it until the client leaves. */
    private static void subscribe(HttpExchange ex) throws IOException {
        OutputStream out = ex.startResponse(200, new HttpFields(1).add("Content-Type", "text/event-stream"), -1);
        Subscriber s = new Subscriber(ex, out);
        SUBSCRIBERS.add(s);
        ex.onDisconnect(() -> SUBSCRIBERS.remove(s));
        out.flush();
    }

    /** Writes the next event to every subscriber; one that cannot take it is dropped. Returns the subscribers. */
    private static int broadcast() {
        byte[] event = ("data: " + EventData.of(SENT.incrementAndGet()) + "\n\n").getBytes(StandardCharsets.US_ASCII);
        for (Subscriber s : SUBSCRIBERS) {
            try {
                s.out().write(event);
                s.out().flush();
            } catch (IOException e) {
                SUBSCRIBERS.remove(s);
                s.ex().abort();
            }
        }
        return SUBSCRIBERS.size();
    }

    /** On a transfer thread: reads the body to its end, answers its length. */
    private static void upload(HttpExchange ex) {
        byte[] buffer = new byte[TRANSFER_BUFFER];
        long total = 0;
        try (InputStream in = ex.requestBody()) {
            for (int n; (n = in.read(buffer)) >= 0; ) {
                total += n;
            }
        } catch (IOException e) {
            ex.abort();
            return;
        }
        ex.respond(200, text(), Long.toString(total).getBytes(StandardCharsets.US_ASCII));
    }

    /** On a transfer thread: writes {@code bytes} zeros, chunked, 64 KiB at a time. */
    private static void download(HttpExchange ex, long bytes) {
        byte[] zeros = new byte[TRANSFER_BUFFER];
        try (OutputStream out = ex.startResponse(200,
                new HttpFields(1).add("Content-Type", "application/octet-stream"), -1)) {
            for (long left = bytes; left > 0; ) {
                int n = (int) Math.min(left, zeros.length);
                out.write(zeros, 0, n);
                left -= n;
            }
        } catch (IOException e) {
            ex.abort();
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
