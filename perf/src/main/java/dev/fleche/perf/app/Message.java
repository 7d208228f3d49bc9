package dev.fleche.perf.app;

/** The body of {@code GET /json}: {@code {"message":"Hello, World!"}}. */
public record Message(String message) {
}
