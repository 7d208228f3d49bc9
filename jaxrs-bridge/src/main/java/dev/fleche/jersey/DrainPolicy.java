package dev.fleche.jersey;

import java.time.Duration;
import java.util.Objects;

/**
 * How a {@link Drain} stops a server.
 *
 * <table>
 *   <caption>Settings</caption>
 *   <tr><th>setting</th><th>meaning</th><th>typical</th></tr>
 *   <tr><td>{@code delay}</td><td>after readiness turns 503, the server keeps serving this long, so that load
 *       balancers (Kubernetes endpoints, kube-proxy, an ingress) stop routing new requests to it</td><td>5 s</td></tr>
 *   <tr><td>{@code grace}</td><td>after the listener closed, requests in flight get this long to finish; then
 *       the remaining connections are closed</td><td>10 s</td></tr>
 * </table>
 *
 * A pod's {@code terminationGracePeriodSeconds} must exceed {@code delay + grace}.
 *
 * @param delay keep serving after readiness went down; zero or more
 * @param grace time for the requests in flight once the listener is closed; zero or more
 */
public record DrainPolicy(Duration delay, Duration grace) {
    /** Five seconds of delay, ten of grace. */
    public static final DrainPolicy DEFAULT = new DrainPolicy(Duration.ofSeconds(5), Duration.ofSeconds(10));

    public DrainPolicy {
        Objects.requireNonNull(delay, "delay");
        Objects.requireNonNull(grace, "grace");
        if (delay.isNegative() || grace.isNegative()) {
            throw new IllegalArgumentException("delay and grace must not be negative: " + delay + ", " + grace);
        }
    }

    /** The longest a drain takes: {@code delay + grace}. */
    public Duration total() {
        return delay.plus(grace);
    }
}
