package dev.fleche.jersey.internal;

import dev.fleche.transport.HttpExchange;
import dev.fleche.transport.HttpFields;

import java.nio.charset.StandardCharsets;

/** The few answers the container gives without Jersey: short {@code text/plain} bodies, sent in one piece. */
public final class Responses {
    private Responses() {
    }

    /** Answers {@code status} with {@code message}; a no-op when the exchange was already answered. */
    public static void text(HttpExchange exchange, int status, HttpFields fields, String message) {
        fields.set("Content-Type", "text/plain; charset=utf-8");
        try {
            exchange.respond(status, fields, (message + "\n").getBytes(StandardCharsets.UTF_8));
        } catch (IllegalStateException alreadyAnswered) {
            // the transport answered first (e.g. 413 or 408): nothing left to do
        }
    }

    /** {@code 503} with {@code Retry-After}: the workers are saturated. */
    public static void busy(HttpExchange exchange, int retryAfterSeconds) {
        HttpFields fields = new HttpFields(2).add("Retry-After", Integer.toString(retryAfterSeconds));
        text(exchange, 503, fields, "server busy, retry later");
    }
}
