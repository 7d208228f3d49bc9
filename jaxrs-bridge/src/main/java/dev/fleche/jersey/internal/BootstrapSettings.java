package dev.fleche.jersey.internal;

import dev.fleche.jersey.FlecheProperties;
import dev.fleche.transport.ServerOptions;
import jakarta.ws.rs.ProcessingException;
import jakarta.ws.rs.SeBootstrap;
import org.glassfish.jersey.server.ServerProperties;

import java.util.Map;

/**
 * What a {@code SeBootstrap.Configuration} asks of a Fleche server. Read with {@code property(name)} and
 * tolerant of missing keys (a configuration not built by Jersey's builder may lack the defaults); keys other than
 * these are ignored.
 *
 * <table>
 *   <caption>Keys read</caption>
 *   <tr><th>key</th><th>meaning</th></tr>
 *   <tr><td>{@code jakarta.ws.rs.SeBootstrap.Protocol}</td><td>{@code HTTP}; {@code HTTPS} is refused with a
 *       {@link ProcessingException} (no TLS yet)</td></tr>
 *   <tr><td>{@code jakarta.ws.rs.SeBootstrap.Host}</td><td>interface to bind; default {@code localhost}</td></tr>
 *   <tr><td>{@code jakarta.ws.rs.SeBootstrap.Port}</td><td>{@code FREE_PORT} (0): a free port;
 *       {@code DEFAULT_PORT} (-1): 8080, or 80 with Jersey's {@code allowPrivilegedPorts}</td></tr>
 *   <tr><td>{@code jakarta.ws.rs.SeBootstrap.RootPath}</td><td>root path; the application path goes below</td></tr>
 *   <tr><td>SSL context, client authentication</td><td>only meaningful with HTTPS, which is refused</td></tr>
 *   <tr><td>{@code jersey.config.server.bootstrap.webserver.autostart}</td><td>start at once (default true)</td></tr>
 *   <tr><td>{@value FlecheProperties#SERVER_OPTIONS}</td><td>transport settings (else the application's)</td></tr>
 *   <tr><td>{@value FlecheProperties#MAX_REQUEST_BODY_BYTES}</td><td>the request body limit (the application's
 *       own property wins)</td></tr>
 * </table>
 *
 * @param address   where to listen and the root path
 * @param autoStart whether to start the server at once
 * @param options   transport settings given in the configuration, or null
 */
public record BootstrapSettings(ServerAddress address, boolean autoStart, ServerOptions options) {

    /** Reads and validates {@code configuration}. */
    public static BootstrapSettings from(SeBootstrap.Configuration configuration) {
        Object protocol = configuration.property(SeBootstrap.Configuration.PROTOCOL);
        if (protocol != null && !"HTTP".equalsIgnoreCase(protocol.toString())) {
            if ("HTTPS".equalsIgnoreCase(protocol.toString())) {
                throw new ProcessingException(ServerAddress.httpsRefused());
            }
            throw new ProcessingException("unsupported protocol " + protocol + ": Fleche serves HTTP");
        }
        Object host = configuration.property(SeBootstrap.Configuration.HOST);
        Object root = configuration.property(SeBootstrap.Configuration.ROOT_PATH);
        ServerAddress address = new ServerAddress(host == null ? "localhost" : host.toString(),
                port(configuration), root == null ? "/" : root.toString());
        Object options = configuration.property(FlecheProperties.SERVER_OPTIONS);
        ServerOptions given = options instanceof ServerOptions ? (ServerOptions) options : null;
        Object maxBody = configuration.property(FlecheProperties.MAX_REQUEST_BODY_BYTES);
        if (maxBody != null) {
            given = ServerAddress.optionsFrom(given, Map.of(FlecheProperties.MAX_REQUEST_BODY_BYTES, maxBody));
        }
        return new BootstrapSettings(address, flag(configuration, ServerProperties.WEBSERVER_AUTO_START, true),
                given);
    }

    private static int port(SeBootstrap.Configuration configuration) {
        Object value = configuration.property(SeBootstrap.Configuration.PORT);
        int port;
        try {
            port = value == null ? SeBootstrap.Configuration.DEFAULT_PORT
                    : value instanceof Number ? ((Number) value).intValue() : Integer.parseInt(value.toString().trim());
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("invalid port \"" + value + "\"", e);
        }
        if (port == SeBootstrap.Configuration.DEFAULT_PORT) {
            return flag(configuration, ServerProperties.WEBSERVER_ALLOW_PRIVILEGED_PORTS, false)
                    ? 80 : ServerAddress.DEFAULT_HTTP_PORT;
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
