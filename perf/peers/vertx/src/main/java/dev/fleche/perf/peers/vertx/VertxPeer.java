package dev.fleche.perf.peers.vertx;

import io.vertx.core.DeploymentOptions;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.VerticleBase;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpServerOptions;
import io.vertx.ext.web.Router;

/**
 * Transport-ceiling peer: Vert.x 5 with a vertx-web {@link Router}, one verticle instance (one event loop, one
 * {@code HttpServer} sharing the port) per core.
 *
 * <p>{@code GET /hello} answers {@code 200 text/plain "Hello, World!"}; the Router answers 404 for anything
 * else. Vert.x handles keep-alive and pipelining (pipelining is on by default for the server).
 *
 * <p>Usage: {@code java -jar vertx-peer.jar PORT}; prints {@code READY <port>} once all instances listen.
 */
public final class VertxPeer extends VerticleBase {

    private static final Buffer HELLO = Buffer.buffer("Hello, World!");

    private final int port;
    private final String host;

    VertxPeer(int port, String host) {
        this.port = port;
        this.host = host;
    }

    @Override
    public Future<?> start() {
        Router router = Router.router(vertx);
        router.get("/hello").handler(ctx -> ctx.response()
                .putHeader("Content-Type", "text/plain")
                .end(HELLO));
        HttpServerOptions options = new HttpServerOptions()
                .setTcpNoDelay(true)
                .setAcceptBacklog(4096);
        return vertx.createHttpServer(options)
                .requestHandler(router)
                .listen(port, host);
    }

    public static void main(String[] args) {
        int port = args.length > 0 ? Integer.parseInt(args[0]) : 8080;
        String host = args.length > 1 ? args[1] : "127.0.0.1";
        int instances = Runtime.getRuntime().availableProcessors();
        Vertx vertx = Vertx.vertx();
        vertx.deployVerticle(() -> new VertxPeer(port, host), new DeploymentOptions().setInstances(instances))
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
