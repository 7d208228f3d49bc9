package dev.fleche.jersey.internal;

import dev.fleche.transport.HttpExchange;
import jakarta.ws.rs.core.Application;
import org.glassfish.jersey.server.ApplicationHandler;
import org.glassfish.jersey.server.ResourceConfig;
import org.glassfish.jersey.uri.UriComponent;


/**
 * One application as deployed at one base path: replaced whole on reload, so that a request uses one
 * consistent snapshot from start to end.
 *
 * @param handler     Jersey's application handler
 * @param basePath    root path + application path, starting and ending with {@code /}
 * @param settings    the container settings read from the application's properties
 * @param routes      where {@code @NonBlocking} applies
 * @param baseUris    base URIs per host
 * @param headerText  response header values as text, for this application
 * @param requestIds  request ids and trace context made by the container (the application registered
 *                    {@code FlecheRequestIds}), or null
 * @param lengthBuffered whether the container's {@link LengthBuffer} learns the length of small entities (else
 *                    the response writer lets Jersey buffer them, as on its other containers)
 */
public record Deployment(ApplicationHandler handler, String basePath, Settings settings, NonBlockingRoutes routes,
                         BaseUris baseUris, HeaderText headerText, RequestIds requestIds, boolean lengthBuffered) {
    /**
     * Jersey's handler of {@code application} (an {@code Application}, its class, or a {@code ResourceConfig}),
     * built as Jersey's other containers build it — from the application itself, never written to — while the
     * container's features know that Fleche builds it ({@link ServedByFleche}). With {@code fleche.jersey.fastStart},
     * from a copy the container owns ({@link FastStart}).
     */
    public static ApplicationHandler handler(Object application) {
        Object app = FastStart.apply(application); // FlecheProperties.FAST_START
        return ServedByFleche.build(() -> app instanceof Class<?> type
                ? new ApplicationHandler(type.asSubclass(Application.class))
                : new ApplicationHandler((Application) app));
    }

    /** {@code handler}'s application deployed under {@code rootPath}. */
    public static Deployment of(ApplicationHandler handler, String rootPath) {
        ResourceConfig config = handler.getConfiguration();
        String basePath = basePath(rootPath, rawApplicationPath(config.getApplicationPath()));
        Settings settings = Settings.from(config.getProperties());
        return new Deployment(handler, basePath, settings, NonBlockingRoutes.of(config),
                new BaseUris(basePath, settings.trustForwarded()), new HeaderText(config),
                TraceFilter.inContainer(config), config.isRegistered(LengthBuffer.class));
    }

    /**
     * Whether {@code exchange} may be served on the reactor thread: a {@code @NonBlocking} route whose body is
     * already received ({@code path} as {@link #canonicalPath} returned it).
     */
    public boolean runsOnReactor(HttpExchange exchange, String path) {
        return !routes.isEmpty() && exchange.isBodyReceived() && routes.allows(exchange.method(), routedPath(path));
    }

    /** {@code /root/app/}: the two joined, repeated slashes collapsed, starting and ending with {@code /}. */
    static String basePath(String rootPath, String applicationPath) {
        String joined = "/" + (rootPath == null ? "" : rootPath) + "/"
                + (applicationPath == null ? "" : applicationPath) + "/";
        return joined.replaceAll("/{2,}", "/");
    }

    /**
     * The application path as it appears in request paths. Jersey hands it over percent-encoded once more than
     * {@code @ApplicationPath} wrote it ({@code ApplicationPath%21} comes back as {@code ApplicationPath%2521}),
     * while the annotation's value is already the encoded form (its javadoc: percent-encoded values are kept).
     */
    static String rawApplicationPath(String fromJersey) {
        if (fromJersey == null || fromJersey.indexOf('%') < 0) {
            return fromJersey;
        }
        return UriComponent.contextualEncode(UriComponent.decode(fromJersey, UriComponent.Type.PATH),
                UriComponent.Type.PATH);
    }

    /** Whether {@code rawPath} is under the base path (the base path without its final slash counts). */
    boolean serves(String rawPath) {
        return canonicalPath(rawPath) != null;
    }

    /**
     * {@code rawPath} with its base-path part spelled exactly as the base path, so that Jersey can take the base
     * URI off the request URI: the same string when it starts with the base path (the usual case, no work), else
     * when its first segments differ from the base path's only by percent-encoding ({@code !} against
     * {@code %21}); null when the request is not under the base path.
     */
    public String canonicalPath(String rawPath) {
        if (rawPath.startsWith(basePath)) {
            return rawPath;
        }
        if (rawPath.length() == basePath.length() - 1 && basePath.startsWith(rawPath)) {
            return rawPath;
        }
        if (rawPath.indexOf('%') < 0 && basePath.indexOf('%') < 0) {
            return null;
        }
        int b = 1;
        int r = 1;
        while (b < basePath.length()) {
            int baseEnd = basePath.indexOf('/', b);
            int rawEnd = rawPath.indexOf('/', r);
            if (rawEnd < 0) {
                return null;
            }
            if (!decoded(basePath, b, baseEnd).equals(decoded(rawPath, r, rawEnd))) {
                return null;
            }
            b = baseEnd + 1;
            r = rawEnd + 1;
        }
        return basePath + rawPath.substring(r);
    }

    private static String decoded(String path, int from, int to) {
        return UriComponent.decode(path.substring(from, to), UriComponent.Type.PATH_SEGMENT);
    }

    /**
     * The path Jersey routes for {@code rawPath}: {@code /} + what follows the base path; null when the request
     * is not under the base path.
     */
    public String routedPath(String rawPath) {
        if (rawPath.startsWith(basePath)) {
            return rawPath.substring(basePath.length() - 1);
        }
        return serves(rawPath) ? "/" : null;
    }
}
