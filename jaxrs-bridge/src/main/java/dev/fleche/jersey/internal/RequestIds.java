package dev.fleche.jersey.internal;

import dev.fleche.transport.HttpExchange;
import dev.fleche.transport.HttpFields;

import java.security.SecureRandom;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.BiConsumer;

/**
 * Request ids: checks incoming ones, makes new ones. A made id is a random prefix fixed per instance (so that ids
 * of two processes or two starts do not collide) and a counter, {@code 7f3a9c01d2e4b5a6-1f}: unique, cheap (no
 * random numbers per request), and ordered within one process.
 */
public final class RequestIds {
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
        TraceFilter.publish(TraceFilter.trace(fields, this), exchange, property);
    }

    /** A new id. */
    String next() {
        return prefix + Long.toHexString(counter.incrementAndGet());
    }

    /** Whether {@code id} may be used as it is: 1 to 128 characters out of {@code A-Z a-z 0-9 . _ : -}. */
    static boolean wellFormed(String id) {
        if (id == null || id.isEmpty() || id.length() > TraceFilter.MAX_REQUEST_ID_LENGTH) {
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
