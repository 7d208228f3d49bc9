package dev.fleche.transport.internal.telemetry.accesslog;

import dev.fleche.transport.http1.RequestHead;

import java.net.InetSocketAddress;

/**
 * One access-log line before it is formatted: what the reactor knows, as references and numbers (no text is built
 * on a reactor). Filled by one reactor (or the acceptor) while its exchange runs, then handed to the
 * {@link AccessLogWriter}, whose thread alone reads it afterwards; the queue between them publishes the fields.
 */
public final class LogEntry {
    /** The wall clock (ms) when the entry was handed over; the logged time is this minus the duration. */
    public long endWallMillis;
    /** Head begun to last response byte written (or to the close). */
    public long durationNanos;
    /** The connection id; 0 for a connection refused by the acceptor (it never got one). */
    public long connectionId;
    /** The connection's peer. */
    public InetSocketAddress peer;
    /** The request head, or null when the request was refused before its head was complete. */
    public RequestHead head;
    /** The status sent, or 0 when none was. */
    public int status;
    /** Request body bytes as received (chunked framing included). */
    public long bytesIn;
    /** Response bytes written (interim {@code 100 Continue} included). */
    public long bytesOut;
    /** Set by a layer above ({@code HttpExchange.accessLogFields}), else null. */
    public String clientAddress;
    public String requestId;
    public String traceId;
    /** The TLS protocol of the connection, or null on plain HTTP. */
    public String tlsProtocol;
    /** The rule that refused the request ({@code ProtocolRule} or the transport's own refusal), or null. */
    public String rule;
    /**
     * The protocol of a request refused before its head was whole when the connection knows it ({@code HTTP/2}: a
     * stream's header list refused before it became a stream), or null: then it is the head's, if any.
     */
    public String protocol;
    /** Whether the connection closed before the response was written whole. */
    public boolean cut;

    // ---- bookkeeping of the owning connection (reactor only)

    /** When the head began to arrive, on the server's nano clock. */
    public long headStartNanos;
    /** Response bytes of the connection framed before this response. */
    public long startMark;
    /** Response bytes of the connection framed up to the end of this response; -1 while it is not complete. */
    public long endMark = -1;
}
