package dev.fleche.transport.internal.http1;

import dev.fleche.transport.http1.RequestHead;
import dev.fleche.transport.internal.channel.ConnectionChannel;
import dev.fleche.transport.internal.channel.Origin;
import dev.fleche.transport.internal.loop.Reactor;

import java.nio.channels.SelectionKey;

/**
 * Where an HTTP/1.1 connection hands its socket when its client turns out to speak HTTP/2 ({@link Http2Entry}): the
 * server's wiring makes the HTTP/2 connection, which this package does not name. The two protocols never import
 * each other; this is the one way across.
 */
@FunctionalInterface
public interface ToHttp2 {
    /**
     * Hands the socket over: an HTTP/2 connection takes {@code from}'s key and place in {@code reactor}, writes
     * {@code before} (an upgrade's {@code 101}, or null) ahead of its SETTINGS, serves {@code bytes[offset, end)}
     * (what the HTTP/1.1 connection read already), and an {@code upgraded} request (null when none) becomes stream 1
     * after its {@code settings} are applied. Returns the new connection as the listener of {@code channel}'s events,
     * which the channel still tells {@code from}.
     */
    ConnectionChannel.Listener take(Reactor reactor, Reactor.Attachment from, ConnectionChannel channel, long id,
            SelectionKey key, Origin origin, byte[] before, RequestHead upgraded, byte[] settings, byte[] bytes,
            int offset, int end);
}
