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
import jakarta.ws.rs.core.FeatureContext;


/**
 * What {@code FlecheRequestIds} does, in one of two places. In the Fleche container the container itself does it
 * ({@link #IN_CONTAINER}): {@code Deployment.request} makes the {@link RequestTrace} from the transport's fields and
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
    /**
     * The application property by which {@code FlecheRequestIds}, configured for the Fleche container, hands the
     * container its {@link RequestIds} instead of registering these filters.
     */
    public static final String IN_CONTAINER = "dev.fleche.jersey.internal.requestIds";

    private final RequestIds ids;

    TraceFilter(RequestIds ids) {
        this.ids = ids;
    }

    /**
     * Makes {@code context}'s application give request ids: the Fleche container's own path when the container is
     * building it, else these filters. False when already done.
     */
    public static boolean register(FeatureContext context) {
        if (context.getConfiguration().isRegistered(TraceFilter.class)
                || context.getConfiguration().getProperty(IN_CONTAINER) != null) {
            return false;
        }
        if (Deployment.servedByFleche(context.getConfiguration())) {
            context.property(IN_CONTAINER, new RequestIds());
        } else {
            context.register(new TraceFilter(new RequestIds()));
        }
        return true;
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
