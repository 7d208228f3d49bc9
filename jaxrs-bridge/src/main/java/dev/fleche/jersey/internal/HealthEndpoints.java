package dev.fleche.jersey.internal;

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
import java.util.function.Supplier;

/**
 * Serves a health's two paths ({@code dev.fleche.jersey.Health}, which registers it with what it serves: its paths,
 * its phase, its checks) before resource matching (so they need no resource class and cannot clash with one), for GET
 * and HEAD; every other request passes through. Also tells the health when the container starts, so that it may go
 * {@code READY}. It names no public type of this module but the checks it runs.
 */
@PreMatching
@Priority(Priorities.AUTHENTICATION - 100)
public final class HealthEndpoints implements ContainerRequestFilter {
    /** A check's detail is cut to this many characters in the body. */
    static final int DETAIL_LIMIT = 200;
    private static final String JSON = "application/json";

    private final String livePath;
    private final String readyPath;
    private final Map<String, HealthCheck> checks;
    /** The health's phase now (its name goes into every body). */
    private final Supplier<? extends Enum<?>> phase;
    /** The phase in which readiness may answer 200 (its checks permitting). */
    private final Enum<?> ready;

    private HealthEndpoints(String livePath, String readyPath, Map<String, HealthCheck> checks,
            Supplier<? extends Enum<?>> phase, Enum<?> ready) {
        this.livePath = livePath;
        this.readyPath = readyPath;
        this.checks = checks;
        this.phase = phase;
        this.ready = ready;
    }

    /**
     * Registers in {@code context} the endpoints of a health — its paths (relative, no leading slash), its checks by
     * name, its {@code phase} and the one of them that is {@code ready} — and a start-up listener that runs
     * {@code started}.
     */
    public static void register(FeatureContext context, String livePath, String readyPath,
            Map<String, HealthCheck> checks, Supplier<? extends Enum<?>> phase, Enum<?> ready,
            Runnable started) {
        context.register(new HealthEndpoints(livePath, readyPath, checks, phase, ready));
        context.register(new Started(started));
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
        if (path.equals(livePath)) {
            request.abortWith(answer(200, "{\"status\":\"UP\",\"phase\":\"" + phase.get() + "\"}"));
        } else if (path.equals(readyPath)) {
            request.abortWith(readiness());
        }
    }

    private Response readiness() {
        Enum<?> phase = this.phase.get();
        boolean up = phase == ready;
        StringBuilder checks = new StringBuilder();
        for (Map.Entry<String, HealthCheck> entry : this.checks.entrySet()) {
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
        private final Runnable started;

        Started(Runnable started) {
            this.started = started;
        }

        @Override
        public void onStartup(Container container) {
            started.run();
        }
    }
}
