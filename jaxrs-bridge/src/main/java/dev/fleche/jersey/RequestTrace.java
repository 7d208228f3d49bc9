package dev.fleche.jersey;

import jakarta.ws.rs.container.ContainerRequestContext;

/**
 * The request id and W3C Trace Context of one request, as {@link FlecheRequestIds} found them: the request property
 * {@value FlecheProperties#TRACE}, read with {@link #of(ContainerRequestContext)} in resources and providers
 * ({@code @Context ContainerRequestContext request}). (A {@code @Context RequestTrace} injection would need one of
 * Jersey's injection binders, which are not the same on Jersey 3.1 and 4.0.)
 *
 * @param requestId  the valid incoming {@code X-Request-Id}, or a generated id; never null
 * @param traceId    32 lowercase hex digits from a valid {@code traceparent}, or null
 * @param parentId   16 lowercase hex digits (the caller's span id) from a valid {@code traceparent}, or null
 * @param traceFlags 2 lowercase hex digits from a valid {@code traceparent}, or null
 * @param traceState the {@code tracestate} list (several fields joined with {@code ,}) when it and
 *                   {@code traceparent} are valid, or null
 */
public record RequestTrace(String requestId, String traceId, String parentId, String traceFlags,
                           String traceState) {

    /** The trace of {@code request}, or null when {@link FlecheRequestIds} is not registered. */
    public static RequestTrace of(ContainerRequestContext request) {
        return (RequestTrace) request.getProperty(FlecheProperties.TRACE);
    }

    /** Whether the request carried a valid {@code traceparent}. */
    public boolean traced() {
        return traceId != null;
    }

    /** Whether the caller sampled the trace ({@code trace-flags} bit 0). */
    public boolean sampled() {
        return traceFlags != null && (Character.digit(traceFlags.charAt(1), 16) & 1) == 1;
    }
}
