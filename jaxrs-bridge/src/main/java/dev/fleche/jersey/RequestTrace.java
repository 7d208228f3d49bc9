package dev.fleche.jersey;

/**
 * The request id and W3C Trace Context of one request, as {@link FlecheRequestIds} found them. Available as the
 * request property {@value FlecheProperties#TRACE} and with {@code @Context RequestTrace} in resources and
 * providers.
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

    /** Whether the request carried a valid {@code traceparent}. */
    public boolean traced() {
        return traceId != null;
    }

    /** Whether the caller sampled the trace ({@code trace-flags} bit 0). */
    public boolean sampled() {
        return traceFlags != null && (Character.digit(traceFlags.charAt(1), 16) & 1) == 1;
    }
}
