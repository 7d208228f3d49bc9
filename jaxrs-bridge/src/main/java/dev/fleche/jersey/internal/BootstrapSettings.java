package dev.fleche.jersey.internal;

import dev.fleche.jersey.FlecheProperties;
import dev.fleche.transport.PemFiles;
import dev.fleche.transport.ProxyProtocol;
import dev.fleche.transport.ServerOptions;
import dev.fleche.transport.TlsOptions;
import jakarta.ws.rs.ProcessingException;
import jakarta.ws.rs.SeBootstrap;
import jakarta.ws.rs.SeBootstrap.Configuration.SSLClientAuthentication;
import org.glassfish.jersey.server.ServerProperties;

import java.io.IOException;
import java.nio.file.Path;
import java.security.NoSuchAlgorithmException;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import javax.net.ssl.SSLContext;

/**
 * What a {@code SeBootstrap.Configuration} asks of a Fleche server. Read with {@code property(name)} and
 * tolerant of missing keys (a configuration not built by Jersey's builder may lack the defaults); keys other than
 * these are ignored.
 *
 * <table>
 *   <caption>Keys read</caption>
 *   <tr><th>key</th><th>meaning</th></tr>
 *   <tr><td>{@code jakarta.ws.rs.SeBootstrap.Protocol}</td><td>{@code HTTP} or {@code HTTPS}; others are refused
 *       with a {@link ProcessingException}</td></tr>
 *   <tr><td>{@code jakarta.ws.rs.SeBootstrap.Host}</td><td>interface to bind; default {@code localhost}</td></tr>
 *   <tr><td>{@code jakarta.ws.rs.SeBootstrap.Port}</td><td>{@code FREE_PORT} (0): a free port;
 *       {@code DEFAULT_PORT} (-1): 8080 (HTTPS: 8443), or 80 (443) with Jersey's {@code allowPrivilegedPorts}</td></tr>
 *   <tr><td>{@code jakarta.ws.rs.SeBootstrap.RootPath}</td><td>root path; the application path goes below</td></tr>
 *   <tr><td>{@code jakarta.ws.rs.SeBootstrap.SSLContext}</td><td>HTTPS: the server's {@code SSLContext}; default
 *       {@code SSLContext.getDefault()}, as the specification says (it holds a key only when the JVM's
 *       {@code javax.net.ssl.keyStore} properties name one)</td></tr>
 *   <tr><td>{@code jakarta.ws.rs.SeBootstrap.SSLClientAuthentication}</td><td>HTTPS: {@code NONE},
 *       {@code OPTIONAL} (a certificate is asked for, not required), {@code MANDATORY}; default {@code NONE}. A
 *       verified client certificate is the request's user principal</td></tr>
 *   <tr><td>{@code jersey.config.server.bootstrap.webserver.autostart}</td><td>start at once (default true)</td></tr>
 *   <tr><td>{@value FlecheProperties#SERVER_OPTIONS}</td><td>transport settings (else the application's)</td></tr>
 *   <tr><td>{@value FlecheProperties#UNIX_SOCKET}</td><td>listen on a Unix domain socket at this path (host and
 *       port are then unused)</td></tr>
 *   <tr><td>{@value FlecheProperties#TLS_CERTIFICATE_FILE}, {@value FlecheProperties#TLS_PRIVATE_KEY_FILE},
 *       {@value FlecheProperties#TLS_TRUST_FILE}, {@value FlecheProperties#TLS_RELOAD_SECONDS}</td><td>HTTPS from PEM
 *       files, rotated as they change ({@code PemFiles}), in place of the SSL context</td></tr>
 *   <tr><td>{@value FlecheProperties#PROXY_PROTOCOL}</td><td>the PROXY protocol from these trusted sources</td></tr>
 *   <tr><td>{@value FlecheProperties#MAX_REQUEST_BODY_BYTES},
 *       {@value FlecheProperties#MAX_BUFFERED_ENTITY_BYTES}</td><td>the request body limits (the application's own
 *       properties win)</td></tr>
 *   <tr><td>{@value FlecheProperties#STATIC_CONTENT}</td><td>static files served beside the application (a
 *       {@code StaticContent} or a collection of them), with the application's own</td></tr>
 * </table>
 *
 * @param address   where to listen and the root path
 * @param autoStart whether to start the server at once
 * @param options   transport settings given in the configuration, or null
 * @param tls       with {@code HTTPS}: the TLS settings from the SSL context and client authentication; else null
 */
public record BootstrapSettings(ServerAddress address, boolean autoStart, ServerOptions options, TlsOptions tls) {

    /** Reads and validates {@code configuration}. */
    public static BootstrapSettings from(SeBootstrap.Configuration configuration) {
        Object protocol = configuration.property(SeBootstrap.Configuration.PROTOCOL);
        boolean https = protocol != null && "HTTPS".equalsIgnoreCase(protocol.toString());
        if (protocol != null && !https && !"HTTP".equalsIgnoreCase(protocol.toString())) {
            throw new ProcessingException("unsupported protocol " + protocol + ": Fleche serves HTTP and HTTPS");
        }
        Object host = configuration.property(SeBootstrap.Configuration.HOST);
        Object root = configuration.property(SeBootstrap.Configuration.ROOT_PATH);
        Object unix = configuration.property(FlecheProperties.UNIX_SOCKET);
        ServerAddress address = new ServerAddress(host == null ? "localhost" : host.toString(),
                port(configuration, https), root == null ? "/" : root.toString(), https,
                unix == null ? null : unix instanceof Path path ? path : Path.of(unix.toString().trim()));
        Object options = configuration.property(FlecheProperties.SERVER_OPTIONS);
        ServerOptions given = options instanceof ServerOptions ? (ServerOptions) options : null;
        Map<String, Object> limits = new java.util.HashMap<>();
        for (String name : new String[] {FlecheProperties.MAX_REQUEST_BODY_BYTES,
                FlecheProperties.MAX_BUFFERED_ENTITY_BYTES, FlecheProperties.STATIC_CONTENT}) {
            Object value = configuration.property(name);
            if (value != null) {
                limits.put(name, value);
            }
        }
        if (!limits.isEmpty()) {
            given = ServerAddress.optionsFrom(given, limits);
        }
        ProxyProtocol proxy = proxyProtocol(configuration.property(FlecheProperties.PROXY_PROTOCOL));
        if (proxy != null) {
            given = ServerAddress.optionsFrom(given, Map.of()).toBuilder().proxyProtocol(proxy).build();
        }
        if (!https && configuration.property(FlecheProperties.TLS_CERTIFICATE_FILE) != null) {
            throw new ProcessingException(FlecheProperties.TLS_CERTIFICATE_FILE + " is set: the protocol must be "
                    + "HTTPS");
        }
        return new BootstrapSettings(address, flag(configuration, ServerProperties.WEBSERVER_AUTO_START, true),
                given, https ? tls(configuration) : null);
    }

    /** {@value FlecheProperties#PROXY_PROTOCOL}: a {@code ProxyProtocol}, or its trusted sources comma-separated. */
    private static ProxyProtocol proxyProtocol(Object value) {
        if (value == null || value instanceof ProxyProtocol) {
            return (ProxyProtocol) value;
        }
        try {
            return ProxyProtocol.builder().trust(List.of(value.toString().split("\\s*,\\s*"))).build();
        } catch (IllegalArgumentException e) {
            throw new ProcessingException(FlecheProperties.PROXY_PROTOCOL + ": " + e.getMessage(), e);
        }
    }

    /**
     * The TLS settings of an HTTPS configuration: PEM files when {@value FlecheProperties#TLS_CERTIFICATE_FILE} is set,
     * else its SSL context (or the JVM's default); and client authentication.
     */
    private static TlsOptions tls(SeBootstrap.Configuration configuration) {
        TlsOptions.ClientAuth clientAuth = clientAuth(configuration);
        Object certificate = configuration.property(FlecheProperties.TLS_CERTIFICATE_FILE);
        if (certificate != null) {
            return TlsOptions.builder(pemFiles(configuration, certificate)).clientAuth(clientAuth).build();
        }
        Object context = configuration.property(SeBootstrap.Configuration.SSL_CONTEXT);
        SSLContext sslContext;
        if (context instanceof SSLContext given) {
            sslContext = given;
        } else if (context == null) {
            try {
                sslContext = SSLContext.getDefault();
            } catch (NoSuchAlgorithmException e) {
                throw new ProcessingException("HTTPS without an SSL context, and the JVM has no default one", e);
            }
        } else {
            throw new ProcessingException("the SSL context must be a javax.net.ssl.SSLContext, was " + context);
        }
        return TlsOptions.builder(sslContext).clientAuth(clientAuth).build();
    }

    /** The PEM files the configuration names (read and checked now). */
    private static PemFiles pemFiles(SeBootstrap.Configuration configuration, Object certificate) {
        Object key = configuration.property(FlecheProperties.TLS_PRIVATE_KEY_FILE);
        if (key == null) {
            throw new ProcessingException(FlecheProperties.TLS_CERTIFICATE_FILE + " needs "
                    + FlecheProperties.TLS_PRIVATE_KEY_FILE);
        }
        Object trust = configuration.property(FlecheProperties.TLS_TRUST_FILE);
        Object seconds = configuration.property(FlecheProperties.TLS_RELOAD_SECONDS);
        PemFiles.Builder builder = PemFiles.builder(path(certificate), path(key))
                .trustBundle(trust == null ? null : path(trust));
        if (seconds != null) {
            builder.reloadInterval(Duration.ofSeconds(seconds instanceof Number n ? n.longValue()
                    : Long.parseLong(seconds.toString().trim())));
        }
        try {
            return builder.build();
        } catch (IOException | IllegalArgumentException e) {
            throw new ProcessingException("HTTPS from PEM files: " + e.getMessage(), e);
        }
    }

    private static Path path(Object value) {
        return value instanceof Path path ? path : Path.of(value.toString().trim());
    }

    private static TlsOptions.ClientAuth clientAuth(SeBootstrap.Configuration configuration) {
        Object auth = configuration.property(SeBootstrap.Configuration.SSL_CLIENT_AUTHENTICATION);
        SSLClientAuthentication clientAuth = auth == null ? SSLClientAuthentication.NONE
                : auth instanceof SSLClientAuthentication given ? given
                : SSLClientAuthentication.valueOf(auth.toString().trim());
        return switch (clientAuth) {
            case NONE -> TlsOptions.ClientAuth.NONE;
            case OPTIONAL -> TlsOptions.ClientAuth.WANT;
            case MANDATORY -> TlsOptions.ClientAuth.NEED;
        };
    }

    private static int port(SeBootstrap.Configuration configuration, boolean https) {
        Object value = configuration.property(SeBootstrap.Configuration.PORT);
        int port;
        try {
            port = value == null ? SeBootstrap.Configuration.DEFAULT_PORT
                    : value instanceof Number ? ((Number) value).intValue() : Integer.parseInt(value.toString().trim());
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("invalid port \"" + value + "\"", e);
        }
        if (port == SeBootstrap.Configuration.DEFAULT_PORT) {
            boolean privileged = flag(configuration, ServerProperties.WEBSERVER_ALLOW_PRIVILEGED_PORTS, false);
            if (https) {
                return privileged ? 443 : ServerAddress.DEFAULT_HTTPS_PORT;
            }
            return privileged ? 80 : ServerAddress.DEFAULT_HTTP_PORT;
        }
        return port; // FREE_PORT is 0: the transport binds a free port
    }

    private static boolean flag(SeBootstrap.Configuration configuration, String name, boolean fallback) {
        Object value = configuration.property(name);
        if (value == null) {
            return fallback;
        }
        return value instanceof Boolean ? (Boolean) value : Boolean.parseBoolean(value.toString().trim());
    }
}
