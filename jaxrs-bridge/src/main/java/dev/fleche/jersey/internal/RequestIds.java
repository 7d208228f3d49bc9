package dev.fleche.jersey.internal;

import dev.fleche.jersey.FlecheProperties;
import dev.fleche.jersey.RequestTrace;
import dev.fleche.transport.HttpExchange;
import dev.fleche.transport.HttpFields;

import java.security.SecureRandom;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.BiConsumer;

/**
 * Request ids: checks incoming ones, makes new ones. A made id is a random prefix fixed per instance (so that ids
 * of two processes or two starts do not collide) and a counter, {@code 7f3a9c01d2e4b5a6-1f}: unique, cheap (no
 * random numbers per request), and ordered within one process.
 */
public final class RequestIds {
    /** The request id's header ({@code TraceFilter.REQUEST_ID_HEADER}, {@code FlecheRequestIds.HEADER}). */
    static final String HEADER = "X-Request-Id";
    /** The longest request id taken from a client ({@code FlecheRequestIds.MAX_REQUEST_ID_LENGTH}). */
    static final int MAX_LENGTH = 128;
    static final String TRACEPARENT = "traceparent";
    static final String TRACESTATE = "tracestate";

    private final String prefix;
    private final AtomicLong counter = new AtomicLong();

    RequestIds() {
        this(Long.toHexString(new SecureRandom().nextLong() | Long.MIN_VALUE));
    }

    RequestIds(String prefix) {
        this.prefix = prefix + '-';
    }

    /**
     * The trace of a request with header fields {@code fields} (its id kept or made, its W3C trace context read),
     * handed to the transport's access log and set as the request's properties through {@code property}.
     */
    public void publish(HttpFields fields, HttpExchange exchange, BiConsumer<String, Object> property) {
        publish(trace(fields), exchange, property);
    }

    /**
     * Hands {@code trace} to the transport's access log ({@code exchange}: null when there is none) and sets it as
     * request properties through {@code request}.
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

    /** The trace of a request with header fields {@code fields}. */
    RequestTrace trace(HttpFields fields) {
        String state = null;
        List<String> states = fields.getAll(TRACESTATE);
        if (!states.isEmpty()) {
            state = states.size() == 1 ? states.get(0) : String.join(",", states);
        }
        return trace(single(fields.getAll(HEADER)), single(fields.getAll(TRACEPARENT)), state);
    }

    /**
     * The trace of a request whose {@code X-Request-Id} and {@code traceparent} were sent once with these values
     * (else null) and whose {@code tracestate} fields, joined by commas, are {@code state} (null: none).
     */
    RequestTrace trace(String incoming, String traceparent, String state) {
        String requestId = wellFormed(incoming) ? incoming : next();
        TraceContext.Parent parent = TraceContext.parseParent(traceparent);
        if (parent == null) {
            return new RequestTrace(requestId, null, null, null, null);
        }
        return new RequestTrace(requestId, parent.traceId(), parent.parentId(), parent.flags(),
                TraceContext.validState(state));
    }

    /** The value of a header sent once, else null. */
    static String single(List<String> values) {
        return values != null && values.size() == 1 ? values.get(0) : null;
    }

    /** A new id. */
    String next() {
        return prefix + Long.toHexString(counter.incrementAndGet());
    }

    /** Whether {@code id} may be used as it is: 1 to 128 characters out of {@code A-Z a-z 0-9 . _ : -}. */
    static boolean wellFormed(String id) {
        if (id == null || id.isEmpty() || id.length() > MAX_LENGTH) {
            return false;
        }
        for (int i = 0; i < id.length(); i++) {
            char c = id.charAt(i);
            boolean safe = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9')
                    || c == '.' || c == '_' || c == ':' || c == '-';
            if (!safe) {
                return false;
            }
        }
        return true;
    }
}
