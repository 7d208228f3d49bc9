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
 * The access-log part of a connection (the access-log telemetry's), present only when the server has an access log: it follows each
 * request from its head to its last response byte and hands the finished {@link LogEntry} to the writer. Reactor
 * thread only.
 *
 * <p>Bytes are followed with one running number: every response byte the connection frames is, at any moment,
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
    private Origin origin;
    /** When the head being read began (the reactor's clock). */
    private long headStart;
    /** Response bytes of this connection written to the channel. */
    private long written;
    /** The request being served whose response is not framed whole yet; null between requests. */
    private LogEntry current;
    /** Responses framed whole and not yet written whole, in order. */
    private ArrayDeque<LogEntry> unwritten;

    ConnectionLog(AccessLogWriter writer, long connectionId, ConnectionChannel channel, LongSupplier clock) {
        this.writer = writer;
        this.connectionId = connectionId;
        this.channel = channel;
        this.clock = clock;
    }

    /** The connection's addresses: the client's is each line's peer. */
    void origin(Origin value) {
        origin = value;
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
        LogEntry entry = new LogEntry();
        entry.connectionId = connectionId;
        entry.peer = peer();
        TlsInfo tls = channel.tlsInfo();
        entry.tlsProtocol = tls == null ? null : tls.protocol();
        entry.headStartNanos = headStart;
        entry.startMark = framed;
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

    private void emit(LogEntry entry, long bytesOut, boolean cut) {
        entry.bytesOut = bytesOut;
        entry.cut = cut;
        entry.durationNanos = Math.max(0, clock.getAsLong() - entry.headStartNanos);
        entry.endWallMillis = writer.clock().millis();
        writer.offer(entry);
    }
}
