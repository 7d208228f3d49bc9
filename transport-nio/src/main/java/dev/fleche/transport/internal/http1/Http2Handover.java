package dev.fleche.transport.internal.http1;

import dev.fleche.transport.ServerOptions;
import dev.fleche.transport.TlsOptions;
import dev.fleche.transport.http1.RequestHead;
import dev.fleche.transport.internal.channel.ConnectionChannel;
import dev.fleche.transport.internal.channel.Origin;
import dev.fleche.transport.internal.loop.Reactor;

import java.nio.channels.SelectionKey;

/**
 * One HTTP/1.1 connection's way to HTTP/2, before its first request: whether its TLS handshake chose {@code h2} by
 * ALPN, what its first bytes are to the connection preface (prior knowledge) and whether its first request asks to
 * upgrade to h2c ({@link Http2Entry} says how a client shows it), then the hand-over itself through {@link ToHttp2},
 * after which it keeps the HTTP/2 connection that took the socket: the channel still tells the HTTP/1.1 connection
 * its events, which passes them on. The connection decides when, and ends itself; this part never names it (it knows
 * it as the {@link Reactor.Attachment} whose place the HTTP/2 connection takes). Reactor thread only.
 *
 * <pre>
 *   NONE ─ ALPN h2 ─▶ CHOSEN ─ handOver ─▶ HANDED        NONE ─ preface, upgrade: handOver ─▶ HANDED
 * </pre>
 */
final class Http2Handover {
    private final Reactor reactor;
    private final ServerOptions options;
    private final ConnectionChannel channel;
    private final Reactor.Attachment from;
    private final long id;
    private final Origin origin;
    private final ToHttp2 to;
    /** The client chose {@code h2} by ALPN: the socket goes to HTTP/2 before any request. */
    private boolean alpnChosen;
    /** The HTTP/2 connection the socket was handed to, or null. */
    private ConnectionChannel.Listener handedTo;

    Http2Handover(Reactor reactor, ConnectionChannel channel, Reactor.Attachment from, long id, Origin origin,
            ToHttp2 to) {
        this.reactor = reactor;
        this.options = reactor.options;
        this.channel = channel;
        this.from = from;
        this.id = id;
        this.origin = origin;
        this.to = to;
    }

    /**
     * The first TLS handshake is done: returns whether the client chose {@code h2} by ALPN (with HTTP/2 by ALPN on);
     * then the bytes read next, or a task if none come with the handshake, hand over.
     */
    boolean alpnChosen() {
        if (options.http2Alpn() && TlsOptions.ALPN_H2.equals(channel.tlsInfo().applicationProtocol())) {
            alpnChosen = true;
        }
        return alpnChosen;
    }

    /**
     * Before the first request: what {@code bytes[offset, end)} are to HTTP/2 — {@code HTTP2} when the client chose
     * {@code h2} by ALPN or they begin with the preface's first line (prior knowledge, when on and in clear text),
     * {@code PARTIAL} while that line is not whole yet, else {@code NOT}.
     */
    Http2Entry.Preface entry(byte[] bytes, int offset, int end) {
        if (alpnChosen) {
            return Http2Entry.Preface.HTTP2;
        }
        if (!options.http2PriorKnowledge() || channel.tlsInfo() != null) {
            return Http2Entry.Preface.NOT;
        }
        return Http2Entry.preface(bytes, offset, end);
    }

    /** The decoded {@code HTTP2-Settings} of a first request that asks to upgrade to h2c and may, else null. */
    byte[] upgradeSettings(RequestHead head) {
        return Http2Entry.upgradeAsked(options, channel, head) ? Http2Entry.upgradeSettings(head) : null;
    }

    /**
     * Hands the socket to HTTP/2 ({@link ToHttp2#take}): the new connection takes {@code key}, the reactor place of
     * the connection this part belongs to and {@code bytes[offset, end)}; {@code before} (a {@code 101}) is written
     * first, and an {@code upgraded} request becomes stream 1 with its {@code settings}.
     */
    void handOver(SelectionKey key, byte[] before, RequestHead upgraded, byte[] settings, byte[] bytes, int offset,
            int end) {
        ConnectionChannel.Listener next = to.take(reactor, from, channel, id, key, origin, before, upgraded, settings,
                bytes == null ? new byte[0] : bytes, offset, end);
        handedTo = next;
        if (channel.hasBufferedInput()) {
            reactor.execute(next::channelReady);
        }
    }

    /** The HTTP/2 connection the socket was handed to, which the channel's events go on to; null before. */
    ConnectionChannel.Listener handedTo() {
        return handedTo;
    }
}
