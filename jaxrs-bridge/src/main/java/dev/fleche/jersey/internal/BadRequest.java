package dev.fleche.jersey.internal;

/** A request Jersey cannot be given (its target or host does not form a URI); answered with {@code 400}. */
public final class BadRequest extends Exception {
    BadRequest(String reason, Throwable cause) {
        super(reason, cause);
    }
}
