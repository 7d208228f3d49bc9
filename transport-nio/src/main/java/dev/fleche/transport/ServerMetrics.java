package dev.fleche.transport;

import dev.fleche.transport.internal.rules.RefusalRules;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A snapshot of a server's counters ({@link HttpServer#metrics()}); totals since start unless said otherwise.
 *
 * @param openConnections     connections open now
 * @param acceptedConnections connections accepted
 * @param refusedConnections  connections refused because {@code maxConnections} was reached
 * @param closedConnections   connections closed
 * @param requests            request heads dispatched to the handler
 * @param bytesRead           bytes read from sockets
 * @param bytesWritten        bytes written to sockets
 * @param protocolErrors      requests rejected by the parser or a limit (4xx/5xx from the transport)
 * @param timeouts            connections closed by a timeout (idle, header, body, write stall)
 * @param handlerErrors       exceptions thrown by the handler or exchanges aborted
 * @param responses1xx        final responses sent with a 1xx status (a {@code 100 Continue} is interim: not
 *                            counted); each of these five counts every response head the transport framed —
 *                            the handler's, its own refusals, and the acceptor's {@code 503}s — by class
 *                            (a handler's 6xx..9xx is in none)
 * @param responses2xx        final responses with a 2xx status
 * @param responses3xx        final responses with a 3xx status
 * @param responses4xx        final responses with a 4xx status
 * @param responses5xx        final responses with a 5xx status
 * @param refusalsByRule      requests (and connections) refused by the transport, by the name of the rule: a
 *                            {@code ProtocolRule} of the parser ({@code HEADER_SECTION_TOO_LARGE}, ...) or one of
 *                            its own ({@code OVERLOADED}, {@code BODY_TOO_LARGE}, {@code HEADER_TIMEOUT},
 *                            {@code BODY_TIMEOUT}, {@code DISCARD_LIMIT}, {@code PLAINTEXT_ON_TLS_PORT}), and the
 *                            HTTP/2 budgets a connection went beyond ({@code HTTP2_RESETS},
 *                            {@code HTTP2_CONTROL_FRAMES}, {@code HTTP2_CONTINUATIONS}, {@code HTTP2_HEADER_BLOCK}:
 *                            each a {@code GOAWAY ENHANCE_YOUR_CALM}; {@code HTTP2_OUTPUT_NOT_TAKEN}: a connection
 *                            held at its queued-output budget and closed); only rules that refused something are
 *                            present; unmodifiable, in a fixed order
 * @param exchangesInFlight   exchanges started and not yet ended (response written and body read, or
 *                            connection closed), now
 * @param accessLogDropped    access-log lines dropped because the log's queue was full (0 without a log)
 * @param requestsByProtocol  {@link #requests()} by protocol: {@code HTTP/1.0}, {@code HTTP/1.1}, {@code HTTP/2} (a
 *                            stream; an {@code Upgrade: h2c} request counts once, as {@code HTTP/2}), each present,
 *                            in that order; unmodifiable
 * @param http2Connections    connections that switched to HTTP/2 (ALPN {@code h2}, prior knowledge, {@code Upgrade})
 * @param http2StreamsReset   HTTP/2 streams reset with {@code RST_STREAM}: by the client, or by the server for a
 *                            stream error, a refused stream, a timeout, a body too large or an aborted exchange (not
 *                            the {@code NO_ERROR} that only tells a client to stop sending a body it no longer needs)
 * @param tlsReloads          TLS key material taken from changed PEM files without a restart ({@link PemFiles}; 0
 *                            otherwise)
 * @param tlsReloadFailures   changed PEM files refused (unreadable, malformed, not a pair, expired); the material in use
 *                            stayed
 * @param tlsCertificateNotAfter when the certificate the server serves now expires; {@code null} unless its TLS comes
 *                            from {@link PemFiles} (an {@code SSLContext} does not tell)
 * @param queuedOutputBytes   response bytes produced for clients and not yet taken by their sockets, over every
 *                            connection, now (a gauge: what slow or stopped readers make the server hold; an HTTP/2
 *                            connection holds at most about {@code http2MaxQueuedOutputBytes} of it; the rest of a
 *                            static file being sent counts too, though it stays in the file)
 */
public record ServerMetrics(
        long openConnections,
        long acceptedConnections,
        long refusedConnections,
        long closedConnections,
        long requests,
        long bytesRead,
        long bytesWritten,
        long protocolErrors,
        long timeouts,
        long handlerErrors,
        long responses1xx,
        long responses2xx,
        long responses3xx,
        long responses4xx,
        long responses5xx,
        Map<String, Long> refusalsByRule,
        long exchangesInFlight,
        long accessLogDropped,
        Map<String, Long> requestsByProtocol,
        long http2Connections,
        long http2StreamsReset,
        long tlsReloads,
        long tlsReloadFailures,
        java.time.Instant tlsCertificateNotAfter,
        long queuedOutputBytes) {

    private static final List<String> PROTOCOLS = List.of("HTTP/1.0", "HTTP/1.1", "HTTP/2");

    /** Keeps unmodifiable copies of {@code refusalsByRule} and {@code requestsByProtocol}. */
    public ServerMetrics {
        refusalsByRule = refusalsByRule == null ? Map.of()
                : Collections.unmodifiableMap(new LinkedHashMap<>(refusalsByRule));
        requestsByProtocol = requestsByProtocol == null ? Map.of()
                : Collections.unmodifiableMap(new LinkedHashMap<>(requestsByProtocol));
    }

    /** The protocols {@link #requestsByProtocol()} counts, in its order: HTTP/1.0, HTTP/1.1, HTTP/2. */
    public static List<String> protocols() {
        return PROTOCOLS;
    }

    /** Requests of {@code protocol} (as in {@link #protocols()}); 0 for any other name. */
    public long requests(String protocol) {
        return requestsByProtocol.getOrDefault(protocol, 0L);
    }

    /**
     * Every rule name that {@link #refusalsByRule()} can hold, in its order: the parser's {@code ProtocolRule}s, then
     * the transport's own. For binding one counter per rule up front.
     */
    public static List<String> refusalRules() {
        return RefusalRules.names();
    }

    /** Refusals by {@code rule} (a rule name as in {@link #refusalsByRule()}); 0 when it refused nothing. */
    public long refusals(String rule) {
        return refusalsByRule.getOrDefault(rule, 0L);
    }
}
