package dev.fleche.transport.internal;

import dev.fleche.transport.internal.http1.Connection;
import dev.fleche.transport.internal.loop.Reactor;

/**
 * What the server's reactors make of each socket they adopt: an HTTP/1.1 {@link Connection}. The one place the
 * server names a protocol; a connection that learns another one by ALPN would be chosen after its handshake.
 */
public final class Http1Connections {
    private Http1Connections() {
    }

    public static Reactor.ConnectionFactory factory() {
        return Connection::new;
    }
}
