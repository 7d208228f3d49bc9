package dev.fleche.transport.internal.exchange;

import dev.fleche.transport.internal.channel.FileRegion;
import dev.fleche.transport.internal.rules.StaticRule;
import dev.fleche.transport.ErrorRenderer;
import dev.fleche.transport.HttpExchange;
import dev.fleche.transport.HttpFields;

import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.util.concurrent.Executor;

/**
 * What static content ({@code internal.files}) asks of the transport's exchanges beyond {@link HttpExchange}: a
 * file's bytes sent past the heap on plain HTTP/1.1 ({@link FileRegion}), a body read off the reactor and paced by
 * the client ({@link PacedBody}), the error renderer, and a refusal counted and logged by its {@link StaticRule}.
 * The exchange must be the transport's own.
 */
public final class StaticTransfers {
    private StaticTransfers() {
    }

    /** Whether {@code exchange} can send a file with {@link #respondFile}: HTTP/1.x on a plain socket. */
    public static boolean takesFileRegions(HttpExchange exchange) {
        return ((Exchange) exchange).takesFileRegions();
    }

    /**
     * Answers {@code exchange} with {@code status}, {@code fields} and {@code count} bytes of {@code file} from
     * {@code position} as the body, sent from the file to the socket; the file must stay {@code size} bytes long
     * until sent, else the response is cut. Takes the channel (closed once sent or dropped).
     */
    public static void respondFile(HttpExchange exchange, int status, HttpFields fields, FileChannel file,
            long position, long count, long size) {
        ((Exchange) exchange).respondFile(status, fields, new FileRegion(file, position, count, size));
    }

    /**
     * Answers {@code exchange} with {@code status}, {@code fields} and the remaining bytes of {@code body} as the body,
     * on any protocol: a buffer that never changes (a file's content kept in memory), sent from where it is — from a
     * direct buffer without a copy into the heap.
     */
    public static void respondBuffer(HttpExchange exchange, int status, HttpFields fields, ByteBuffer body) {
        ((Exchange) exchange).respondBuffer(status, fields, body);
    }

    /**
     * Answers {@code exchange} with {@code status}, {@code fields} and a body of {@code length} > 0 bytes read from
     * {@code source} on {@code readers}, as fast as the client takes it.
     */
    public static void respondPaced(HttpExchange exchange, int status, HttpFields fields, long length,
            PacedBody.Source source, Executor readers) {
        PacedBody.start((Exchange) exchange, new ResponseHead(status, null, fields, length), source, readers);
    }

    /** The server's renderer of error bodies. */
    public static ErrorRenderer errorRenderer(HttpExchange exchange) {
        return ((Exchange) exchange).door().options().errorRenderer();
    }

    /** The outbound high-water mark of the server: what a streamed body may queue. */
    public static int outboundHighWaterBytes(HttpExchange exchange) {
        return ((Exchange) exchange).door().options().outboundHighWaterBytes();
    }

    /**
     * On the exchange's reactor, before it is answered: {@code exchange} is refused by {@code rule} — counted
     * ({@code ServerMetrics.refusals}), its access-log line gets the rule, and a {@code reject} event is told.
     */
    public static void refused(HttpExchange exchange, StaticRule rule) {
        Exchange ex = (Exchange) exchange;
        if (ex.logEntry != null) {
            ex.logEntry.rule = rule.name();
        }
        ex.door().refused(rule);
    }
}
