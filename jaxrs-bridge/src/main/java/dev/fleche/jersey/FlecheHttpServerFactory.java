package dev.fleche.jersey;

import dev.fleche.jersey.internal.ServerAddress;
import dev.fleche.transport.ServerOptions;
import dev.fleche.transport.TlsOptions;
import org.glassfish.jersey.server.ResourceConfig;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.util.Objects;
import javax.net.ssl.SSLContext;

/**
 * Creates {@link FlecheHttpServer}s, in the shape of Jersey's {@code GrizzlyHttpServerFactory}.
 *
 * <p>The URI says where and under which path to serve: {@code http://host:port/root/}. Its host is the
 * interface to bind (none: all), its port the port ({@code 0}: a free one, absent: 8080, or 8443 for
 * {@code https}), its path the root path; the application's {@code @ApplicationPath} goes below it. The transport
 * settings come from the {@link ServerOptions} given, else from the {@value FlecheProperties#SERVER_OPTIONS}
 * property, else the defaults; the URI's address replaces theirs.
 *
 * <p>{@code https} URIs serve HTTPS with the {@link SSLContext} given (the JDK-http factory's shape), or with the
 * {@link TlsOptions} the {@code ServerOptions} carry ({@code ServerOptions.tls}: client authentication, protocols,
 * cipher suites, handshake timeout); one of them is required. The base URI's scheme is then {@code https}.
 *
 * <pre>{@code
 * FlecheHttpServer server = FlecheHttpServerFactory.createServer(
 *         URI.create("http://localhost:8080/api/"), new ResourceConfig(HelloResource.class));
 * FlecheHttpServer secure = FlecheHttpServerFactory.createServer(
 *         URI.create("https://localhost:8443/api/"), new ResourceConfig(HelloResource.class), sslContext);
 * // ...
 * server.stop(Duration.ofSeconds(5));
 * }</pre>
 */
public final class FlecheHttpServerFactory {
    private FlecheHttpServerFactory() {
    }

    /** Creates and starts a server for {@code config} at {@code uri}. */
    public static FlecheHttpServer createServer(URI uri, ResourceConfig config) {
        return createServer(uri, config, null, true);
    }

    /** Creates and starts a server for {@code config} at {@code uri} with transport {@code options}. */
    public static FlecheHttpServer createServer(URI uri, ResourceConfig config, ServerOptions options) {
        return createServer(uri, config, options, true);
    }

    /**
     * Creates and starts an HTTPS server for {@code config} at an {@code https} {@code uri}, with {@code sslContext}
     * (its key is the server's certificate; no client authentication: use {@code ServerOptions.tls} for that).
     *
     * @throws IllegalArgumentException when {@code uri} is not {@code https}
     */
    public static FlecheHttpServer createServer(URI uri, ResourceConfig config, SSLContext sslContext) {
        Objects.requireNonNull(config, "config");
        Objects.requireNonNull(sslContext, "sslContext");
        ServerAddress address = ServerAddress.of(uri);
        return create(address, new FlecheContainer(config), null, TlsOptions.builder(sslContext).build(), true);
    }

    /**
     * Creates a server for {@code config} at {@code uri}; starts it when {@code start}. {@code options} may be
     * null (then as described in the class description).
     *
     * @throws UncheckedIOException when starting fails (e.g. the port is taken)
     */
    public static FlecheHttpServer createServer(URI uri, ResourceConfig config, ServerOptions options,
                                               boolean start) {
        Objects.requireNonNull(config, "config");
        ServerAddress address = ServerAddress.of(uri); // validate before the (costly) application start-up
        return create(address, new FlecheContainer(config), options, null, start);
    }

    /**
     * Serves an existing {@code container} (e.g. from {@code ContainerFactory.createContainer}) at {@code uri};
     * starts it when {@code start}. A container can be served by one server only.
     */
    public static FlecheHttpServer createServer(URI uri, FlecheContainer container, ServerOptions options,
                                               boolean start) {
        Objects.requireNonNull(container, "container");
        return create(ServerAddress.of(uri), container, options, null, start);
    }

    /** {@code tls}, when not null, replaces the options' TLS settings (an SSLContext given, SeBootstrap's HTTPS). */
    static FlecheHttpServer create(ServerAddress address, FlecheContainer container, ServerOptions options,
                                   TlsOptions tls, boolean start) {
        ServerOptions base = ServerAddress.optionsFrom(options, container.getConfiguration().getProperties());
        FlecheHttpServer server = new FlecheHttpServer(container, address.applyTo(base, tls), address.displayHost(),
                address.rootPath());
        if (start) {
            try {
                server.start();
            } catch (IOException e) {
                throw new UncheckedIOException("cannot start the server at " + address, e);
            }
        }
        return server;
    }
}
