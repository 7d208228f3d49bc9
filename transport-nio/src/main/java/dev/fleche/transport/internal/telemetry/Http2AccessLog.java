package dev.fleche.transport.internal.telemetry;

import dev.fleche.transport.internal.channel.ConnectionChannel;
import dev.fleche.transport.http1.RequestHead;
import dev.fleche.transport.internal.telemetry.accesslog.AccessLogWriter;
import dev.fleche.transport.internal.telemetry.accesslog.LogEntry;

import java.net.InetSocketAddress;
import java.util.function.LongSupplier;

/**
 * The access-log part of an {@link Http2Connection}, present only when the server has an access log: one entry per
 * stream, begun with its request head, counted by the connection (body bytes in, DATA bytes out, status, rule) and
 * handed to the writer when the stream's last frame is framed (its {@code END_STREAM}), or as cut when the stream is
 * reset or the connection closes. Unlike HTTP/1.1's {@link ConnectionLog} it does not wait for the bytes to leave
 * the socket: streams interleave, so "written" is per frame, not per response. Reactor thread only.
 */
public final class Http2AccessLog {
    private final AccessLogWriter writer;
    private final long connectionId;
    private final ConnectionChannel channel;
    private final LongSupplier clock;

    public Http2AccessLog(AccessLogWriter writer, long connectionId, ConnectionChannel channel, LongSupplier clock) {
        this.writer = writer;
        this.connectionId = connectionId;
        this.channel = channel;
        this.clock = clock;
    }

    /** A stream's request head is complete at {@code now}: its entry begins. */
    public LogEntry begin(RequestHead head, long now, InetSocketAddress peer) {
        LogEntry entry = new LogEntry();
        entry.connectionId = connectionId;
        entry.peer = peer;
        entry.tlsProtocol = channel.tlsInfo() == null ? null : channel.tlsInfo().protocol();
        entry.headStartNanos = now;
        entry.head = head;
        return entry;
    }

    /**
     * A request refused by {@code rule} with {@code status} before it became a stream (its header list too large,
     * its target too long): logged at once, without a head, protocol {@code HTTP/2}, with the DATA bytes of its
     * answer ({@code bytesOut}); its header block was whole at {@code now}.
     */
    public void refused(String rule, int status, long bytesOut, long now, InetSocketAddress peer) {
        LogEntry entry = new LogEntry();
        entry.connectionId = connectionId;
        entry.peer = peer;
        entry.tlsProtocol = channel.tlsInfo() == null ? null : channel.tlsInfo().protocol();
        entry.headStartNanos = now;
        entry.protocol = "HTTP/2";
        entry.rule = rule;
        entry.status = status;
        entry.bytesOut = bytesOut;
        ended(entry, false);
    }

    /** The stream is over: whole ({@code cut} false) or reset, or its connection closed. */
    public void ended(LogEntry entry, boolean cut) {
        entry.cut = cut;
        entry.durationNanos = Math.max(0, clock.getAsLong() - entry.headStartNanos);
        entry.endWallMillis = writer.clock().millis();
        writer.offer(entry);
    }
}
