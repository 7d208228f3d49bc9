package dev.fleche.jersey.internal;

import dev.fleche.jersey.NonBlocking;
import org.glassfish.jersey.server.ResourceConfig;
import org.glassfish.jersey.server.model.Invocable;
import org.glassfish.jersey.server.model.Resource;
import org.glassfish.jersey.server.model.ResourceMethod;
import org.glassfish.jersey.uri.PathPattern;

import java.lang.reflect.Method;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.MatchResult;

/**
 * Decides, before Jersey runs, whether a request may be handled on the reactor thread: only when every resource
 * method that can match its HTTP method and path is {@link NonBlocking @NonBlocking} and no sub-resource locator
 * can match its path. Built once per deployment from the root resources of the configuration
 * ({@link Resource#from(Class)} for classes and instances, plus programmatic resources).
 *
 * <p>Matching mirrors Jersey's two levels: the root resource's open pattern ({@code template(/.*)?}), then for a
 * sub-resource method the child's pattern on the rest; a resource method matches when what remains is empty or
 * {@code /}. Templates match the encoded path, as Jersey's routing does. Because the answer must hold for any
 * choice Jersey's routing could make, every match counts, not only the best one.
 */
final class NonBlockingRoutes {
    static final NonBlockingRoutes NONE = new NonBlockingRoutes(List.of());

    /** One resource method or locator: a root pattern, an optional child pattern, and what it is. */
    private record Route(PathPattern root, PathPattern child, String httpMethod, boolean nonBlocking) {
        boolean isLocator() {
            return httpMethod == null;
        }
    }

    private final List<Route> routes;

    private NonBlockingRoutes(List<Route> routes) {
        this.routes = routes;
    }

    /** The routes of {@code config}; {@link #NONE} when no method is {@code @NonBlocking}. */
    static NonBlockingRoutes of(ResourceConfig config) {
        List<Resource> roots = new ArrayList<>();
        for (Class<?> type : config.getClasses()) {
            addRoot(roots, type);
        }
        for (Object instance : config.getInstances()) {
            addRoot(roots, instance.getClass());
        }
        roots.addAll(config.getResources());
        List<Route> routes = new ArrayList<>();
        boolean any = false;
        for (Resource root : roots) {
            if (root.getPath() == null) {
                continue;
            }
            PathPattern rootPattern = new PathPattern(root.getPath());
            any |= addMethods(routes, rootPattern, null, root);
            for (Resource child : root.getChildResources()) {
                any |= addMethods(routes, rootPattern, new PathPattern(child.getPath()), child);
            }
        }
        return any ? new NonBlockingRoutes(List.copyOf(routes)) : NONE;
    }

    private static void addRoot(List<Resource> roots, Class<?> type) {
        if (Resource.getPath(type) != null) {
            roots.add(Resource.from(type, true));
        }
    }

    /** Adds the methods and locator of {@code resource}; returns whether any method is non-blocking. */
    private static boolean addMethods(List<Route> routes, PathPattern root, PathPattern child, Resource resource) {
        boolean any = false;
        for (ResourceMethod method : resource.getResourceMethods()) {
            boolean nonBlocking = isNonBlocking(method.getInvocable());
            any |= nonBlocking;
            routes.add(new Route(root, child, method.getHttpMethod(), nonBlocking));
        }
        if (resource.getResourceLocator() != null) {
            routes.add(new Route(root, child, null, false));
        }
        return any;
    }

    static boolean isNonBlocking(Invocable invocable) {
        if (invocable == null || invocable.isInflector()) {
            return false;
        }
        Method handling = invocable.getHandlingMethod();
        Method definition = invocable.getDefinitionMethod();
        Class<?> handler = invocable.getHandler().getHandlerClass();
        return annotated(handling) || annotated(definition)
                || (handler != null && handler.isAnnotationPresent(NonBlocking.class))
                || (definition != null && definition.getDeclaringClass().isAnnotationPresent(NonBlocking.class));
    }

    private static boolean annotated(Method method) {
        return method != null && method.isAnnotationPresent(NonBlocking.class);
    }

    /** Whether this deployment has no {@code @NonBlocking} method at all (the common case: nothing to match). */
    boolean isEmpty() {
        return routes.isEmpty();
    }

    /**
     * Whether a request for {@code httpMethod} and {@code path} (encoded, relative to the base URI, starting with
     * {@code /}) may run on the reactor.
     */
    boolean allows(String httpMethod, String path) {
        boolean matched = false;
        for (Route route : routes) {
            String rest = rest(route.root(), path);
            if (rest != null && route.child() != null) {
                rest = rest.isEmpty() ? null : rest(route.child(), rest);
            }
            if (rest == null) {
                continue;
            }
            if (route.isLocator()) {
                return false;
            }
            if (!rest.isEmpty() && !rest.equals("/") || !route.httpMethod().equals(httpMethod)) {
                continue;
            }
            if (!route.nonBlocking()) {
                return false;
            }
            matched = true;
        }
        return matched;
    }

    /** What {@code pattern} leaves of {@code path} ("" when nothing), or null when it does not match. */
    private static String rest(PathPattern pattern, String path) {
        MatchResult result = pattern.match(path);
        if (result == null) {
            return null;
        }
        int groups = result.groupCount();
        String rest = groups == 0 ? null : result.group(groups);
        return rest == null ? "" : rest;
    }
}
