package dev.fleche.conformance.tck;

import dev.fleche.transport.HttpExchange;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.LongAdder;

/**
 * Counts the requests the TCK container served by the protocol version they arrived in ({@link HttpExchange#version()}:
 * {@code HTTP/2}, {@code HTTP/1.1}, {@code HTTP/1.0}) and by which of the TCK's two clients sent them: Commons
 * HttpClient 3 (its {@code User-Agent} starts with {@value #COMMONS_AGENT}; it speaks HTTP/1.x only) or the
 * Jakarta REST client (Jersey's, anything else). The run's summary reads the file this writes and, on the h2c
 * leg, fails unless every request of the Jakarta REST client arrived as HTTP/2: the server's own word that the
 * leg did not stay on HTTP/1.1.
 *
 * <p>File format, one line per (version, client): {@code version<TAB>client<TAB>count}.
 */
final class ProtocolCensus {
    static final String COMMONS_AGENT = "Jakarta Commons-HttpClient";
    static final String COMMONS_CLIENT = "commons-httpclient";
    static final String REST_CLIENT = "jakarta-rest-client";

    private final Map<String, LongAdder> counts = new ConcurrentHashMap<>();

    /** Counts {@code exchange}; never blocks (called on the reactor). */
    void count(HttpExchange exchange) {
        String agent = exchange.headers().get("User-Agent");
        String client = agent != null && agent.startsWith(COMMONS_AGENT) ? COMMONS_CLIENT : REST_CLIENT;
        counts.computeIfAbsent(exchange.version() + '\t' + client, k -> new LongAdder()).increment();
    }

    /** Writes the counts so far to {@code file} (replacing it); does nothing when {@code file} is null. */
    void writeTo(Path file) throws IOException {
        if (file == null) {
            return;
        }
        StringBuilder text = new StringBuilder();
        new TreeMap<>(counts).forEach((key, count) -> text.append(key).append('\t').append(count.sum()).append('\n'));
        Path parent = file.toAbsolutePath().getParent();
        if (parent != null) {
            Files.createDirectories(parent);
        }
        Files.writeString(file, text, StandardCharsets.UTF_8);
    }
}
