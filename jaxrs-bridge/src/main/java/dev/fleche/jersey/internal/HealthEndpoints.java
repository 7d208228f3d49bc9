package dev.fleche.jersey.internal;

import dev.fleche.jersey.Health;
import dev.fleche.jersey.HealthCheck;
import jakarta.annotation.Priority;
import jakarta.ws.rs.Priorities;
import jakarta.ws.rs.container.ContainerRequestContext;
import jakarta.ws.rs.container.ContainerRequestFilter;
import jakarta.ws.rs.container.PreMatching;
import jakarta.ws.rs.core.FeatureContext;
import jakarta.ws.rs.core.Response;
import org.glassfish.jersey.server.spi.AbstractContainerLifecycleListener;
import org.glassfish.jersey.server.spi.Container;

import java.util.Map;

/**
 * Serves a {@link Health}'s two paths before resource matching (so they need no resource class and cannot clash
 * with one), for GET and HEAD; every other request passes through. Also moves the health to
 * {@link Health.Phase#READY} when the container starts.
 */
@PreMatching
@Priority(Priorities.AUTHENTICATION - 100)
public final class HealthEndpoints implements ContainerRequestFilter {
    /** A check's detail is cut to this many characters in the body. */
    static final int DETAIL_LIMIT = 200;
    private static final String JSON = "application/json";

    private final Health health;

    private HealthEndpoints(Health health) {
        this.health = health;
    }

    /** Registers the endpoints and the start-up listener of {@code health} in {@code context}. */
    public static void register(Health health, FeatureContext context) {
        context.register(new HealthEndpoints(health));
        context.register(new Started(health));
    }

    @Override
    public void filter(ContainerRequestContext request) {
        String method = request.getMethod();
        if (!"GET".equals(method) && !"HEAD".equals(method)) {
            return;
        }
        String path = request.getUriInfo().getPath(false);
        if (path.startsWith("/")) {
            path = path.substring(1);
        }
        if (path.equals(health.livePath())) {
            request.abortWith(answer(200, "{\"status\":\"UP\",\"phase\":\"" + health.phase() + "\"}"));
        } else if (path.equals(health.readyPath())) {
            request.abortWith(readiness());
        }
    }

    private Response readiness() {
        Health.Phase phase = health.phase();
        StringBuilder checks = new StringBuilder();
        boolean up = phase == Health.Phase.READY;
        for (Map.Entry<String, HealthCheck> entry : health.checks().entrySet()) {
            HealthCheck.Result result = run(entry.getValue());
            up &= result.up();
            checks.append(checks.length() == 0 ? "" : ",").append('"').append(entry.getKey()).append("\":{")
                    .append("\"status\":\"").append(result.up() ? "UP" : "DOWN").append("\",\"detail\":\"")
                    .append(escape(result.detail())).append("\"}");
        }
        String body = "{\"status\":\"" + (up ? "UP" : "DOWN") + "\",\"phase\":\"" + phase + "\",\"checks\":{"
                + checks + "}}";
        return answer(up ? 200 : 503, body);
    }

    private static HealthCheck.Result run(HealthCheck check) {
        try {
            HealthCheck.Result result = check.check();
            return result != null ? result : HealthCheck.Result.down("check returned null");
        } catch (Exception e) {
            return HealthCheck.Result.down(e.getClass().getSimpleName()
                    + (e.getMessage() == null ? "" : ": " + e.getMessage()));
        }
    }

    private static Response answer(int status, String body) {
        return Response.status(status).type(JSON).header("Cache-Control", "no-store").entity(body).build();
    }

    /** JSON string content: quotes, backslashes and control characters escaped; cut to {@link #DETAIL_LIMIT}. */
    static String escape(String text) {
        String cut = text.length() > DETAIL_LIMIT ? text.substring(0, DETAIL_LIMIT) : text;
        StringBuilder out = new StringBuilder(cut.length() + 8);
        for (int i = 0; i < cut.length(); i++) {
            char c = cut.charAt(i);
            if (c == '"' || c == '\\') {
                out.append('\\').append(c);
            } else if (c < 0x20) {
                out.append(String.format("\\u%04x", (int) c));
            } else {
                out.append(c);
            }
        }
        return out.toString();
    }

    /** Readiness may go up once the container serves. */
    public static final class Started extends AbstractContainerLifecycleListener {
        private final Health health;

        Started(Health health) {
            this.health = health;
        }

        @Override
        public void onStartup(Container container) {
            health.started();
        }
    }
}
