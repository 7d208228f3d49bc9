package dev.fleche.jersey.internal;

import org.glassfish.jersey.server.ApplicationHandler;
import org.glassfish.jersey.server.ResourceConfig;

import java.util.concurrent.atomic.AtomicInteger;

/**
 * One application as deployed at one base path: replaced whole on reload, so that a request uses one
 * consistent snapshot from start to end.
 *
 * @param handler     Jersey's application handler
 * @param basePath    root path + application path, starting and ending with {@code /}
 * @param settings    the container settings read from the application's properties
 * @param routes      where {@code @NonBlocking} applies
 * @param baseUris    base URIs per host
 * @param armedTimers suspend timers armed and not yet expired or cancelled (shared across deployments)
 */
record Deployment(ApplicationHandler handler, String basePath, Settings settings, NonBlockingRoutes routes,
                  BaseUris baseUris, AtomicInteger armedTimers) {

    static Deployment of(ApplicationHandler handler, String rootPath, AtomicInteger armedTimers) {
        ResourceConfig config = handler.getConfiguration();
        String basePath = basePath(rootPath, config.getApplicationPath());
        Settings settings = Settings.from(config.getProperties());
        return new Deployment(handler, basePath, settings, NonBlockingRoutes.of(config),
                new BaseUris(basePath, settings.trustForwarded()), armedTimers);
    }

    /** {@code /root/app/}: the two joined, repeated slashes collapsed, starting and ending with {@code /}. */
    static String basePath(String rootPath, String applicationPath) {
        String joined = "/" + (rootPath == null ? "" : rootPath) + "/"
                + (applicationPath == null ? "" : applicationPath) + "/";
        return joined.replaceAll("/{2,}", "/");
    }

    /** Whether {@code rawPath} is under the base path (the base path without its final slash counts). */
    boolean serves(String rawPath) {
        return rawPath.startsWith(basePath)
                || rawPath.length() == basePath.length() - 1 && basePath.startsWith(rawPath);
    }

    /**
     * The path Jersey routes for {@code rawPath}: {@code /} + what follows the base path; null when the request
     * is not under the base path.
     */
    String routedPath(String rawPath) {
        if (rawPath.startsWith(basePath)) {
            return rawPath.substring(basePath.length() - 1);
        }
        return serves(rawPath) ? "/" : null;
    }
}
