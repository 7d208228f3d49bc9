package dev.fleche.jersey.internal;

import dev.fleche.jersey.FlecheProperties;
import dev.fleche.jersey.RequestTrace;
import dev.fleche.transport.HttpExchange;
import dev.fleche.transport.HttpFields;
import jakarta.annotation.Priority;
import jakarta.ws.rs.container.ContainerRequestContext;
import jakarta.ws.rs.container.ContainerRequestFilter;
import jakarta.ws.rs.container.ContainerResponseContext;
import jakarta.ws.rs.container.ContainerResponseFilter;
import jakarta.ws.rs.container.PreMatching;
import jakarta.ws.rs.core.Configuration;
import jakarta.ws.rs.core.FeatureContext;
import org.glassfish.jersey.server.spi.Container;
import org.glassfish.jersey.server.spi.ContainerLifecycleListener;


/**
 * What {@code FlecheRequestIds} does, in one of two places. In the Fleche container the container itself does it
 * (the {@link RequestIds} of an {@link InContainer} registered in the application's runtime configuration):
 * {@code FlecheContainer.request} makes the {@link RequestTrace} from the transport's fields and
 * sets the properties before Jersey sees the request, and the response writer echoes the id. Elsewhere these
 * filters do it: before matching (ahead of every other filter), the request id and trace context become request
 * properties; on the way out the id is echoed. Both read headers and never change them, and give the transport's
 * access log line the request id and trace id ({@code HttpExchange.accessLogFields}).
 *
 * <p>Why two: Jersey merges and sorts the response filters on every request once there is one; for a hello
 * endpoint that, and reading headers through Jersey's case-insensitive map, cost about 8 % of its throughput.
 */
@PreMatching
@Priority(TraceFilter.PRIORITY)
public final class TraceFilter implements ContainerRequestFilter, ContainerResponseFilter {
    /** The request id's header, {@code FlecheRequestIds.HEADER}. */
    public static final String REQUEST_ID_HEADER = RequestIds.HEADER;
    /** The longest request id taken from a client, {@code FlecheRequestIds.MAX_REQUEST_ID_LENGTH}. */
    public static final int MAX_REQUEST_ID_LENGTH = RequestIds.MAX_LENGTH;

    /** Before authentication (1000) and every user filter with a usual priority. */
    static final int PRIORITY = 100;
    private final RequestIds ids;

    TraceFilter(RequestIds ids) {
        this.ids = ids;
    }

    /**
     * Makes {@code context}'s application give request ids: the Fleche container's own path when the container is
     * building it, else these filters. False when already done.
     */
    public static boolean register(FeatureContext context) {
        Configuration configuration = context.getConfiguration();
        if (configuration.isRegistered(TraceFilter.class) || configuration.isRegistered(InContainer.class)) {
            return false; // done, here or in the configuration this one was copied from
        }
        context.register(ServedByFleche.building() ? new InContainer(new RequestIds())
                : new TraceFilter(new RequestIds()));
        return true;
    }

    /**
     * The request ids of {@code configuration}'s application when the container makes them ({@link InContainer}),
     * else null.
     */
    public static RequestIds inContainer(Configuration configuration) {
        for (Object instance : configuration.getInstances()) {
            if (instance instanceof InContainer in) {
                return in.ids;
            }
        }
        return null;
    }

    /**
     * The container's request ids, registered in the application's configuration, where they stay in every copy
     * Jersey makes of it ({@code FlecheContainer.reload()} builds the next application from one, and features are
     * not configured again there). A {@code ContainerLifecycleListener} that does nothing: the one kind of provider
     * that costs nothing per request.
     */
    static final class InContainer implements ContainerLifecycleListener {
        private final RequestIds ids;

        InContainer(RequestIds ids) {
            this.ids = ids;
        }

        @Override
        public void onStartup(Container container) {
        }

        @Override
        public void onReload(Container container) {
        }

        @Override
        public void onShutdown(Container container) {
        }
    }

    @Override
    public void filter(ContainerRequestContext request) {
        RequestIds.publish(trace(request), request.getProperty(ExchangeProperties.EXCHANGE) instanceof HttpExchange exchange
                ? exchange : null, request::setProperty);
    }

    @Override
    public void filter(ContainerRequestContext request, ContainerResponseContext response) {
        Object id = request.getProperty(FlecheProperties.REQUEST_ID);
        if (id instanceof String && !response.getHeaders().containsKey(REQUEST_ID_HEADER)) {
            response.getHeaders().putSingle(REQUEST_ID_HEADER, id);
        }
    }

    /** The container's echo: adds the request id of {@code request} to {@code fields} unless the response has one. */
    static void echo(HttpFields fields, ContainerRequestContext request) {
        if (request.getProperty(FlecheProperties.REQUEST_ID) instanceof String id
                && !fields.contains(REQUEST_ID_HEADER)) {
            fields.add(REQUEST_ID_HEADER, id);
        }
    }

    private RequestTrace trace(ContainerRequestContext request) {
        return ids.trace(RequestIds.single(request.getHeaders().get(REQUEST_ID_HEADER)),
                RequestIds.single(request.getHeaders().get(RequestIds.TRACEPARENT)),
                request.getHeaderString(RequestIds.TRACESTATE));
    }
}
