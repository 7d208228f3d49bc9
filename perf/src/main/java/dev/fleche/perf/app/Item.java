package dev.fleche.perf.app;

/** The body of {@code POST /echo}, both ways: {@code {"name":"wrk","amount":12.34}}. */
public record Item(String name, double amount) {
}
