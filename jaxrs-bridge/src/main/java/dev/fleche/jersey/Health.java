package dev.fleche.jersey;

import dev.fleche.jersey.internal.HealthEndpoints;
import jakarta.ws.rs.core.Feature;
import jakarta.ws.rs.core.FeatureContext;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;

/**
 * Liveness and readiness endpoints, opt in: register an instance with the application
 * ({@code resourceConfig.register(Health.builder().check("database", store::ping).build())}).
 *
 * <table>
 *   <caption>Endpoints (paths relative to the application's base URI; GET and HEAD)</caption>
 *   <tr><th>path (default)</th><th>200 when</th><th>503 when</th></tr>
 *   <tr><td>{@code /health/live}</td><td>the process serves requests</td><td>never (no answer is the signal)</td></tr>
 *   <tr><td>{@code /health/ready}</td><td>{@link Phase#READY} and every {@link HealthCheck} up</td>
 *       <td>{@link Phase#STARTING}, {@link Phase#DRAINING}, or a check down or throwing</td></tr>
 * </table>
 *
 * Bodies are JSON: {@code {"status":"UP","phase":"READY","checks":{"database":{"status":"UP","detail":""}}}},
 * with {@code Cache-Control: no-store}. Liveness runs no checks on purpose: a database outage must take the
 * instance out of the load balancer (readiness), not restart it (liveness).
 *
 * <pre>
 *  [STARTING] ──container started (onStartup)──▶ [READY] ──{@link #drain()}──▶ [DRAINING] (final)
 * </pre>
 *
 * One instance belongs to one application; it is thread-safe.
 */
public final class Health implements Feature {
    /** Where the instance is in its life; readiness is 503 in every phase but {@link #READY}. */
    public enum Phase { STARTING, READY, DRAINING }

    private final String livePath;
    private final String readyPath;
    private final Map<String, HealthCheck> checks;
    private volatile Phase phase = Phase.STARTING;

    private Health(Builder builder) {
        this.livePath = builder.livePath;
        this.readyPath = builder.readyPath;
        this.checks = Collections.unmodifiableMap(new LinkedHashMap<>(builder.checks));
    }

    /** A builder with the default paths and no checks. */
    public static Builder builder() {
        return new Builder();
    }

    @Override
    public boolean configure(FeatureContext context) {
        HealthEndpoints.register(context, livePath, readyPath, checks, this::phase, Phase.READY, this::started);
        return true;
    }

    /** The current phase. */
    public Phase phase() {
        return phase;
    }

    /** The server serves: readiness may answer 200 (unless already draining). Called on container start-up. */
    public void started() {
        if (phase == Phase.STARTING) {
            phase = Phase.READY;
        }
    }

    /** From now on readiness answers 503, for good. Called by {@link Drain}. */
    public void drain() {
        phase = Phase.DRAINING;
    }

    /** The liveness path, relative to the application's base, without a leading slash. */
    public String livePath() {
        return livePath;
    }

    /** The readiness path, relative to the application's base, without a leading slash. */
    public String readyPath() {
        return readyPath;
    }

    /** The application checks by name, in registration order. */
    public Map<String, HealthCheck> checks() {
        return checks;
    }

    /** Builds a {@link Health}; every setter validates. */
    public static final class Builder {
        private String livePath = "health/live";
        private String readyPath = "health/ready";
        private final Map<String, HealthCheck> checks = new LinkedHashMap<>();

        private Builder() {
        }

        /** The liveness path under the application's base (default {@code /health/live}). */
        public Builder livePath(String path) {
            livePath = relative(path);
            return this;
        }

        /** The readiness path under the application's base (default {@code /health/ready}). */
        public Builder readyPath(String path) {
            readyPath = relative(path);
            return this;
        }

        /** Adds a readiness check; names are unique, letters, digits, {@code -_.} only (they are JSON keys). */
        public Builder check(String name, HealthCheck check) {
            Objects.requireNonNull(check, "check");
            if (name == null || !name.matches("[A-Za-z0-9._-]{1,64}")) {
                throw new IllegalArgumentException("check name must be 1-64 of [A-Za-z0-9._-]: " + name);
            }
            if (checks.putIfAbsent(name, check) != null) {
                throw new IllegalArgumentException("duplicate check name: " + name);
            }
            return this;
        }

        public Health build() {
            if (livePath.equals(readyPath)) {
                throw new IllegalArgumentException("liveness and readiness need distinct paths: " + livePath);
            }
            return new Health(this);
        }

        private static String relative(String path) {
            if (path == null || path.isBlank() || !path.matches("/?[A-Za-z0-9._~/-]+")) {
                throw new IllegalArgumentException("health path must be a plain path: " + path);
            }
            String trimmed = path.startsWith("/") ? path.substring(1) : path;
            if (trimmed.isEmpty() || trimmed.endsWith("/") || trimmed.contains("//")) {
                throw new IllegalArgumentException("health path must name a resource: " + path);
            }
            return trimmed;
        }
    }
}
