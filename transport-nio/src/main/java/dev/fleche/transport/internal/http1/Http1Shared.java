package dev.fleche.transport.internal.http1;

import dev.fleche.transport.ServerOptions;
import dev.fleche.transport.http1.RequestHeadParser;
import dev.fleche.transport.internal.exchange.HttpDate;

import java.util.ArrayDeque;

/**
 * What the HTTP/1.1 connections of one reactor share: the response encoder (with the reactor's {@code Date} cache),
 * the pool of request-head parsers (a connection holds one only while a head is incomplete), and the way to HTTP/2.
 * One per reactor, made by the server's wiring; its reactor's thread only.
 */
public final class Http1Shared {
    /** Parsers kept in the pool at most. */
    private static final int POOLED_PARSERS = 64;

    final ServerOptions options;
    final ResponseEncoder encoder;
    final ToHttp2 http2;
    private final ArrayDeque<RequestHeadParser> parsers = new ArrayDeque<>();

    public Http1Shared(ServerOptions options, HttpDate date, ToHttp2 http2) {
        this.options = options;
        this.encoder = new ResponseEncoder(date);
        this.http2 = http2;
    }

    /** A request-head parser for a connection starting a head; reused across connections. */
    public RequestHeadParser borrowParser() {
        RequestHeadParser parser = parsers.poll();
        if (parser == null) {
            parser = new RequestHeadParser(options.maxRequestLineBytes(), options.maxHeaderBytes(),
                    options.maxHeaderCount());
        }
        return parser;
    }

    public void returnParser(RequestHeadParser parser) {
        if (parsers.size() < POOLED_PARSERS) {
            parser.reset();
            parsers.push(parser);
        }
    }

    /** Parsers waiting in the pool (a test's leak check: each borrowed parser comes back once). */
    public int pooledParsers() {
        return parsers.size();
    }
}
