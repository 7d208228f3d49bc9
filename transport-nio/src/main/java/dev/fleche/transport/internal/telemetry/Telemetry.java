package dev.fleche.transport.internal.telemetry;

import dev.fleche.transport.internal.rules.Deadline;
import dev.fleche.transport.internal.channel.Origin;
import dev.fleche.transport.internal.rules.Refusal;
import dev.fleche.transport.TlsInfo;
import dev.fleche.transport.http1.ProtocolRule;
import dev.fleche.transport.http1.RequestHead;
import dev.fleche.transport.internal.channel.ConnectionChannel;
import dev.fleche.transport.internal.rules.StaticRule;
import dev.fleche.transport.internal.telemetry.accesslog.AccessLogWriter;
import dev.fleche.transport.internal.telemetry.accesslog.LogEntry;

import java.util.function.LongSupplier;


/**
 * What a connection tells the world: its reactor's {@link Counters}, the structured {@link Events}, and (in
 * {@link LoggedTelemetry}, when the server has an access log) the access log. One per connection, never null;
 * each method is named after what happened, and the connection calls it where it happened. Without an access log
 * the log's methods here do nothing; events cost one test of a flag decided when the server started. Reactor
 * thread only.
 */
public class Telemetry {
    final long id;
    private final Counters counters;
    private final Events events;

    public Telemetry(Counters counters, Events events, long id) {
        this.id = id;
        this.counters = counters;
        this.events = events;
    }

    /**
     * A connection's telemetry, whichever its protocol: with the access log ({@link LoggedTelemetry}, following each
     * request of the connection from {@code origin}) when the server has one ({@code accessLog} not null), else
     * without.
     */
    public static Telemetry of(Counters counters, Events events, long id, AccessLogWriter accessLog,
            ConnectionChannel channel, Origin origin, LongSupplier clock) {
        return accessLog == null ? new Telemetry(counters, events, id)
                : new LoggedTelemetry(counters, events, id, new ConnectionLog(accessLog, id, channel, origin, clock));
    }

    public void opened(Origin origin) {
        if (events.on()) {
            events.emit("open", id, "remote=" + origin.remote());
        }
    }

    public void handshakeDone(TlsInfo tls) {
        if (events.on()) {
            events.emit("tls-handshake", id, "protocol=" + tls.protocol() + " cipher=" + tls.cipherSuite()
                    + " sni=" + tls.sniHostName() + " clientCerts=" + tls.peerCertificates().size());
        }
    }

    /** A TLS failure: the client's (bad records, a failed handshake, a renegotiation), so no stack trace. */
    public void tlsFailed(Object state, String message) {
        if (events.on()) {
            events.emit("tls-error", id, "state=" + state + " message=\"" + message + "\"");
        }
    }

    /** Plain HTTP on the TLS port: the channel answered 400 itself. */
    public void plaintextRefused() {
        counters.protocolErrors++;
        counters.refused(Refusal.PLAINTEXT_ON_TLS_PORT);
        if (events.on()) {
            events.emit("reject", id, "status=400 reason=\"This port speaks HTTPS\" rule=PLAINTEXT_ON_TLS_PORT");
        }
    }

    public void read(long n) {
        counters.bytesRead += n;
    }

    public void written(long n) {
        counters.bytesWritten += n;
    }

    public void halfClosed() {
        if (events.on()) {
            events.emit("half-close", id, null);
        }
    }

    public void disconnected() {
        if (events.on()) {
            events.emit("disconnect", id, null);
        }
    }

    /** The first byte of a request head is read at {@code now}. */
    public void headBegins(long now) {
    }

    /** A request head is complete; returns its access-log entry (for the exchange's fields), or null. */
    public LogEntry requestStarted(RequestHead head, long unwritten) {
        counters.requests++;
        counters.requestsByProtocol[head.minorVersion() == 0 ? Counters.HTTP_1_0 : Counters.HTTP_1_1]++;
        if (events.on()) {
            events.emit("request", id, "method=" + head.method() + " target=" + head.target());
        }
        return null;
    }

    /** {@code n} bytes of the request body arrived. */
    public void bodyBytes(long n) {
    }

    /** The handler (or its response head) failed: our fault, with its stack trace. */
    public void handlerFailed(Throwable error) {
        counters.handlerErrors++;
        Events.warn("handler-error", id, error);
    }

    /** The connection failed by a fault of ours: with its stack trace. */
    public void failed(RuntimeException error) {
        Events.warn("connection-error", id, error);
    }

    /** The handler abandoned its exchange. */
    public void aborted() {
        counters.handlerErrors++;
    }

    /** A final response head with {@code status} was framed. */
    public void responded(int status) {
        counters.responded(status);
    }

    /** The response of the request in flight is framed whole. */
    public void responseFramed(long unwritten) {
    }

    /** The parser refused by {@code rule}. */
    public void refused(ProtocolRule rule) {
        counters.protocolErrors++;
        counters.refused(rule);
    }

    /** The transport refused by {@code refusal}; a body too large counts as a protocol error too. */
    public void refused(Refusal refusal) {
        counters.refused(refusal);
        if (refusal == Refusal.BODY_TOO_LARGE) {
            counters.protocolErrors++;
        }
    }

    /**
     * Static content refused an exchange by {@code rule} before answering it: counted by its rule, a {@code reject}
     * event (its access-log line gets the rule from the exchange).
     */
    public void refused(StaticRule rule) {
        counters.refused(rule);
        rejected(rule.status(), rule.reason(), rule.name());
    }

    /**
     * HTTP/2: the client went beyond the budget of {@code rule} ({@code why}) at {@code now}, and the connection goes
     * away: counted, a {@code reject} event, one access-log line.
     */
    public void budgetTripped(Refusal rule, String why, long now) {
        refused(rule);
        rejected(rule.status(), why, rule.name());
        refusedAlone(rule.name(), rule.status(), 0, now);
    }

    /** A refusal is being answered (or, when the connection already closes, just closes it). */
    public void rejected(int status, String reason, String rule) {
        if (events.on()) {
            events.emit("reject", id, "status=" + status + " reason=\"" + reason + "\" rule=" + rule);
        }
    }

    /** The refusal by {@code rule} with {@code status} is about to be framed (before its bytes). */
    public void refusalFraming(String rule, int status, long unwritten) {
    }

    public void timedOut(Deadline deadline) {
        counters.timeouts++;
        if (events.on()) {
            events.emit("timeout", id, "phase=" + deadline.phase());
        }
    }

    /** An exchange is over: its response is done and its body read, or the connection closed under it. */
    public void exchangeEnded() {
        counters.exchangesEnded++;
    }

    /** The connection is closing now: whatever was not written whole is what the client got. */
    public void closing() {
    }

    /** The connection speaks HTTP/2 from now on (handed over by the HTTP/1.1 connection). */
    public void http2Started() {
        counters.http2Connections++;
        if (events.on()) {
            events.emit("h2", id, null);
        }
    }

    /**
     * An HTTP/2 stream's request head is complete at {@code now}: a request of protocol HTTP/2; returns its
     * access-log entry (which the connection counts into and ends with {@link #streamEnded}), or null.
     */
    public LogEntry streamStarted(RequestHead head, long now) {
        counters.requests++;
        counters.requestsByProtocol[Counters.HTTP_2]++;
        if (events.on()) {
            events.emit("request", id, "method=" + head.method() + " target=" + head.target());
        }
        return null;
    }

    /** The HTTP/2 stream of access-log {@code entry} is over: whole, or {@code cut} (reset, or the connection closed). */
    public void streamEnded(LogEntry entry, boolean cut) {
    }

    /**
     * HTTP/2 refused by {@code rule} with {@code status} without a stream, at {@code now}: a request refused before it
     * became one (its answer carried {@code bytesOut} bytes of DATA), or the connection for a budget: one access-log
     * line. (Counted and told as an event by {@link #refused} and {@link #rejected}.)
     */
    public void refusedAlone(String rule, int status, long bytesOut, long now) {
    }

    /** We sent RST_STREAM with an error code (not the NO_ERROR that only tells a client to stop sending a body). */
    public void resetSent() {
        counters.http2StreamsReset++;
    }

    /**
     * An HTTP/2 stream was reset: by the client ({@code byClient}: counted as a reset here) or by us for a stream
     * error (a protocol error; the reset itself is counted by {@link #resetSent}).
     */
    public void streamReset(int stream, String why, boolean byClient) {
        if (byClient) {
            counters.http2StreamsReset++;
        } else {
            counters.protocolErrors++;
        }
        if (events.on()) {
            events.emit(byClient ? "h2-reset-by-client" : "h2-reset", id, "stream=" + stream + " why=\"" + why + "\"");
        }
    }

    /** An HTTP/2 connection error: GOAWAY with {@code code} is sent; the client's fault, no stack trace. */
    public void http2Error(String code, String message) {
        counters.protocolErrors++;
        if (events.on()) {
            events.emit("h2-goaway", id, "code=" + code + " why=\"" + message + "\"");
        }
    }

    /** An HTTP/2 frame was read and handled (work, counted for tests). */
    public void http2Frame() {
        counters.http2Frames++;
    }

    /** An HTTP/2 stream was pumped: it sent what its windows allow (work, counted for tests). */
    public void http2StreamPumped() {
        counters.http2StreamsPumped++;
    }

    /** A SETTINGS frame changed an open stream's send window (work, counted for tests). */
    public void http2StreamWindowChanged() {
        counters.http2StreamWindowsChanged++;
    }

    /** An HTTP/2 connection stopped reading: {@code queued} bytes of output wait for the client (its budget). */
    public void outputHeld(long queued) {
        if (events.on()) {
            events.emit("h2-output-held", id, "queued=" + queued);
        }
    }

    /** The client took the output down to {@code queued} bytes: the HTTP/2 connection reads again. */
    public void outputResumed(long queued) {
        if (events.on()) {
            events.emit("h2-output-resumed", id, "queued=" + queued);
        }
    }

    /** The client sent GOAWAY. */
    public void goAwayReceived(int lastStream, String code) {
        if (events.on()) {
            events.emit("h2-goaway-received", id, "last=" + lastStream + " code=" + code);
        }
    }

    public void closed(String reason) {
        if (events.on()) {
            events.emit("close", id, "reason=" + reason);
        }
    }
}
