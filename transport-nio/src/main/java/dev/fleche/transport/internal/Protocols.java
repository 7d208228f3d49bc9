package dev.fleche.transport.internal;

import dev.fleche.transport.ErrorRenderer;
import dev.fleche.transport.HttpFields;
import dev.fleche.transport.ServerOptions;
import dev.fleche.transport.internal.exchange.HttpDate;
import dev.fleche.transport.internal.http1.Http1Connection;
import dev.fleche.transport.internal.http1.Http1Shared;
import dev.fleche.transport.internal.http1.ResponseEncoder;
import dev.fleche.transport.internal.http1.ToHttp2;
import dev.fleche.transport.internal.http2.Http2Connection;
import dev.fleche.transport.internal.loop.ByteSink;
import dev.fleche.transport.internal.loop.Reactor;
import dev.fleche.transport.internal.proxy.ProxyIntake;
import dev.fleche.transport.internal.rules.Refusal;

import java.util.function.Consumer;

/**
 * The one place the server names its protocols: what each reactor makes of an accepted socket — an HTTP/1.1
 * connection, which hands its socket to an HTTP/2 connection when the client speaks HTTP/2, behind a PROXY intake on a
 * listener that takes the header — and the acceptor's answer beyond {@code maxConnections}. The loop, the channels and
 * the two protocols know none of each other; this class puts them together.
 */
public final class Protocols {
    private Protocols() {
    }

    /** What the sockets of one reactor become; call once per reactor (it holds that reactor's shared parts). */
    public static Reactor.ConnectionFactory connections(ServerOptions options) {
        return connections(options, http1(options));
    }

    /** What the HTTP/1.1 connections of one reactor share (its own {@code Date} cache, which HTTP/2 shares too). */
    public static Http1Shared http1(ServerOptions options) {
        HttpDate date = new HttpDate();
        return new Http1Shared(options, date, toHttp2(date));
    }

    /** {@link #connections(ServerOptions)} with the reactor's HTTP/1.1 parts given (a test reads their pool). */
    public static Reactor.ConnectionFactory connections(ServerOptions options, Http1Shared shared) {
        Reactor.ConnectionFactory http = (reactor, socket, id, origin, early) ->
                new Http1Connection(reactor, socket, id, origin, early, shared);
        return options.proxyProtocol() == null ? http : ProxyIntake.factory(options.proxyProtocol(), http);
    }

    /** An HTTP/2 connection takes the socket over from an HTTP/1.1 one, in its place on the reactor. */
    private static ToHttp2 toHttp2(HttpDate date) {
        return (reactor, from, channel, id, key, origin, before, upgraded, settings, bytes, offset, end) -> {
            Http2Connection next = new Http2Connection(reactor, channel, id, key, origin, date);
            reactor.handOver(from, next, key);
            next.start(before, upgraded, settings, bytes, offset, end);
            return next;
        };
    }

    /**
     * The acceptor's answer beyond {@code maxConnections} ({@link Refusal#OVERLOADED}): {@code 503} with
     * {@code Retry-After}, encoded as every refusal is, with its own {@code Date} cache (the acceptor's thread).
     */
    public static Consumer<ByteSink> overloadAnswer(ErrorRenderer renderer) {
        ResponseEncoder encoder = new ResponseEncoder();
        HttpFields retryAfter = new HttpFields(1).add("Retry-After", "1");
        Refusal overloaded = Refusal.OVERLOADED;
        return sink -> encoder.encodeRefusal(sink, overloaded.status(), overloaded.reason(null), renderer, retryAfter,
                false);
    }
}
