package dev.fleche.jersey;

import dev.fleche.jersey.internal.BootstrapSettings;
import dev.fleche.transport.ServerOptions;
import jakarta.ws.rs.ProcessingException;
import org.glassfish.jersey.server.spi.WebServer;

import java.io.IOException;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;

/**
 * The {@link WebServer} that {@code jakarta.ws.rs.SeBootstrap} runs on Fleche. Public so that it can be chosen
 * by name: {@code jersey.config.server.bootstrap.webserver.class = FlecheWebServer.class}; without that, Jersey
 * takes the first {@code WebServerProvider} on the class path that answers.
 *
 * <pre>{@code
 * SeBootstrap.Instance instance = SeBootstrap.start(new MyApplication(),
 *         SeBootstrap.Configuration.builder().port(SeBootstrap.Configuration.FREE_PORT).rootPath("/api").build())
 *     .toCompletableFuture().get();
 * int port = instance.configuration().port();   // the port actually bound
 * }</pre>
 *
 * <p>The configuration keys honoured are listed on {@link BootstrapSettings}: protocol ({@code HTTP} or
 * {@code HTTPS}), host, port ({@code FREE_PORT}, {@code DEFAULT_PORT} = 8080, 8443 for HTTPS), root path (the
 * application's {@code @ApplicationPath} goes below it), with HTTPS the SSL context (default
 * {@code SSLContext.getDefault()}) and client authentication ({@code NONE}, {@code OPTIONAL}, {@code MANDATORY}),
 * Jersey's autostart flag. Other keys are ignored. {@code instance.configuration()} reports them as given, with the
 * port actually bound. {@link #stop()} gives requests in flight {@value #STOP_GRACE_SECONDS} seconds.
 *
 * <pre>{@code
 * SeBootstrap.Configuration https = SeBootstrap.Configuration.builder().protocol("HTTPS").port(8443)
 *         .sslContext(sslContext).sslClientAuthentication(SSLClientAuthentication.OPTIONAL).build();
 * }</pre>
 */
public final class FlecheWebServer implements WebServer {
    /** Seconds requests in flight get to finish when the server stops. */
    public static final int STOP_GRACE_SECONDS = 5;

    private final FlecheHttpServer server;

    FlecheWebServer(FlecheContainer container, BootstrapSettings settings) {
        ServerOptions options = settings.options();
        this.server = FlecheHttpServerFactory.create(settings.address(), container, options, settings.tls(), false);
        if (settings.autoStart()) {
            try {
                server.start();
            } catch (IOException e) {
                throw new ProcessingException("cannot start Fleche at " + settings.address() + ": " + e.getMessage(),
                        e);
            }
        }
    }

    @Override
    public FlecheContainer container() {
        return server.container();
    }

    /** The port bound once started; before that, the port configured. */
    @Override
    public int port() {
        return server.isRunning() ? server.port() : server.transport().options().address().getPort();
    }

    /** Starts the server if it is not running yet (with autostart off); the stage yields the {@link FlecheHttpServer}. */
    @Override
    public CompletionStage<?> start() {
        try {
            if (!server.isRunning()) {
                server.start();
            }
            return CompletableFuture.completedFuture(server);
        } catch (IOException | RuntimeException e) {
            return CompletableFuture.failedFuture(e);
        }
    }

    /** Stops the server in the background; the stage yields whether requests in flight finished in time. */
    @Override
    public CompletionStage<?> stop() {
        return CompletableFuture.supplyAsync(() -> {
            try {
                return server.stop(Duration.ofSeconds(STOP_GRACE_SECONDS));
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new ProcessingException("interrupted while stopping", e);
            }
        });
    }

    /** The {@link FlecheHttpServer}, its transport {@code HttpServer}, or this; null for other types. */
    @Override
    public <T> T unwrap(Class<T> nativeClass) {
        if (nativeClass.isInstance(server)) {
            return nativeClass.cast(server);
        }
        if (nativeClass.isInstance(server.transport())) {
            return nativeClass.cast(server.transport());
        }
        return nativeClass.isInstance(this) ? nativeClass.cast(this) : null;
    }
}
