package dev.fleche.perf.peers.resteasy;

import dev.fleche.perf.app.BenchApplication;
import dev.fleche.perf.app.Peers;
import io.undertow.Undertow;
import io.undertow.UndertowOptions;
import org.jboss.resteasy.plugins.server.undertow.UndertowJaxrsServer;
import org.xnio.Options;

/**
 * Peer: the shared {@link BenchApplication} on RESTEasy 6.2's {@code resteasy-undertow}
 * ({@link UndertowJaxrsServer}, Undertow's servlet container), default thread counts, backlog 4096 as for every
 * peer, and no request entity limit ({@code UndertowOptions.MAX_ENTITY_SIZE}: 2 MiB by default, which the upload
 * scenario's 1 GiB exceeds; RESTEasy answers such a request 500). Sets
 * {@code java.util.concurrent.ForkJoinPool.common.parallelism=2} itself for the reason given in
 * {@code ResteasyNettyPeer}. Usage: {@code java -jar resteasy-undertow-peer.jar PORT}.
 */
public final class ResteasyUndertowPeer {
    private ResteasyUndertowPeer() {
    }

    public static void main(String[] args) {
        System.setProperty("java.util.concurrent.ForkJoinPool.common.parallelism", "2");
        Peers.quietLogging();
        int port = Peers.port(args);
        UndertowJaxrsServer server = new UndertowJaxrsServer();
        server.start(Undertow.builder()
                .addHttpListener(port, Peers.host(args))
                .setSocketOption(Options.BACKLOG, 4096)
                .setServerOption(UndertowOptions.MAX_ENTITY_SIZE, Long.MAX_VALUE));
        server.deploy(new BenchApplication());
        Runtime.getRuntime().addShutdownHook(new Thread(server::stop));
        Peers.ready(port);
    }
}
