package dev.fleche.transport;

import java.net.InetSocketAddress;

/**
 * What the PROXY protocol header of a connection said ({@link HttpExchange#proxy()}), on a listener with
 * {@link ServerOptions#proxyProtocol()} on. The exchange's {@link HttpExchange#remoteAddress()} and
 * {@link HttpExchange#localAddress()} are already the addresses it carried; this record is for code that wants the
 * rest: which version, whether it was the proxy's own connection, and the type-length-value fields of version 2
 * that a proxy may add.
 *
 * @param version     {@code 1} (the text header) or {@code 2} (the binary one)
 * @param local       whether the header carried no client: a version 2 {@code LOCAL} command (the proxy's own
 *                    connection, a health check), a version 1 {@code UNKNOWN}, or a family without addresses
 *                    ({@code AF_UNSPEC}, {@code AF_UNIX}); the connection's own addresses are then used
 * @param source      the client's address and port as the proxy saw them, or {@code null} when {@code local}
 * @param destination the address and port the client connected to on the proxy, or {@code null} when {@code local}
 * @param alpn        version 2 {@code PP2_TYPE_ALPN}: the application protocol the client negotiated with the proxy
 *                    (e.g. {@code h2}), or {@code null}
 * @param authority   version 2 {@code PP2_TYPE_AUTHORITY}: the host name the client asked the proxy for (its TLS SNI),
 *                    or {@code null}
 * @param clientTls   version 2 {@code PP2_TYPE_SSL} with its {@code PP2_CLIENT_SSL} bit: the client's connection to the
 *                    proxy used TLS
 */
public record ProxyInfo(
        int version,
        boolean local,
        InetSocketAddress source,
        InetSocketAddress destination,
        String alpn,
        String authority,
        boolean clientTls) {

    /** Checks that a header with a client carries both addresses. */
    public ProxyInfo {
        if (version != 1 && version != 2) {
            throw new IllegalArgumentException("version must be 1 or 2, was " + version);
        }
        if (!local && (source == null || destination == null)) {
            throw new IllegalArgumentException("a header with a client carries its source and destination");
        }
    }
}
