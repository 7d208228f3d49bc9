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

import java.util.List;
import java.util.function.BiConsumer;

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
    public static final String REQUEST_ID_HEADER = "X-Request-Id";
    /** The longest request id taken from a client, {@code FlecheRequestIds.MAX_REQUEST_ID_LENGTH}. */
    public static final int MAX_REQUEST_ID_LENGTH = 128;

    /** Before authentication (1000) and every user filter with a usual priority. */
    static final int PRIORITY = 100;
    static final String TRACEPARENT = "traceparent";
    static final String TRACESTATE = "tracestate";
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
        publish(trace(request), request.getProperty(ExchangeProperties.EXCHANGE) instanceof HttpExchange exchange
                ? exchange : null, request::setProperty);
    }

    /**
     * Hands {@code trace} to the transport's access log ({@code exchange}: null when there is none) and sets it as
     * request properties through {@code property}.
     */
    static void publish(RequestTrace trace, HttpExchange exchange, BiConsumer<String, Object> request) {
        if (exchange != null) {
            exchange.accessLogFields(null, trace.requestId(), trace.traceId()); // the transport's access log
        }
        request.accept(FlecheProperties.TRACE, trace);
        request.accept(FlecheProperties.REQUEST_ID, trace.requestId());
        if (trace.traced()) {
            request.accept(FlecheProperties.TRACE_ID, trace.traceId());
            request.accept(FlecheProperties.PARENT_ID, trace.parentId());
            request.accept(FlecheProperties.TRACE_FLAGS, trace.traceFlags());
            if (trace.traceState() != null) {
                request.accept(FlecheProperties.TRACE_STATE, trace.traceState());
            }
        }
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
        return trace(single(request.getHeaders().get(REQUEST_ID_HEADER)),
                single(request.getHeaders().get(TRACEPARENT)), request.getHeaderString(TRACESTATE), ids);
    }

    /** The trace of a request with header fields {@code fields}. */
    static RequestTrace trace(HttpFields fields, RequestIds ids) {
        String state = null;
        List<String> states = fields.getAll(TRACESTATE);
        if (!states.isEmpty()) {
            state = states.size() == 1 ? states.get(0) : String.join(",", states);
        }
        return trace(single(fields.getAll(REQUEST_ID_HEADER)), single(fields.getAll(TRACEPARENT)), state, ids);
    }

    /**
     * The trace of a request whose {@code X-Request-Id} and {@code traceparent} were sent once with these values
     * (else null) and whose {@code tracestate} fields, joined by commas, are {@code state} (null: none).
     */
    private static RequestTrace trace(String incoming, String traceparent, String state, RequestIds ids) {
        String requestId = RequestIds.wellFormed(incoming) ? incoming : ids.next();
        TraceContext.Parent parent = TraceContext.parseParent(traceparent);
        if (parent == null) {
            return new RequestTrace(requestId, null, null, null, null);
        }
        return new RequestTrace(requestId, parent.traceId(), parent.parentId(), parent.flags(),
                TraceContext.validState(state));
    }

    /** The value of a header sent once, else null. */
    private static String single(List<String> values) {
        return values != null && values.size() == 1 ? values.get(0) : null;
    }
}
