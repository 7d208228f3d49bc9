package dev.fleche.transport.internal;

import dev.fleche.transport.http1.RequestHead;
import dev.fleche.transport.internal.accesslog.LogEntry;


/**
 * {@link Telemetry} with the access log on: also follows each request into the connection's {@link ConnectionLog}.
 * "Framed so far" (what the log counts a response's bytes with) is the bytes written, queued and staged.
 */
final class LoggedTelemetry extends Telemetry {
    private final ConnectionLog log;

    LoggedTelemetry(Reactor reactor, long id, ConnectionChannel channel) {
        super(reactor, id);
        this.log = new ConnectionLog(reactor.accessLog, id, channel, reactor.options.nanoClock());
    }

    /** Response bytes framed on this connection so far (written, queued or staged). */
    private long framed(Outbound out) {
        return log.writtenBytes() + (out == null ? 0 : out.queuedBytes() + out.stagedBytes());
    }

    @Override
    void opened(Origin origin) {
        log.origin(origin);
        super.opened(origin);
    }

    @Override
    void plaintextRefused() {
        super.plaintextRefused();
        log.refusedRaw(Refusal.PLAINTEXT_ON_TLS_PORT.name(), Refusal.PLAINTEXT_ON_TLS_PORT.status());
    }

    @Override
    void written(long n) {
        super.written(n);
        log.written(n);
    }

    @Override
    void headBegins(long now) {
        log.headBegins(now);
    }

    @Override
    LogEntry requestStarted(RequestHead head, Outbound out) {
        super.requestStarted(head, out);
        return log.begin(head, framed(out));
    }

    @Override
    void bodyBytes(long n) {
        log.bodyBytes(n);
    }

    @Override
    void responded(int status) {
        super.responded(status);
        log.status(status);
    }

    @Override
    void responseFramed(Outbound out) {
        log.responseFramed(framed(out));
    }

    @Override
    void refusalFraming(String rule, int status, Outbound out) {
        log.refused(rule, status, framed(out));
    }

    @Override
    void closing() {
        log.closed();
    }
}
