package dev.fleche.jersey.internal;

import dev.fleche.transport.HttpServer;
import dev.fleche.transport.ServerMetrics;
import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;

import java.util.List;
import java.util.function.IntSupplier;
import java.util.function.LongSupplier;
import java.util.function.ToLongFunction;

/**
 * The meters of a transport and of the container's workers, read from their public counters on each scrape.
 * Loaded only by {@code FlecheMetrics} (Micrometer is an optional dependency).
 */
public final class TransportMeters {
    private static final String BYTES = "bytes";
    private static final List<String> STATUS_CLASSES = List.of("1xx", "2xx", "3xx", "4xx", "5xx");

    private TransportMeters() {
    }

    /**
     * Registers the meters of {@code server}, {@code workers}, the container's {@code 503} count ({@code busy}) and
     * its suspended responses ({@code suspended}).
     */
    public static void bind(MeterRegistry registry, HttpServer server, Workers workers, LongSupplier busy,
                            IntSupplier suspended) {
        Gauge.builder("fleche.connections.open", server, s -> s.metrics().openConnections())
                .description("connections open now").register(registry);
        counter(registry, server, "fleche.connections.accepted", "connections accepted", null,
                ServerMetrics::acceptedConnections);
        counter(registry, server, "fleche.connections.refused", "connections refused at maxConnections", null,
                ServerMetrics::refusedConnections);
        counter(registry, server, "fleche.connections.closed", "connections closed", null,
                ServerMetrics::closedConnections);
        counter(registry, server, "fleche.requests", "request heads dispatched to the handler", null,
                ServerMetrics::requests);
        for (String protocol : ServerMetrics.protocols()) {
            FunctionCounter.builder("fleche.requests.by.protocol", server, s -> s.metrics().requests(protocol))
                    .description("request heads dispatched to the handler, by protocol").tag("protocol", protocol)
                    .register(registry);
        }
        counter(registry, server, "fleche.http2.connections", "connections that switched to HTTP/2", null,
                ServerMetrics::http2Connections);
        counter(registry, server, "fleche.http2.streams.reset", "HTTP/2 streams reset by either side", null,
                ServerMetrics::http2StreamsReset);
        counter(registry, server, "fleche.bytes.read", "bytes read from sockets", BYTES, ServerMetrics::bytesRead);
        counter(registry, server, "fleche.bytes.written", "bytes written to sockets", BYTES,
                ServerMetrics::bytesWritten);
        counter(registry, server, "fleche.protocol.errors", "requests refused by the parser or a limit", null,
                ServerMetrics::protocolErrors);
        counter(registry, server, "fleche.timeouts", "connections closed by a timeout", null,
                ServerMetrics::timeouts);
        counter(registry, server, "fleche.handler.errors", "handler exceptions and aborted exchanges", null,
                ServerMetrics::handlerErrors);
        for (String statusClass : STATUS_CLASSES) {
            FunctionCounter.builder("fleche.responses", server, s -> responses(s.metrics(), statusClass))
                    .description("final responses sent, by status class").tag("status", statusClass)
                    .register(registry);
        }
        for (String rule : ServerMetrics.refusalRules()) { // (HTTP2_*: an HTTP/2 budget a connection went beyond)
            FunctionCounter.builder("fleche.refusals", server, s -> s.metrics().refusals(rule))
                    .description("requests and connections refused by the transport, by rule").tag("rule", rule)
                    .register(registry);
        }
        Gauge.builder("fleche.exchanges.in.flight", server, s -> s.metrics().exchangesInFlight())
                .description("exchanges started and not yet ended").register(registry);
        Gauge.builder("fleche.output.queued", server, s -> s.metrics().queuedOutputBytes())
                .description("response bytes produced for clients and not yet taken by their sockets")
                .baseUnit(BYTES).register(registry);
        counter(registry, server, "fleche.accesslog.dropped", "access-log lines dropped on a full queue", null,
                ServerMetrics::accessLogDropped);
        Gauge.builder("fleche.requests.suspended", server, s -> suspended.getAsInt())
                .description("responses suspended now (AsyncResponse, long-polls, SSE streams)").register(registry);
        Gauge.builder("fleche.timers.armed", server, HttpServer::scheduledTasks)
                .description("reactor timer slots armed (suspend timeouts, scheduled tasks)").register(registry);
        if (workers.inFlight() >= 0) {
            Gauge.builder("fleche.workers.in.flight", workers, Workers::inFlight)
                    .description("requests on or waiting for a worker").register(registry);
            Gauge.builder("fleche.workers.queued", workers, Workers::queued)
                    .description("requests waiting for a worker thread").register(registry);
        }
        if (server.options().tls() != null && server.options().tls().pem() != null) {
            counter(registry, server, "fleche.tls.reloads", "TLS key material taken from changed PEM files", null,
                    ServerMetrics::tlsReloads);
            counter(registry, server, "fleche.tls.reload.failures",
                    "changed PEM files refused (the material in use stayed)", null, ServerMetrics::tlsReloadFailures);
            Gauge.builder("fleche.tls.certificate.expiry", server, s -> expiry(s.metrics()))
                    .description("when the served certificate expires, in seconds since the epoch").baseUnit("seconds")
                    .register(registry);
        }
        // Micrometer holds the measured object weakly and the function strongly: the server (which the
        // application keeps) is the object, the container's count is reached through the function.
        FunctionCounter.builder("fleche.workers.rejected", server, s -> busy.getAsLong())
                .description("requests answered 503 because the workers were saturated").register(registry);
    }

    private static double expiry(ServerMetrics m) {
        return m.tlsCertificateNotAfter() == null ? Double.NaN : m.tlsCertificateNotAfter().getEpochSecond();
    }

    private static long responses(ServerMetrics m, String statusClass) {
        return switch (statusClass) {
            case "1xx" -> m.responses1xx();
            case "2xx" -> m.responses2xx();
            case "3xx" -> m.responses3xx();
            case "4xx" -> m.responses4xx();
            default -> m.responses5xx();
        };
    }

    private static void counter(MeterRegistry registry, HttpServer server, String name, String description,
                                String unit, ToLongFunction<ServerMetrics> value) {
        FunctionCounter.builder(name, server, s -> value.applyAsLong(s.metrics()))
                .description(description).baseUnit(unit).register(registry);
    }
}
