package dev.fleche.perf.peers.microhttp;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.fleche.perf.app.Item;
import dev.fleche.perf.app.Message;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Consumer;
import org.microhttp.EventLoop;
import org.microhttp.Header;
import org.microhttp.Options;
import org.microhttp.OptionsBuilder;
import org.microhttp.Request;
import org.microhttp.Response;

/**
 * Transport-ceiling peer: microhttp 0.11 ({@code org.microhttp.EventLoop}).
 *
 * <p>Default concurrency (one connection event loop per core). microhttp itself adds {@code Content-Length} and
 * handles keep-alive and pipelining. The request timeout is raised from microhttp's default 60 s to 1 h so that
 * the idle-connection scenario measures memory, not microhttp closing idle connections (Netty and Vert.x have no
 * idle timeout by default either).
 *
 * <p>Endpoints (the benchmark contract, see perf/README.md): {@code /hello}, {@code /json} and {@code /echo}
 * (Jackson), {@code /async?delayMs=N} answered by a scheduler thread (microhttp's callbacks may be called from any
 * thread), and the long-poll trio. No SSE: microhttp sends whole responses only.
 *
 * <p>Usage: {@code java -jar microhttp-peer.jar PORT}; prints {@code READY <port>} once listening.
 */
public final class MicrohttpPeer {

    private static final List<Header> TEXT_PLAIN = List.of(new Header("Content-Type", "text/plain"));
    private static final List<Header> JSON_TYPE = List.of(new Header("Content-Type", "application/json"));
    private static final Response HELLO =
            new Response(200, "OK", TEXT_PLAIN, "Hello, World!".getBytes(StandardCharsets.US_ASCII));
    private static final Response NOT_FOUND =
            new Response(404, "Not Found", TEXT_PLAIN, "Not Found".getBytes(StandardCharsets.US_ASCII));
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final ScheduledExecutorService SCHEDULER = Executors.newSingleThreadScheduledExecutor(r -> {
        Thread t = new Thread(r, "bench-scheduler");
        t.setDaemon(true);
        return t;
    });
    private static final ConcurrentLinkedQueue<Consumer<Response>> WAITING = new ConcurrentLinkedQueue<>();
    private static final AtomicInteger WAITING_COUNT = new AtomicInteger();

    private MicrohttpPeer() {
    }

    public static void main(String[] args) throws Exception {
        int port = args.length > 0 ? Integer.parseInt(args[0]) : 8080;
        String host = args.length > 1 ? args[1] : "127.0.0.1";
        Options options = OptionsBuilder.newBuilder()
                .withHost(host)
                .withPort(port)
                .withReuseAddr(true)
                .withAcceptLength(4096)
                .withRequestTimeout(Duration.ofHours(1))
                .build();
        EventLoop loop = new EventLoop(options, MicrohttpPeer::handle);
        loop.start();
        System.out.println("READY " + loop.getPort());
        System.out.flush();
        loop.join();
    }

    private static void handle(Request request, Consumer<Response> callback) {
        String uri = request.uri();
        int q = uri.indexOf('?');
        String path = q < 0 ? uri : uri.substring(0, q);
        boolean get = "GET".equals(request.method());
        boolean post = "POST".equals(request.method());
        try {
            if (get && path.equals("/hello")) {
                callback.accept(HELLO);
            } else if (get && path.equals("/json")) {
                callback.accept(json(new Message("Hello, World!")));
            } else if (post && path.equals("/echo")) {
                callback.accept(json(JSON.readValue(request.body(), Item.class)));
            } else if (get && path.equals("/async")) {
                long delay = longParam(q < 0 ? null : uri.substring(q + 1), "delayMs", 130);
                SCHEDULER.schedule(() -> callback.accept(HELLO), delay, TimeUnit.MILLISECONDS);
            } else if (get && path.equals("/poll")) {
                WAITING.add(callback);
                WAITING_COUNT.incrementAndGet();
            } else if (get && path.equals("/waiting")) {
                callback.accept(text(Integer.toString(WAITING_COUNT.get())));
            } else if (post && path.equals("/broadcast")) {
                int n = 0;
                for (Consumer<Response> w; (w = WAITING.poll()) != null; n++) {
                    WAITING_COUNT.decrementAndGet();
                    w.accept(HELLO);
                }
                callback.accept(text(Integer.toString(n)));
            } else {
                callback.accept(NOT_FOUND);
            }
        } catch (IOException e) {
            callback.accept(new Response(400, "Bad Request", TEXT_PLAIN, new byte[0]));
        }
    }

    private static Response text(String body) {
        return new Response(200, "OK", TEXT_PLAIN, body.getBytes(StandardCharsets.US_ASCII));
    }

    private static Response json(Object value) throws IOException {
        return new Response(200, "OK", JSON_TYPE, JSON.writeValueAsBytes(value));
    }

    private static long longParam(String query, String name, long otherwise) {
        if (query == null) {
            return otherwise;
        }
        for (String pair : query.split("&")) {
            int eq = pair.indexOf('=');
            if (eq > 0 && pair.substring(0, eq).equals(name)) {
                return Long.parseLong(pair.substring(eq + 1));
            }
        }
        return otherwise;
    }
}
