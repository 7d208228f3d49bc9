package dev.fleche.perf.peers.microhttp;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import org.microhttp.EventLoop;
import org.microhttp.Header;
import org.microhttp.Options;
import org.microhttp.OptionsBuilder;
import org.microhttp.Response;

/**
 * Transport-ceiling peer: microhttp 0.11 ({@code org.microhttp.EventLoop}).
 *
 * <p>Default concurrency (one connection event loop per core). microhttp itself adds {@code Content-Length} and
 * handles keep-alive and pipelining. The request timeout is raised from microhttp's default 60 s to 1 h so that
 * the idle-connection scenario measures memory, not microhttp closing idle connections (Netty and Vert.x have no
 * idle timeout by default either).
 *
 * <p>Usage: {@code java -jar microhttp-peer.jar PORT}; prints {@code READY <port>} once listening.
 */
public final class MicrohttpPeer {

    private static final List<Header> TEXT_PLAIN = List.of(new Header("Content-Type", "text/plain"));
    private static final Response HELLO =
            new Response(200, "OK", TEXT_PLAIN, "Hello, World!".getBytes(StandardCharsets.US_ASCII));
    private static final Response NOT_FOUND =
            new Response(404, "Not Found", TEXT_PLAIN, "Not Found".getBytes(StandardCharsets.US_ASCII));

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
        EventLoop loop = new EventLoop(options, (request, callback) -> {
            boolean hello = "GET".equals(request.method()) && "/hello".equals(request.uri());
            callback.accept(hello ? HELLO : NOT_FOUND);
        });
        loop.start();
        System.out.println("READY " + loop.getPort());
        System.out.flush();
        loop.join();
    }
}
