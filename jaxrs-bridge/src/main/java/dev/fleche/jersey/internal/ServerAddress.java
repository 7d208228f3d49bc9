package dev.fleche.jersey.internal;

import dev.fleche.jersey.FlecheProperties;
import dev.fleche.transport.ErrorRenderer;
import dev.fleche.transport.ServerOptions;
import dev.fleche.transport.StaticContent;
import dev.fleche.transport.TlsOptions;

import java.net.InetSocketAddress;
import java.net.URI;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Locale;
import java.util.Map;

/**
 * Where a server listens and under which path, as read from a server URI or a bootstrap configuration.
 *
 * @param host     the interface to bind, or null for all
 * @param port     the port; 0 picks a free one
 * @param rootPath the raw root path, starting with {@code /}
 * @param https    whether the server speaks HTTPS (then its transport options must carry TLS)
 * @param unixSocket the path of a Unix domain socket to listen on instead of {@code host:port}, or null
 */
public record ServerAddress(String host, int port, String rootPath, boolean https, Path unixSocket) {
    /** The port used when none is given ({@code SeBootstrap}'s {@code DEFAULT_PORT}, a URI without port). */
    public static final int DEFAULT_HTTP_PORT = 8080;
    /** The same for HTTPS, as Jersey's other containers choose it ({@code Container.DEFAULT_HTTPS_PORT}). */
    public static final int DEFAULT_HTTPS_PORT = 8443;

    /** A TCP address. */
    public ServerAddress(String host, int port, String rootPath, boolean https) {
        this(host, port, rootPath, https, null);
    }

    /** Checks the port range and normalises the root path. */
    public ServerAddress {
        if (port < 0 || port > 65535) {
            throw new IllegalArgumentException("port must be 0..65535, was " + port);
        }
        rootPath = rootPath == null || rootPath.isEmpty() ? "/" : rootPath.startsWith("/") ? rootPath : "/" + rootPath;
        host = host == null || host.isEmpty() ? null : host;
    }

    /**
     * Reads {@code http://host:port/path} or {@code https://host:port/path}, or a Unix domain socket as
     * {@code http+unix://%2Fpath%2Fto%2Fsocket/path} ({@code https+unix} with TLS: the socket's path percent-encoded
     * as the authority, the convention of Docker's and {@code requests-unixsocket}'s clients); refuses other schemes.
     */
    public static ServerAddress of(URI uri) {
        if (uri == null) {
            throw new IllegalArgumentException("the server URI is required");
        }
        String scheme = uri.getScheme();
        if ("http+unix".equalsIgnoreCase(scheme) || "https+unix".equalsIgnoreCase(scheme)) {
            String socket = uri.getRawAuthority();
            if (socket == null || socket.isEmpty()) {
                throw new IllegalArgumentException("a " + scheme + " URI names its socket's path, percent-encoded, "
                        + "as its authority: http+unix://%2Frun%2Fapp.sock/, was " + uri);
            }
            return new ServerAddress(null, 0, uri.getRawPath(), scheme.toLowerCase(Locale.ROOT).startsWith("https"),
                    Path.of(percentDecoded(socket)));
        }
        boolean https = "https".equalsIgnoreCase(scheme);
        if (!https && !"http".equalsIgnoreCase(scheme)) {
            throw new IllegalArgumentException("the server URI must be http://host:port/path or "
                    + "https://host:port/path, was " + uri);
        }
        int port = uri.getPort() != -1 ? uri.getPort() : https ? DEFAULT_HTTPS_PORT : DEFAULT_HTTP_PORT;
        return new ServerAddress(uri.getHost(), port, uri.getRawPath(), https);
    }

    /**
     * {@code options} with this address, and with {@code tls} when not null (it replaces the options' own). An
     * {@code https} address needs TLS from one or the other; TLS given for an {@code http} address is refused (the
     * URI would lie about the scheme). Options that carry TLS themselves serve HTTPS whatever the URI's scheme.
     *
     * @throws IllegalArgumentException when the scheme and the TLS settings disagree
     */
    public ServerOptions applyTo(ServerOptions options, TlsOptions tls) {
        ServerOptions.Builder builder = options.toBuilder();
        if (unixSocket != null) {
            builder.unixSocket(unixSocket);
        } else {
            builder.address(host == null ? new InetSocketAddress(port) : new InetSocketAddress(host, port));
        }
        if (tls != null) {
            if (!https) {
                throw new IllegalArgumentException("an SSLContext was given for " + this + ": use an https URI");
            }
            builder.tls(tls);
        } else if (https && options.tls() == null) {
            throw new IllegalArgumentException("HTTPS at " + this + " needs TLS settings: pass an SSLContext or "
                    + "ServerOptions with tls(TlsOptions)");
        }
        return builder.build();
    }

    /**
     * The transport settings of an application: {@code given} when not null, else its
     * {@value FlecheProperties#SERVER_OPTIONS} property, else the defaults; then its
     * {@value FlecheProperties#MAX_REQUEST_BODY_BYTES} and {@value FlecheProperties#MAX_BUFFERED_ENTITY_BYTES}
     * properties, when set, as the body limits ({@code -1}: none), and its {@value FlecheProperties#STATIC_CONTENT}. The transport's own refusals are answered as
     * {@code application/problem+json} ({@link ErrorRenderer#PROBLEM_JSON}) unless the options chose a renderer.
     */
    public static ServerOptions optionsFrom(ServerOptions given, Map<String, Object> properties) {
        ServerOptions options = given != null ? given
                : Settings.instance(properties, FlecheProperties.SERVER_OPTIONS, ServerOptions.class);
        if (options == null) {
            options = ServerOptions.builder().build();
        }
        if (options.errorRenderer() == ErrorRenderer.PLAIN_TEXT) {
            options = options.toBuilder().errorRenderer(ErrorRenderer.PROBLEM_JSON).build();
        }
        options = withStaticContent(options, properties.get(FlecheProperties.STATIC_CONTENT));
        Long maxBody = Settings.longValue(properties, FlecheProperties.MAX_REQUEST_BODY_BYTES, -1);
        Long maxBuffered = Settings.longValue(properties, FlecheProperties.MAX_BUFFERED_ENTITY_BYTES, -1);
        if (maxBody == null && maxBuffered == null) {
            return options;
        }
        ServerOptions.Builder builder = options.toBuilder();
        if (maxBody != null) {
            builder.maxBodyBytes(maxBody);
        }
        if (maxBuffered != null) {
            builder.maxBufferedBodyBytes(maxBuffered);
        }
        return builder.build();
    }

    /**
     * {@code options} with the static content of the {@value FlecheProperties#STATIC_CONTENT} property added: a
     * {@link StaticContent}, or a collection or array of them; one the options hold already is not added twice.
     *
     * @throws IllegalArgumentException when the value is of another type
     */
    static ServerOptions withStaticContent(ServerOptions options, Object value) {
        if (value == null) {
            return options;
        }
        java.util.List<Object> values = value instanceof java.util.Collection<?> many ? new java.util.ArrayList<>(many)
                : value instanceof Object[] array ? java.util.Arrays.asList(array) : java.util.List.of(value);
        ServerOptions.Builder builder = null;
        for (Object one : values) {
            if (!(one instanceof StaticContent content)) {
                throw new IllegalArgumentException(FlecheProperties.STATIC_CONTENT + " must be a StaticContent or a"
                        + " collection of them, was a " + (one == null ? "null" : one.getClass().getName()));
            }
            if (!options.staticContent().contains(content)) {
                builder = builder == null ? options.toBuilder() : builder;
                builder.staticContent(content);
            }
        }
        return builder == null ? options : builder.build();
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
        if (unixSocket != null) {
            return (https ? "https+unix://" : "http+unix://")
                    + URLEncoder.encode(unixSocket.toString(), StandardCharsets.UTF_8) + rootPath;
        }
        return (https ? "https://" : "http://") + displayHost() + ":" + port + rootPath;
    }

    /** {@code %XX} sequences decoded as UTF-8 ({@code +} stays a plus: this is a path, not a form). */
    private static String percentDecoded(String raw) {
        java.io.ByteArrayOutputStream bytes = new java.io.ByteArrayOutputStream(raw.length());
        for (int i = 0; i < raw.length(); i++) {
            char c = raw.charAt(i);
            if (c == '%') {
                if (i + 2 >= raw.length() || Character.digit(raw.charAt(i + 1), 16) < 0
                        || Character.digit(raw.charAt(i + 2), 16) < 0) {
                    throw new IllegalArgumentException("a bad percent-encoding in \"" + raw + "\"");
                }
                bytes.write(Integer.parseInt(raw.substring(i + 1, i + 3), 16));
                i += 2;
            } else {
                bytes.writeBytes(String.valueOf(c).getBytes(StandardCharsets.UTF_8));
            }
        }
        return bytes.toString(StandardCharsets.UTF_8);
    }
}
