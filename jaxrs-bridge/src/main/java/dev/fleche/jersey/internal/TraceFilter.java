package dev.fleche.jersey.internal;

import dev.fleche.jersey.FlecheProperties;
import dev.fleche.jersey.FlecheRequestIds;
import dev.fleche.jersey.RequestTrace;
import dev.fleche.transport.HttpExchange;
import jakarta.annotation.Priority;
import jakarta.ws.rs.container.ContainerRequestContext;
import jakarta.ws.rs.container.ContainerRequestFilter;
import jakarta.ws.rs.container.ContainerResponseContext;
import jakarta.ws.rs.container.ContainerResponseFilter;
import jakarta.ws.rs.container.PreMatching;
import jakarta.ws.rs.core.FeatureContext;

import java.util.List;

/**
 * The filters of {@link FlecheRequestIds}: before matching (ahead of every other filter), the request id and trace
 * context become request properties, and the request id and trace id go to the transport's access log line of
 * the request ({@code HttpExchange.accessLogFields}); on the way out the id is echoed. Reads headers, never
 * changes them.
 */
@PreMatching
@Priority(TraceFilter.PRIORITY)
public final class TraceFilter implements ContainerRequestFilter, ContainerResponseFilter {
    /** Before authentication (1000) and every user filter with a usual priority. */
    static final int PRIORITY = 100;
    static final String TRACEPARENT = "traceparent";
    static final String TRACESTATE = "tracestate";

    private final RequestIds ids;

    TraceFilter(RequestIds ids) {
        this.ids = ids;
    }

    /** Registers the filter in {@code context}. */
    public static void register(FeatureContext context) {
        context.register(new TraceFilter(new RequestIds()));
    }

    @Override
    public void filter(ContainerRequestContext request) {
        RequestTrace trace = trace(request);
        if (request.getProperty(ExchangeProperties.EXCHANGE) instanceof HttpExchange exchange) {
            exchange.accessLogFields(null, trace.requestId(), trace.traceId()); // the transport's access log
        }
        request.setProperty(FlecheProperties.TRACE, trace);
        request.setProperty(FlecheProperties.REQUEST_ID, trace.requestId());
        if (trace.traced()) {
            request.setProperty(FlecheProperties.TRACE_ID, trace.traceId());
            request.setProperty(FlecheProperties.PARENT_ID, trace.parentId());
            request.setProperty(FlecheProperties.TRACE_FLAGS, trace.traceFlags());
            if (trace.traceState() != null) {
                request.setProperty(FlecheProperties.TRACE_STATE, trace.traceState());
            }
        }
    }

    @Override
    public void filter(ContainerRequestContext request, ContainerResponseContext response) {
        Object id = request.getProperty(FlecheProperties.REQUEST_ID);
        if (id instanceof String && !response.getHeaders().containsKey(FlecheRequestIds.HEADER)) {
            response.getHeaders().putSingle(FlecheRequestIds.HEADER, id);
        }
    }

    private RequestTrace trace(ContainerRequestContext request) {
        String incoming = single(request.getHeaders().get(FlecheRequestIds.HEADER));
        String requestId = RequestIds.wellFormed(incoming) ? incoming : ids.next();
        TraceContext.Parent parent = TraceContext.parseParent(single(request.getHeaders().get(TRACEPARENT)));
        if (parent == null) {
            return new RequestTrace(requestId, null, null, null, null);
        }
        String state = TraceContext.validState(request.getHeaderString(TRACESTATE));
        return new RequestTrace(requestId, parent.traceId(), parent.parentId(), parent.flags(), state);
    }

    /** The value of a header sent once, else null. */
    private static String single(List<String> values) {
        return values != null && values.size() == 1 ? values.get(0) : null;
    }
}
