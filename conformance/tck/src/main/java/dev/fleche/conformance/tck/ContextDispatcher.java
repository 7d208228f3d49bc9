package dev.fleche.conformance.tck;

import dev.fleche.transport.HttpExchange;
import dev.fleche.transport.HttpFields;
import dev.fleche.transport.HttpHandler;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.locks.ReentrantLock;

/**
 * The transport's handler: sends each exchange to the deployment whose context root its path starts with (the
 * longest such root), as a servlet container maps requests to web applications; {@code 404} when none. Runs on
 * the reactor and only reads an immutable snapshot, so it never blocks. Each exchange is counted first in the
 * {@link ProtocolCensus} it is given (by protocol version and client).
 */
final class ContextDispatcher implements HttpHandler {
    private static final byte[] NOT_FOUND = "no application deployed at this path\n".getBytes(StandardCharsets.UTF_8);

    private final ReentrantLock lock = new ReentrantLock();
    private final ProtocolCensus census;
    private volatile List<DeployedApplication> deployments = List.of();

    ContextDispatcher(ProtocolCensus census) {
        this.census = census;
    }

    @Override
    public void handle(HttpExchange exchange) throws Exception {
        census.count(exchange);
        String path = exchange.path();
        for (DeployedApplication deployment : deployments) {
            String root = deployment.contextRoot();
            if (path.startsWith(root) && (path.length() == root.length() || path.charAt(root.length()) == '/')) {
                deployment.handle(exchange);
                return;
            }
        }
        exchange.respond(404, new HttpFields(1).add("Content-Type", "text/plain; charset=utf-8"), NOT_FOUND);
    }

    /** Adds {@code deployment}; refuses a second deployment at the same context root. */
    void add(DeployedApplication deployment) {
        lock.lock();
        try {
            for (DeployedApplication existing : deployments) {
                if (existing.contextRoot().equals(deployment.contextRoot())) {
                    throw new IllegalStateException("context root " + deployment.contextRoot()
                            + " is already deployed (" + existing.war().archiveName() + ")");
                }
            }
            List<DeployedApplication> next = new ArrayList<>(deployments);
            next.add(deployment);
            next.sort(Comparator.comparingInt((DeployedApplication d) -> d.contextRoot().length()).reversed());
            deployments = List.copyOf(next);
        } finally {
            lock.unlock();
        }
    }

    /** Removes and returns the deployment of {@code archiveName}, or null. */
    DeployedApplication remove(String archiveName) {
        lock.lock();
        try {
            List<DeployedApplication> next = new ArrayList<>(deployments);
            DeployedApplication removed = null;
            for (DeployedApplication d : next) {
                if (d.war().archiveName().equals(archiveName)) {
                    removed = d;
                }
            }
            if (removed != null) {
                next.remove(removed);
                deployments = List.copyOf(next);
            }
            return removed;
        } finally {
            lock.unlock();
        }
    }

    /** Removes and returns every deployment. */
    List<DeployedApplication> removeAll() {
        lock.lock();
        try {
            List<DeployedApplication> all = deployments;
            deployments = List.of();
            return all;
        } finally {
            lock.unlock();
        }
    }
}
