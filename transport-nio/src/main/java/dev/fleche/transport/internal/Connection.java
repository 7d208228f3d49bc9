package dev.fleche.transport.internal;

import dev.fleche.transport.http1.RequestHead;

import java.io.IOException;
import java.nio.channels.SelectionKey;
import java.nio.channels.SocketChannel;

/**
 * One client connection, owned by one {@link Reactor}: reads and parses requests, dispatches them one at a time,
 * writes responses in order, and enforces the connection's timeouts. Every method runs on the reactor thread.
 *
 * <pre>
 *            ┌──────────────────── response complete, keep-alive ─────────────────────┐
 *            ▼                                                                        │
 *        [IDLE] ── first byte ─▶ [HEAD] ── head parsed ─▶ [BODY] ─▶ [DISPATCHED] ──────┤
 *          │                       │   (aggregated or streamed)       │               │ unread body:
 *     idle timeout            parse error / limit /             client EOF/RST        │ [DRAIN] up to a
 *          │                  header timeout                      │               │ limit, else close
 *          ▼                       ▼                                ▼               │
 *       [CLOSED] ◀── error response, then close ◀──────── abort exchange ◀──────────────┘
 * </pre>
 *
 * Bytes that arrive for the next request while one is in flight (pipelining) are kept, bounded, and parsed once
 * the current response is complete; so responses always leave in request order. The connection is its own
 * timer node: one deadline, whichever phase applies (idle, head, body, write stall), checked lazily.
 *
 * <p>This class holds the lifecycle: opening, readiness, starting and dispatching exchanges, timeouts, graceful
 * stop and close. Reading and parsing are in {@link ConnectionInput}, framing and writing responses in
 * {@link ConnectionOutput}; the three are layers of this one object.
 */
final class Connection extends ConnectionInput {

    Connection(Reactor reactor, SocketChannel channel, long id) {
        super(reactor, channel, id);
    }

    void opened() {
        if (reactor.events.on()) {
            reactor.events.emit("open", id, "remote=" + channel.socket().getRemoteSocketAddress());
        }
        armTimer(lastActivity + reactor.options.idleTimeout().toNanos());
    }

    // ---------------------------------------------------------------- readiness

    void onReady(SelectionKey ready) {
        try {
            if (ready.isWritable()) {
                writeOut();
            }
            if (!closed && ready.isReadable()) {
                read();
            }
        } catch (IOException e) {
            close("io-error");
        } catch (RuntimeException e) {
            Events.warn("connection-error", id, e);
            close("internal-error");
        }
    }

    // ---------------------------------------------------------------- exchanges

    @Override
    void startExchange(RequestHead head) {
        readingHead = false;
        reactor.counters.requests++;
        Exchange started = new Exchange(this, head);
        exchange = started;
        if (reactor.events.on()) {
            reactor.events.emit("request", id, "method=" + head.method() + " target=" + head.target());
        }
        if (!head.hasBody()) {
            dispatch(started);
            return;
        }
        long length = head.contentLength();
        if (length > reactor.options.maxBodyBytes()) {
            reject(413, "request body larger than " + reactor.options.maxBodyBytes() + " bytes");
            return;
        }
        armTimer(reactor.now + reactor.options.bodyTimeout().toNanos());
        if (!head.chunked() && length <= reactor.options.bodyAggregationBytes() && !head.expectContinue()) {
            started.aggregateBody(); // dispatched once the body is complete
        } else {
            started.streamBody();
            dispatch(started);
        }
    }

    /** Calls the handler on this thread. */
    void dispatch(Exchange ex) {
        try {
            reactor.handler.handle(ex);
        } catch (Throwable t) {
            reactor.counters.handlerErrors++;
            Events.warn("handler-error", id, t);
            ex.failFromTransport(500, "internal server error");
        }
    }

    // ---------------------------------------------------------------- timers

    @Override
    void expire() {
        if (closed) {
            return;
        }
        if (lingering) {
            close("linger-timeout");
            return;
        }
        long now = reactor.now;
        long recheck = now + reactor.options.idleTimeout().toNanos();
        if (outputQueued()) {
            long due = lastWriteProgress + reactor.options.writeStallTimeout().toNanos();
            if (due - now <= 0) {
                timedOut("write-stall", 0, null);
                return;
            }
            recheck = Math.min(recheck, due);
        }
        if (exchange == null) {
            if (readingHead) {
                long due = headStart + reactor.options.headerTimeout().toNanos();
                if (due - now <= 0) {
                    timedOut("header", 408, "request head not received in time");
                    return;
                }
                recheck = Math.min(recheck, due);
            } else {
                long due = lastActivity + reactor.options.idleTimeout().toNanos();
                if (due - now <= 0) {
                    timedOut("idle", 0, null);
                    return;
                }
                recheck = Math.min(recheck, due);
            }
        } else if (exchange.receivingBody() && !readPaused) {
            long due = lastActivity + reactor.options.bodyTimeout().toNanos();
            if (due - now <= 0) {
                timedOut("body", 408, "request body not received in time");
                return;
            }
            recheck = Math.min(recheck, due);
        }
        reactor.wheel.schedule(this, recheck);
    }

    private void timedOut(String phase, int status, String reason) {
        reactor.counters.timeouts++;
        if (reactor.events.on()) {
            reactor.events.emit("timeout", id, "phase=" + phase);
        }
        closeReason = phase + " timeout";
        if (status != 0 && !outputQueued()) {
            sendErrorAndClose(status, reason);
            return;
        }
        close(phase + "-timeout");
    }

    // ---------------------------------------------------------------- shutdown

    /** Graceful stop: close now if idle, else after the response in flight. */
    void drain() {
        if (exchange == null && !outputQueued()) {
            close("stop");
        }
    }

    @Override
    void close(String reason) {
        if (closed) {
            return;
        }
        closed = true;
        if (closeReason == null) {
            closeReason = reason;
        }
        reactor.wheel.cancel(this);
        if (reactor.stagingOwner == this) {
            reactor.staging.clear();
            reactor.stagingOwner = null;
        }
        key.cancel();
        try {
            channel.close();
        } catch (IOException ignored) {
            // closing anyway
        }
        Exchange current = exchange;
        if (current != null) {
            current.clientGone("connection closed: " + closeReason);
        }
        releaseInput();
        dropQueuedOutput();
        reactor.closed(this);
        if (reactor.events.on()) {
            reactor.events.emit("close", id, "reason=" + reason);
        }
    }
}
