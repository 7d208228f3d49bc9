package dev.fleche.transport.internal.http1;

import dev.fleche.transport.HttpHandler;
import dev.fleche.transport.http1.RequestHead;
import dev.fleche.transport.internal.exchange.ConnectionDoor;
import dev.fleche.transport.internal.exchange.Exchange;
import dev.fleche.transport.internal.telemetry.Telemetry;

/**
 * The exchange in flight on an HTTP/1.1 connection — at most one: its response is the next to be written, its body
 * the next bytes read — and how many were started (the next one's {@link Exchange#stream()}; none before the first
 * request, while HTTP/2 may still take the socket). It starts an exchange for a head (its access-log entry begun),
 * calls the handler with it, tells it the client left or the connection closed, and ends it. The connection decides
 * when; this part never names it (the exchange talks back through the {@link ConnectionDoor}). Reactor thread only.
 */
final class ExchangeInFlight {
    private final ConnectionDoor door;
    private final HttpHandler handler;
    private final Telemetry telemetry;
    /** The exchange in flight, or null between requests. */
    private Exchange exchange;
    /** How many exchanges were started on the connection. */
    private int started;

    ExchangeInFlight(ConnectionDoor door, HttpHandler handler, Telemetry telemetry) {
        this.door = door;
        this.handler = handler;
        this.telemetry = telemetry;
    }

    /** Starts the exchange of {@code head}, with {@code unwritten} response bytes still waiting before its own. */
    Exchange start(RequestHead head, long unwritten) {
        Exchange ex = new Exchange(door, ++started, head);
        exchange = ex;
        ex.logEntry = telemetry.requestStarted(head, unwritten);
        return ex;
    }

    /** Whether no exchange was started yet: the first request, before which HTTP/2 may take the socket. */
    boolean none() {
        return started == 0;
    }

    /** The exchange in flight, or null. */
    Exchange current() {
        return exchange;
    }

    /** The exchange in flight when it is {@code stream}, else null (that stream is over). */
    Exchange of(int stream) {
        Exchange current = exchange;
        return current != null && current.stream() == stream ? current : null;
    }

    /** Calls the handler with {@code ex} on this thread; returns false when it threw (counted, logged: our fault). */
    boolean dispatch(Exchange ex) {
        try {
            handler.handle(ex);
            return true;
        } catch (Throwable t) {
            telemetry.handlerFailed(t);
            return false;
        }
    }

    /** The exchange is over (response sent, body read): none is in flight. */
    void ended() {
        exchange = null;
        telemetry.exchangeEnded();
    }

    /** The client left: the exchange in flight, if any, hears {@code why} (its body reads and writes fail). */
    void clientGone(String why) {
        Exchange current = exchange;
        if (current != null) {
            current.clientGone(why);
        }
    }

    /** The connection closed ({@code reason}): the exchange in flight, if any, ends and hears it. */
    void connectionClosed(String reason) {
        Exchange current = exchange;
        if (current != null) {
            telemetry.exchangeEnded();
            current.clientGone("connection closed: " + reason);
        }
    }
}
