package dev.fleche.perf.peers.vertx;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.fleche.perf.app.EventData;
import dev.fleche.perf.app.Item;
import dev.fleche.perf.app.Message;
import dev.fleche.perf.app.PeerTls;
import dev.fleche.perf.app.Peers;
import io.vertx.core.DeploymentOptions;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.VerticleBase;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpServerOptions;
import io.vertx.core.http.HttpVersion;
import io.vertx.core.http.HttpServerRequest;
import io.vertx.core.http.HttpServerResponse;
import io.vertx.core.net.JdkSSLEngineOptions;
import io.vertx.core.net.KeyStoreOptions;
import io.vertx.ext.web.Router;
import io.vertx.ext.web.RoutingContext;
import java.io.IOException;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Transport-ceiling peer: Vert.x 5 with a vertx-web {@link Router}, one verticle instance (one event loop, one
 * {@code HttpServer} sharing the port) per core.
 *
 * <p>Endpoints (the benchmark contract, see perf/README.md): {@code GET /hello} answers
 * {@code 200 text/plain "Hello, World!"}; {@code GET /json} and {@code POST /echo} use Jackson;
 * {@code GET /async?delayMs=N} answers from a Vert.x timer; {@code /poll}, {@code /waiting}, {@code /broadcast}
 * are the long-poll trio; {@code /sse}, {@code /sse/subscribers}, {@code /sse/broadcast} the SSE trio (each
 * verticle keeps its own subscribers, on its own event loop; a broadcast is published on the event bus, and every
 * verticle writes it to its subscribers); {@code POST /upload} counts the body's bytes as they pass;
 * {@code GET /download?bytes=N} writes N zeros, chunked, 64 KiB at a time until the write queue is full, the rest
 * from its drain handler; the Router answers 404 for anything else. Vert.x handles keep-alive and pipelining
 * (pipelining is on by default for the server).
 *
 * <p>Usage: {@code java -jar vertx-peer.jar PORT [HOST] [--tls KEYSTORE PASSWORD] [--h2]}; prints {@code READY <port>}
 * once all instances listen. With {@code --tls} (see {@link PeerTls}) every instance serves HTTPS with the store as
 * {@link KeyStoreOptions} and {@link JdkSSLEngineOptions} (the JDK's {@code SSLEngine}, no OpenSSL); protocols and
 * cipher suites are Vert.x's defaults.
 *
 * <p>With {@code --h2} (perf/h2bench.sh) it also serves HTTP/2: clear-text h2 ({@code setHttp2ClearTextEnabled},
 * prior knowledge or Upgrade) and, with {@code --tls}, ALPN offering {@code h2} then {@code http/1.1}
 * ({@code setUseAlpn}, the JDK's ALPN). Vert.x's HTTP/2 settings are its defaults.
 */
public final class VertxPeer extends VerticleBase {

    private static final String HELLO_TEXT = "Hello, World!";
    private static final Buffer HELLO = Buffer.buffer(HELLO_TEXT);
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final ConcurrentLinkedQueue<RoutingContext> WAITING = new ConcurrentLinkedQueue<>();
    private static final AtomicInteger WAITING_COUNT = new AtomicInteger();
    private static final String SSE_ADDRESS = "sse.broadcast";
    private static final AtomicInteger SUBSCRIBERS = new AtomicInteger();
    private static final AtomicLong SENT = new AtomicLong();
    private static final int CHUNK = 64 * 1024;
    private static final Buffer ZEROS = Buffer.buffer(new byte[CHUNK]);

    /** This verticle's event streams, touched on its event loop only. */
    private final Set<HttpServerResponse> subscribers = new HashSet<>();

    private final int port;
    private final String host;
    private final PeerTls tls;
    private final boolean h2;

    VertxPeer(int port, String host, PeerTls tls, boolean h2) {
        this.h2 = h2;
        this.port = port;
        this.host = host;
        this.tls = tls;
    }

    @Override
    public Future<?> start() {
        Router router = Router.router(vertx);
        router.get("/hello").handler(ctx -> text(ctx.response()).end(HELLO));
        router.get("/json").handler(ctx -> json(ctx.response()).end(jsonBytes(new Message(HELLO_TEXT))));
        router.post("/echo").handler(ctx -> ctx.request().body().onSuccess(body -> {
            try {
                Item item = JSON.readValue(body.getBytes(), Item.class);
                json(ctx.response()).end(jsonBytes(item));
            } catch (IOException e) {
                ctx.response().setStatusCode(400).end();
            }
        }));
        router.get("/async").handler(ctx -> {
            long delay = longParam(ctx, "delayMs", 130);
            vertx.setTimer(Math.max(1, delay), id -> text(ctx.response()).end(HELLO));
        });
        router.get("/poll").handler(ctx -> {
            WAITING.add(ctx);
            WAITING_COUNT.incrementAndGet();
        });
        router.get("/waiting").handler(ctx -> text(ctx.response()).end(Integer.toString(WAITING_COUNT.get())));
        router.post("/broadcast").handler(ctx -> {
            int n = 0;
            for (RoutingContext w; (w = WAITING.poll()) != null; n++) {
                WAITING_COUNT.decrementAndGet();
                text(w.response()).end(HELLO);
            }
            text(ctx.response()).end(Integer.toString(n));
        });
        router.get("/sse").handler(ctx -> subscribe(ctx.response()));
        router.get("/sse/subscribers").handler(ctx -> text(ctx.response()).end(Integer.toString(SUBSCRIBERS.get())));
        router.post("/sse/broadcast").handler(ctx -> {
            vertx.eventBus().publish(SSE_ADDRESS, "data: " + EventData.of(SENT.incrementAndGet()) + "\n\n");
            text(ctx.response()).end(Integer.toString(SUBSCRIBERS.get()));
        });
        vertx.eventBus().<String>localConsumer(SSE_ADDRESS, message -> {
            for (HttpServerResponse res : subscribers) {
                res.write(message.body());
            }
        });
        router.post("/upload").handler(ctx -> {
            HttpServerRequest req = ctx.request();
            long[] total = {0};
            req.handler(chunk -> total[0] += chunk.length());
            req.endHandler(v -> text(ctx.response()).end(Long.toString(total[0])));
            req.resume();
        });
        router.get("/download").handler(ctx -> {
            HttpServerResponse res = ctx.response().setChunked(true).putHeader("Content-Type", "application/octet-stream");
            download(res, longParam(ctx, "bytes", 0));
        });
        HttpServerOptions options = new HttpServerOptions()
                .setTcpNoDelay(true)
                .setAcceptBacklog(4096);
        if (tls != null) {
            options.setSsl(true).setSslEngineOptions(new JdkSSLEngineOptions()).setKeyCertOptions(
                    new KeyStoreOptions().setType("PKCS12").setPath(tls.keyStore().toString())
                            .setPassword(tls.password()));
        }
        if (h2) {
            options.setHttp2ClearTextEnabled(true).setUseAlpn(true)
                    .setAlpnVersions(List.of(HttpVersion.HTTP_2, HttpVersion.HTTP_1_1));
        }
        return vertx.createHttpServer(options)
                .requestHandler(router)
                .listen(port, host);
    }

    /** Sends the stream's head; the stream stays in {@link #subscribers} until it closes. */
    private void subscribe(HttpServerResponse res) {
        res.setChunked(true).putHeader("Content-Type", "text/event-stream").write("");
        subscribers.add(res);
        SUBSCRIBERS.incrementAndGet();
        res.closeHandler(v -> {
            subscribers.remove(res);
            SUBSCRIBERS.decrementAndGet();
        });
    }

    /** Writes zeros until the write queue is full, then continues from the drain handler; ends after {@code left}. */
    private static void download(HttpServerResponse res, long left) {
        long rest = left;
        while (rest > 0 && !res.writeQueueFull()) {
            int n = (int) Math.min(CHUNK, rest);
            res.write(n == CHUNK ? ZEROS : ZEROS.slice(0, n));
            rest -= n;
        }
        if (rest == 0) {
            res.end();
        } else {
            long remaining = rest;
            res.drainHandler(v -> download(res, remaining));
        }
    }

    private static HttpServerResponse text(HttpServerResponse res) {
        return res.putHeader("Content-Type", "text/plain");
    }

    private static HttpServerResponse json(HttpServerResponse res) {
        return res.putHeader("Content-Type", "application/json");
    }

    private static Buffer jsonBytes(Object value) {
        try {
            return Buffer.buffer(JSON.writeValueAsBytes(value));
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
    }

    private static long longParam(RoutingContext ctx, String name, long otherwise) {
        String v = ctx.request().getParam(name);
        return v == null ? otherwise : Long.parseLong(v);
    }

    public static void main(String[] args) {
        int port = args.length > 0 ? Integer.parseInt(args[0]) : 8080;
        String host = Peers.host(args);
        PeerTls tls = PeerTls.fromArgs(args);
        boolean h2 = List.of(args).contains("--h2");
        int instances = Runtime.getRuntime().availableProcessors();
        Vertx vertx = Vertx.vertx();
        vertx.deployVerticle(() -> new VertxPeer(port, host, tls, h2), new DeploymentOptions().setInstances(instances))
                .onSuccess(id -> {
                    System.out.println("READY " + port);
                    System.out.flush();
                })
                .onFailure(err -> {
                    err.printStackTrace();
                    System.exit(1);
                });
    }
}
