package dev.fleche.transport.internal.telemetry;

import dev.fleche.transport.internal.channel.ConnectionChannel;
import dev.fleche.transport.internal.channel.Origin;
import dev.fleche.transport.TlsInfo;
import dev.fleche.transport.http1.RequestHead;
import dev.fleche.transport.internal.telemetry.accesslog.AccessLogWriter;
import dev.fleche.transport.internal.telemetry.accesslog.LogEntry;

import java.net.InetSocketAddress;
import java.util.ArrayDeque;
import java.util.function.LongSupplier;

/**
 * The access-log part of a connection, whichever its protocol (the access-log telemetry's, {@link LoggedTelemetry}),
 * present only when the server has an access log: it makes each request's {@link LogEntry} (the connection's id, the
 * client's address, the TLS protocol, when its head began) and hands it, finished, to the writer. Reactor thread only.
 *
 * <p>What finishes an entry is the protocol's. HTTP/1.1 (one response after the other on the connection's bytes):
 * each request is followed from its head to its last response byte written. HTTP/2 (streams interleave, so "written"
 * is per frame, not per response): an entry per stream, counted by the connection (body bytes in, DATA bytes out,
 * status, rule), finished when the stream's {@code END_STREAM} is framed, or as cut when the stream is reset or the
 * connection closes; a request refused before it became a stream, or the connection caught by a budget, is one line
 * at once ({@link #refusedAlone}).
 *
 * <p>HTTP/1.1's bytes are followed with one running number: every response byte the connection frames is, at any moment,
 * written, queued or staged, so "framed so far" is {@code written + queued + staged}. A response's bytes are those
 * framed between its start and its end mark; it is written whole once the connection's written total reaches its
 * end mark. Pipelined responses wait in order; a close logs what is left, marked as cut.
 *
 * <pre>
 *   head begins ─▶ begin (current) ─ status, body bytes ─▶ responseFramed ─▶ unwritten ─ written ≥ end ─▶ writer
 *   refusal without a head ─▶ refused (current) ─┘          close: current and unwritten ─ cut ─▶ writer
 * </pre>
 */
final class ConnectionLog {
    private final AccessLogWriter writer;
    private final long connectionId;
    private final ConnectionChannel channel;
    private final LongSupplier clock;
    /** The connection's addresses (the socket's, or a PROXY header's). */
    private final Origin origin;
    /** When the head being read began (the reactor's clock). */
    private long headStart;
    /** Response bytes of this connection written to the channel. */
    private long written;
    /** The request being served whose response is not framed whole yet; null between requests. */
    private LogEntry current;
    /** Responses framed whole and not yet written whole, in order. */
    private ArrayDeque<LogEntry> unwritten;

    ConnectionLog(AccessLogWriter writer, long connectionId, ConnectionChannel channel, Origin origin,
            LongSupplier clock) {
        this.writer = writer;
        this.connectionId = connectionId;
        this.channel = channel;
        this.origin = origin;
        this.clock = clock;
    }

    /** Response bytes of this connection written so far. */
    long writtenBytes() {
        return written;
    }

    /** The first byte of a head is being read now. */
    void headBegins(long now) {
        headStart = now;
    }

    /** A request head is complete: its entry starts; returned for the exchange's {@code accessLogFields}. */
    LogEntry begin(RequestHead head, long framed) {
        LogEntry entry = newEntry(framed);
        entry.head = head;
        current = entry;
        return entry;
    }

    private LogEntry newEntry(long framed) {
        LogEntry entry = newEntry();
        entry.headStartNanos = headStart;
        entry.startMark = framed;
        return entry;
    }

    /** An entry of this connection: its id, the client's address, the TLS protocol. */
    private LogEntry newEntry() {
        LogEntry entry = new LogEntry();
        entry.connectionId = connectionId;
        entry.peer = peer();
        TlsInfo tls = channel.tlsInfo();
        entry.tlsProtocol = tls == null ? null : tls.protocol();
        return entry;
    }

    private InetSocketAddress peer() {
        return origin == null ? null : origin.remote(); // null on a Unix domain socket: logged without an address
    }

    /** Request body bytes received for the request being served. */
    void bodyBytes(long n) {
        if (current != null) {
            current.bytesIn += n;
        }
    }

    /** The response head with {@code status} was framed. */
    void status(int status) {
        if (current != null) {
            current.status = status;
        }
    }

    /** The transport refuses with {@code status} by {@code rule}; starts an entry when no head was complete. */
    void refused(String rule, int status, long framed) {
        if (current == null) {
            current = newEntry(framed);
        }
        current.rule = rule;
        current.status = status;
    }

    /** A refusal answered outside the framing (plain HTTP on the TLS port): logged at once, bytes not counted. */
    void refusedRaw(String rule, int status) {
        LogEntry entry = newEntry(0);
        entry.rule = rule;
        entry.status = status;
        entry.endMark = 0;
        emit(entry, 0, false);
    }

    /** The response of the request being served is framed whole, up to {@code framed}. */
    void responseFramed(long framed) {
        LogEntry entry = current;
        if (entry == null) {
            return;
        }
        current = null;
        entry.endMark = framed;
        if (unwritten == null) {
            unwritten = new ArrayDeque<>(2);
        }
        unwritten.add(entry);
        emitWritten();
    }

    /** {@code n} response bytes were written. */
    void written(long n) {
        written += n;
        if (unwritten != null && !unwritten.isEmpty()) {
            emitWritten();
        }
    }

    private void emitWritten() {
        LogEntry first;
        while ((first = unwritten.peek()) != null && first.endMark <= written) {
            unwritten.poll();
            emit(first, first.endMark - first.startMark, false);
        }
    }

    /** The connection closed: what was not written whole is logged as cut, with the bytes that did leave. */
    void closed() {
        if (unwritten != null) {
            for (LogEntry entry : unwritten) {
                emit(entry, Math.max(0, Math.min(written, entry.endMark) - entry.startMark), true);
            }
            unwritten.clear();
        }
        LogEntry entry = current;
        if (entry != null) {
            current = null;
            emit(entry, Math.max(0, written - entry.startMark), true);
        }
    }

    // ---------------------------------------------------------------- HTTP/2: an entry per stream

    /** A stream's request head is complete at {@code now}: its entry begins (the connection counts into it). */
    LogEntry streamBegins(RequestHead head, long now) {
        LogEntry entry = newEntry();
        entry.headStartNanos = now;
        entry.head = head;
        return entry;
    }

    /** The stream of {@code entry} is over: whole ({@code cut} false) or reset, or its connection closed. */
    void streamEnded(LogEntry entry, boolean cut) {
        entry.cut = cut;
        finish(entry);
    }

    /**
     * HTTP/2 refused by {@code rule} with {@code status} without a stream: a request refused before it became one (its
     * header list too large, its target too long), with the DATA bytes of its answer ({@code bytesOut}), or the
     * connection for a budget it went beyond; logged at once, without a head, protocol {@code HTTP/2}; what was
     * refused was whole at {@code now}.
     */
    void refusedAlone(String rule, int status, long bytesOut, long now) {
        LogEntry entry = newEntry();
        entry.headStartNanos = now;
        entry.protocol = "HTTP/2";
        entry.rule = rule;
        entry.status = status;
        entry.bytesOut = bytesOut;
        streamEnded(entry, false);
    }

    // ---------------------------------------------------------------- to the writer

    private void emit(LogEntry entry, long bytesOut, boolean cut) {
        entry.bytesOut = bytesOut;
        entry.cut = cut;
        finish(entry);
    }

    /** {@code entry} is over now: its duration and end time, then to the writer. */
    private void finish(LogEntry entry) {
        entry.durationNanos = Math.max(0, clock.getAsLong() - entry.headStartNanos);
        entry.endWallMillis = writer.clock().millis();
        writer.offer(entry);
    }
}
