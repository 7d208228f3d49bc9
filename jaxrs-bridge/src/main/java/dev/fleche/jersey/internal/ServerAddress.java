package dev.fleche.jersey.internal;

import dev.fleche.jersey.FlecheProperties;
import dev.fleche.transport.ServerOptions;

import java.net.InetSocketAddress;
import java.net.URI;
import java.util.Map;

/**
 * Where a server listens and under which path, as read from a server URI or a bootstrap configuration.
 *
 * @param host     the interface to bind, or null for all
 * @param port     the port; 0 picks a free one
 * @param rootPath the raw root path, starting with {@code /}
 */
public record ServerAddress(String host, int port, String rootPath) {
    /** The port used when none is given ({@code SeBootstrap}'s {@code DEFAULT_PORT}, a URI without port). */
    public static final int DEFAULT_HTTP_PORT = 8080;

    /** Checks the port range and normalises the root path. */
    public ServerAddress {
        if (port < 0 || port > 65535) {
            throw new IllegalArgumentException("port must be 0..65535, was " + port);
        }
        rootPath = rootPath == null || rootPath.isEmpty() ? "/" : rootPath.startsWith("/") ? rootPath : "/" + rootPath;
        host = host == null || host.isEmpty() ? null : host;
    }

    /** Reads {@code http://host:port/path}; refuses other schemes, HTTPS with an explanation. */
    public static ServerAddress of(URI uri) {
        if (uri == null) {
            throw new IllegalArgumentException("the server URI is required");
        }
        String scheme = uri.getScheme();
        if (scheme == null || !scheme.equalsIgnoreCase("http")) {
            if ("https".equalsIgnoreCase(scheme)) {
                throw new IllegalArgumentException(httpsRefused());
            }
            throw new IllegalArgumentException("the server URI must be http://host:port/path, was " + uri);
        }
        int port = uri.getPort() == -1 ? DEFAULT_HTTP_PORT : uri.getPort();
        return new ServerAddress(uri.getHost(), port, uri.getRawPath());
    }

    /** The message for any attempt to serve HTTPS. */
    public static String httpsRefused() {
        return "HTTPS is not supported: the Fleche transport has no TLS yet. Serve HTTP behind a TLS-terminating "
                + "proxy (and set " + FlecheProperties.TRUST_FORWARDED_HEADERS + " to see its scheme and host).";
    }

    /** {@code options} with this address. */
    public ServerOptions applyTo(ServerOptions options) {
        InetSocketAddress address = host == null ? new InetSocketAddress(port) : new InetSocketAddress(host, port);
        return options.toBuilder().address(address).build();
    }

    /**
     * The transport settings of an application: {@code given} when not null, else its
     * {@value FlecheProperties#SERVER_OPTIONS} property, else the defaults; then its
     * {@value FlecheProperties#MAX_REQUEST_BODY_BYTES} property, when set, as the body limit.
     */
    public static ServerOptions optionsFrom(ServerOptions given, Map<String, Object> properties) {
        ServerOptions options = given != null ? given
                : Settings.instance(properties, FlecheProperties.SERVER_OPTIONS, ServerOptions.class);
        if (options == null) {
            options = ServerOptions.builder().build();
        }
        Long maxBody = Settings.longValue(properties, FlecheProperties.MAX_REQUEST_BODY_BYTES, 0);
        return maxBody == null ? options : options.toBuilder().maxBodyBytes(maxBody).build();
    }

    /** The host to show in URIs: the bound host, or {@code localhost} for all interfaces. */
    public String displayHost() {
        if (host == null || host.equals("0.0.0.0") || host.equals("::") || host.equals("[::]")) {
            return "localhost";
        }
        return host.indexOf(':') >= 0 && !host.startsWith("[") ? "[" + host + "]" : host;
    }

    @Override
    public String toString() {
        return "http://" + displayHost() + ":" + port + rootPath;
    }
}
