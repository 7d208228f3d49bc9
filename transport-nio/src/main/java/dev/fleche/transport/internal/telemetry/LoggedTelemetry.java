package dev.fleche.transport.internal.telemetry;

import dev.fleche.transport.internal.channel.ConnectionChannel;
import dev.fleche.transport.internal.rules.Refusal;
import dev.fleche.transport.http1.RequestHead;
import dev.fleche.transport.internal.telemetry.accesslog.LogEntry;


/**
 * {@link Telemetry} with the access log on: also follows each request into the connection's {@link ConnectionLog},
 * an HTTP/1.1 request or an HTTP/2 stream. "Framed so far" (what the log counts an HTTP/1.1 response's bytes with)
 * is the bytes written, queued and staged.
 */
public final class LoggedTelemetry extends Telemetry {
    private final ConnectionLog log;

    LoggedTelemetry(Counters counters, Events events, long id, ConnectionLog log) {
        super(counters, events, id);
        this.log = log;
    }

    /** Response bytes framed on this connection so far (written, queued or staged). */
    private long framed(long unwritten) {
        return log.writtenBytes() + unwritten;
    }

    @Override
    public void plaintextRefused() {
        super.plaintextRefused();
        log.refusedRaw(Refusal.PLAINTEXT_ON_TLS_PORT.name(), Refusal.PLAINTEXT_ON_TLS_PORT.status());
    }

    @Override
    public void written(long n) {
        super.written(n);
        log.written(n);
    }

    @Override
    public void headBegins(long now) {
        log.headBegins(now);
    }

    @Override
    public LogEntry requestStarted(RequestHead head, long unwritten) {
        super.requestStarted(head, unwritten);
        return log.begin(head, framed(unwritten));
    }

    @Override
    public void bodyBytes(long n) {
        log.bodyBytes(n);
    }

    @Override
    public void responded(int status) {
        super.responded(status);
        log.status(status);
    }

    @Override
    public void responseFramed(long unwritten) {
        log.responseFramed(framed(unwritten));
    }

    @Override
    public void refusalFraming(String rule, int status, long unwritten) {
        log.refused(rule, status, framed(unwritten));
    }

    @Override
    public void closing() {
        log.closed();
    }

    @Override
    public LogEntry streamStarted(RequestHead head, long now) {
        super.streamStarted(head, now);
        return log.streamBegins(head, now);
    }

    @Override
    public void streamEnded(LogEntry entry, boolean cut) {
        log.streamEnded(entry, cut);
    }

    @Override
    public void refusedAlone(String rule, int status, long bytesOut, long now) {
        log.refusedAlone(rule, status, bytesOut, now);
    }
}
