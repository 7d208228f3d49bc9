package dev.fleche.perf.peers.resteasy;

import dev.fleche.perf.app.BenchApplication;
import dev.fleche.perf.app.Peers;
import org.jboss.resteasy.core.ResteasyDeploymentImpl;
import org.jboss.resteasy.plugins.server.netty.NettyJaxrsServer;
import org.jboss.resteasy.spi.ResteasyDeployment;

/**
 * Peer: the shared {@link BenchApplication} on RESTEasy 6.2's {@code resteasy-netty4} ({@link NettyJaxrsServer},
 * Netty 4.1), default thread counts, backlog 4096 as for every peer, and the largest request size it accepts
 * ({@code Integer.MAX_VALUE} instead of 10 MiB: the upload scenario sends 1 GiB; this server collects whole
 * requests before the resource runs).
 *
 * <p>Sets {@code java.util.concurrent.ForkJoinPool.common.parallelism=2} itself, before anything touches the
 * common pool: on 2 cores the common pool's parallelism is 1, and then {@code CompletableFuture}'s async methods
 * (which RESTEasy uses to write every JSON entity) start a new thread per task. Set here rather than as a JVM flag
 * so that the flags stay the same for every target. Usage: {@code java -jar resteasy-netty-peer.jar PORT}.
 */
public final class ResteasyNettyPeer {
    private ResteasyNettyPeer() {
    }

    public static void main(String[] args) {
        System.setProperty("java.util.concurrent.ForkJoinPool.common.parallelism", "2");
        Peers.quietLogging();
        int port = Peers.port(args);
        ResteasyDeployment deployment = new ResteasyDeploymentImpl();
        deployment.setApplication(new BenchApplication());
        NettyJaxrsServer server = new NettyJaxrsServer()
                .setDeployment(deployment)
                .setHostname(Peers.host(args))
                .setPort(port)
                .setRootResourcePath("")
                .setSecurityDomain(null)
                .setBacklog(4096)
                .setMaxRequestSize(Integer.MAX_VALUE);
        server.start();
        Runtime.getRuntime().addShutdownHook(new Thread(server::stop));
        Peers.ready(port);
    }
}
