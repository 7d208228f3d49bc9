package dev.fleche.transport.internal.rules;

import dev.fleche.transport.ServerOptions;
import dev.fleche.transport.http1.ProtocolRule;

/**
 * Every refusal the transport makes outside the request parser, named once with the section or reason behind it,
 * the status it answers and a reason that is safe to send back. The parser's refusals are the constants of
 * {@link ProtocolRule}; both are answered by the connection's one refusal path and encoded by
 * {@link ResponseEncoder#encodeRefusal}, with {@code Date}, the configured {@code ErrorRenderer}, and
 * {@code Connection: close}. A status of {@code 0} means the response is already out: the connection just closes.
 */
public enum Refusal {
    /** More open connections than {@code maxConnections}: answered by the acceptor, with {@code Retry-After: 1}. */
    OVERLOADED("RFC 9110 15.6.4", 503, "too many connections"),
    /**
     * A request body beyond its limit ({@code maxBodyBytes}, or {@code maxBufferedBodyBytes} when its handler buffers
     * it), declared by {@code Content-Length}, announced by a chunk's size line, or counted as it arrives.
     */
    BODY_TOO_LARGE("RFC 9110 15.5.14", 413, "request body larger than the limit"),
    /** A request head not complete within {@code headerTimeout} (slowloris). */
    HEADER_TIMEOUT("RFC 9110 15.5.9", 408, "request head not received in time"),
    /** No request body bytes for {@code bodyTimeout} while the body is expected. */
    BODY_TIMEOUT("RFC 9110 15.5.9", 408, "request body not received in time"),
    /** A request body arriving slower than {@code minRequestBodyRate} (after its grace period). */
    BODY_TOO_SLOW("RFC 9110 15.5.9", 408, "request body slower than the minimum data rate"),
    /** The handler threw before starting a response. */
    HANDLER_FAILED("RFC 9110 15.6.1", 500, "internal server error"),
    /** The handler's response head would split the response (a field with CR or LF, a bad name). */
    INVALID_RESPONSE_HEAD("RFC 9110 5.5", 500, "invalid response header"),
    /**
     * The response is out but the unread rest of the request body is beyond {@code maxDiscardBytes}: reading it to
     * keep the connection costs more than a new connection, so it closes (RFC 9112 9.3: a server may close).
     */
    DISCARD_LIMIT("RFC 9112 9.3", 0, "unread request body beyond the discard limit"),
    /**
     * Plain HTTP on a TLS port: answered by the {@link TlsChannel} itself with a plaintext {@code 400} (see
     * {@link PlaintextRequestException}); named here so that it is counted and logged like the others.
     */
    PLAINTEXT_ON_TLS_PORT("RFC 8446 5.1", 400, "This port speaks HTTPS"),
    // A PROXY protocol listener (ProxyIntake): the peer is a proxy, not a client that could read an answer, so each
    // of these closes the connection without a byte (HAProxy's proxy-protocol.txt, sections named).
    /** The connection comes from an address outside {@code ProxyProtocol.trustedSources}: closed before reading. */
    PROXY_SOURCE_UNTRUSTED("PROXY protocol 2", 0, "not a trusted proxy"),
    /** The first bytes are neither {@code "PROXY "} (version 1) nor the version 2 signature. */
    PROXY_HEADER_MISSING("PROXY protocol 2", 0, "no PROXY protocol header"),
    /** A version 1 header that breaks its grammar (fields, spaces, addresses, ports, CRLF). */
    PROXY_V1_MALFORMED("PROXY protocol 2.1", 0, "malformed PROXY protocol version 1 header"),
    /** A version 2 header that breaks its format (version, command, family, lengths, TLVs, CRC32C). */
    PROXY_V2_MALFORMED("PROXY protocol 2.2", 0, "malformed PROXY protocol version 2 header"),
    /** A version 1 line beyond 107 bytes, or a version 2 header beyond {@code ProxyProtocol.maxHeaderBytes}. */
    PROXY_HEADER_TOO_LONG("PROXY protocol 2.1", 0, "PROXY protocol header too long"),
    /** The connection ended inside its PROXY header. */
    PROXY_HEADER_TRUNCATED("PROXY protocol 2", 0, "connection ended inside the PROXY protocol header"),
    /** The PROXY header not complete within {@code headerTimeout} of the accept. */
    PROXY_HEADER_TIMEOUT("PROXY protocol 2", 0, "PROXY protocol header not received in time"),
    /**
     * HTTP/2: more streams reset in {@code ServerOptions.HTTP2_FLOOD_WINDOW} than {@code http2MaxResets} — reset by
     * the client (rapid reset, CVE-2023-44487) or by the server for the client's doing (a stream refused, malformed,
     * too large, too slow; a header list or target refused before it became a stream: "MadeYouReset", 2025):
     * {@code GOAWAY ENHANCE_YOUR_CALM}. Each budget of {@link Http2Budgets} trips under its own rule.
     */
    HTTP2_RESETS("RFC 9113 10.5", 0, "too many streams reset or refused"),
    /** HTTP/2: more SETTINGS, PING, PRIORITY, unknown or empty frames than {@code http2MaxControlFrames} in 10 s. */
    HTTP2_CONTROL_FRAMES("RFC 9113 10.5", 0, "too many control frames"),
    /** HTTP/2: a header block of more CONTINUATION frames than {@code http2MaxContinuationFrames} (2024's flood). */
    HTTP2_CONTINUATIONS("RFC 9113 10.5", 0, "too many CONTINUATION frames in one header block"),
    /** HTTP/2: an encoded header block larger than twice {@code maxHeaderBytes}, before any HPACK decoding. */
    HTTP2_HEADER_BLOCK("RFC 9113 10.5.1", 0, "header block too large"),
    /**
     * HTTP/2: the connection's output reached {@code http2MaxQueuedOutputBytes}, so it stopped reading, and the
     * client took nothing of it for {@code writeStallTimeout}: closed (a {@code GOAWAY} could not reach it).
     */
    HTTP2_OUTPUT_NOT_TAKEN("RFC 9113 10.5", 0, "output not taken at the queued-output budget");

    private final String section;
    private final int status;
    private final String reason;

    Refusal(String section, int status, String reason) {
        this.section = section;
        this.status = status;
        this.reason = reason;
    }

    /** The specification section (or the reason) behind the refusal. */
    public String section() {
        return section;
    }

    /** The response status, or {@code 0} when no response can be sent (the connection closes). */
    public int status() {
        return status;
    }

    /** The reason sent back; for {@link #BODY_TOO_LARGE} it names the body limit of {@code options}. */
    public String reason(ServerOptions options) {
        if (this == BODY_TOO_LARGE) {
            return tooLarge(options.bodyLimit());
        }
        return reason;
    }

    /** The reason of a {@link #BODY_TOO_LARGE} refusal under {@code limit}. */
    public static String tooLarge(long limit) {
        return "request body larger than " + limit + " bytes";
    }

    /** What the body's reader gets when the body is refused as {@link #BODY_TOO_LARGE} under {@code limit}. */
    public static dev.fleche.transport.RequestBodyException tooLargeException(long limit) {
        return new dev.fleche.transport.RequestBodyException(413, BODY_TOO_LARGE.name(), tooLarge(limit));
    }
}
