package dev.fleche.transport;

import dev.fleche.transport.internal.channel.AddressRange;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * The PROXY protocol (HAProxy's, versions 1 and 2) on a listener ({@link ServerOptions.Builder#proxyProtocol}):
 * every connection must begin with a PROXY header, sent by a proxy at one of the trusted source addresses, before
 * any TLS or HTTP byte. The client's address and port it carries become the connection's
 * {@link HttpExchange#remoteAddress()} (and {@link HttpExchange#localAddress()} the address the client connected to),
 * everywhere the transport and the Jersey container use them: the access log, {@code ClientConnection}, Jersey's
 * remote address. Off by default: a header from anyone else would let a client choose its own address.
 *
 * <table>
 *   <caption>Settings, defaults and meaning</caption>
 *   <tr><th>setting</th><th>default</th><th>meaning</th></tr>
 *   <tr><td>{@code trustedSources}</td><td>(required, at least one)</td><td>the proxies' addresses, as CIDR
 *       ranges or single addresses ({@code 10.0.0.0/8}, {@code 2001:db8::/32}, {@code 192.0.2.7}); a connection
 *       from any other address is closed before a byte is read ({@code PROXY_SOURCE_UNTRUSTED}). Trusting every
 *       address takes saying so: {@code 0.0.0.0/0} and {@code ::/0}. On a Unix domain socket every peer is
 *       trusted: the socket file's permissions decide who connects</td></tr>
 *   <tr><td>{@code maxHeaderBytes}</td><td>{@value #DEFAULT_MAX_HEADER_BYTES}</td><td>the largest version 2 header,
 *       its type-length-value fields included (a version 1 header is at most 107 bytes by its specification);
 *       beyond it the connection closes ({@code PROXY_HEADER_TOO_LONG})</td></tr>
 * </table>
 *
 * <p>The header must be complete within {@code ServerOptions.headerTimeout} of the accept
 * ({@code PROXY_HEADER_TIMEOUT}). A connection without a header, with a malformed or truncated one, is closed
 * without a byte, counted by its rule ({@code ServerMetrics.refusals}) and access-logged: the peer is a proxy, not
 * a client that could read an answer.
 */
public record ProxyProtocol(List<String> trustedSources, int maxHeaderBytes) {

    /** The default of {@code maxHeaderBytes}. */
    public static final int DEFAULT_MAX_HEADER_BYTES = 4096;

    /** The smallest {@code maxHeaderBytes}: a version 2 header with two {@code AF_UNIX} addresses (16 + 216). */
    public static final int MIN_MAX_HEADER_BYTES = 232;

    /** Validates every setting and keeps the ranges in their normal form ({@code 10.0.0.0/8}). */
    public ProxyProtocol {
        Objects.requireNonNull(trustedSources, "trustedSources");
        if (trustedSources.isEmpty()) {
            throw new IllegalArgumentException("trustedSources must name the proxies' addresses (CIDR ranges); "
                    + "0.0.0.0/0 and ::/0 trust every address");
        }
        List<String> normal = new ArrayList<>(trustedSources.size());
        for (String source : trustedSources) {
            normal.add(AddressRange.parse(Objects.requireNonNull(source, "trusted source")).toString());
        }
        trustedSources = List.copyOf(normal);
        if (maxHeaderBytes < MIN_MAX_HEADER_BYTES || maxHeaderBytes > 16 + 65_535) {
            throw new IllegalArgumentException("maxHeaderBytes must be within " + MIN_MAX_HEADER_BYTES + ".."
                    + (16 + 65_535) + ", was " + maxHeaderBytes);
        }
    }

    /** A builder holding the defaults of the table above; trusted sources must be added. */
    public static Builder builder() {
        return new Builder();
    }

    /** Builds {@link ProxyProtocol}; every setter returns {@code this}. */
    public static final class Builder {
        private final List<String> trustedSources = new ArrayList<>();
        private int maxHeaderBytes = DEFAULT_MAX_HEADER_BYTES;

        private Builder() {
        }

        /** Adds trusted proxy addresses: CIDR ranges or single addresses, literals only. */
        public Builder trust(String... ranges) {
            trustedSources.addAll(List.of(ranges));
            return this;
        }

        /** Adds trusted proxy addresses: CIDR ranges or single addresses, literals only. */
        public Builder trust(List<String> ranges) {
            trustedSources.addAll(ranges);
            return this;
        }

        public Builder maxHeaderBytes(int value) {
            maxHeaderBytes = value;
            return this;
        }

        /** Validates and returns the settings; throws {@link IllegalArgumentException} naming a bad one. */
        public ProxyProtocol build() {
            return new ProxyProtocol(trustedSources, maxHeaderBytes);
        }
    }
}
