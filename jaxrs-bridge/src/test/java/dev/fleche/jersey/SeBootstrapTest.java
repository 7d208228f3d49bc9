package dev.fleche.jersey;

import dev.fleche.jersey.internal.BootstrapSettings;
import dev.fleche.transport.HttpServer;
import jakarta.ws.rs.ApplicationPath;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.SeBootstrap;
import jakarta.ws.rs.core.Application;
import jakarta.ws.rs.core.Context;
import jakarta.ws.rs.core.UriInfo;
import org.glassfish.jersey.server.ServerProperties;
import org.glassfish.jersey.server.spi.WebServer;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.net.ConnectException;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.Set;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** {@code jakarta.ws.rs.SeBootstrap} on Fleche through {@link FlecheWebServerProvider}. */
class SeBootstrapTest {
    private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(10)).build();

    @Path("hello")
    public static class Hello {
        @GET
        public String get(@Context UriInfo uri) {
            return "hello from " + uri.getBaseUri().getPath();
        }
    }

    public static class Plain extends Application {
        @Override
        public Set<Class<?>> getClasses() {
            return Set.of(Hello.class);
        }
    }

    @ApplicationPath("api")
    public static class WithPath extends Plain {
    }

    private static SeBootstrap.Instance start(Application app, SeBootstrap.Configuration config) throws Exception {
        return SeBootstrap.start(app, config).toCompletableFuture().get(30, TimeUnit.SECONDS);
    }

    private static SeBootstrap.Configuration.Builder freePort() {
        return SeBootstrap.Configuration.builder().port(SeBootstrap.Configuration.FREE_PORT);
    }

    private String get(int port, String path) throws Exception {
        HttpResponse<String> response = http.send(
                HttpRequest.newBuilder(URI.create("http://localhost:" + port + path)).timeout(Duration.ofSeconds(30)).build(),
                HttpResponse.BodyHandlers.ofString());
        return response.statusCode() + " " + response.body();
    }

    private static void stop(SeBootstrap.Instance instance) throws Exception {
        instance.stop().toCompletableFuture().get(30, TimeUnit.SECONDS);
    }

    @Test
    void startsOnAFreePortReportsItAndStops() throws Exception {
        SeBootstrap.Instance instance = start(new Plain(), freePort().build());
        int port = instance.configuration().port();
        assertNotEquals(0, port);
        assertInstanceOf(FlecheWebServer.class, instance.unwrap(WebServer.class));
        assertEquals(port, instance.unwrap(FlecheHttpServer.class).port());
        assertNotNull(instance.unwrap(HttpServer.class));
        assertEquals("200 hello from /", get(port, "/hello"));
        stop(instance);
        assertThrows(ConnectException.class, () -> new Socket("localhost", port).close());
    }

    @Test
    void applicationPathGoesUnderTheRootPath() throws Exception {
        SeBootstrap.Instance instance = start(new WithPath(), freePort().rootPath("/root").build());
        try {
            int port = instance.configuration().port();
            assertEquals("200 hello from /root/api/", get(port, "/root/api/hello"));
            assertTrue(get(port, "/root/hello").startsWith("404"));
            assertTrue(get(port, "/api/hello").startsWith("404"));
        } finally {
            stop(instance);
        }
    }

    @Test
    void anUnknownProtocolIsRefusedWithAClearError() {
        SeBootstrap.Configuration config = freePort().protocol("SPDY").build();
        ExecutionException failure = assertThrows(ExecutionException.class,
                () -> SeBootstrap.start(new Plain(), config).toCompletableFuture().get(30, TimeUnit.SECONDS));
        Throwable cause = failure.getCause();
        assertTrue(cause.getMessage().contains("unsupported protocol SPDY"), cause.toString());
    }

    @Test
    void webServerClassSelectsFlecheAndUnknownKeysAreIgnored() throws Exception {
        SeBootstrap.Configuration config = freePort()
                .property(ServerProperties.WEBSERVER_CLASS, FlecheWebServer.class)
                .property("some.unknown.key", new Object())
                .build();
        SeBootstrap.Instance instance = start(new Plain(), config);
        try {
            assertEquals(FlecheWebServer.class, instance.configuration().property(ServerProperties.WEBSERVER_CLASS));
            assertEquals("200 hello from /", get(instance.configuration().port(), "/hello"));
        } finally {
            stop(instance);
        }
    }

    @Test
    void autostartOffWaitsForStart() throws Exception {
        SeBootstrap.Configuration config = freePort().property(ServerProperties.WEBSERVER_AUTO_START, false).build();
        SeBootstrap.Instance instance = start(new Plain(), config);
        FlecheWebServer server = instance.unwrap(FlecheWebServer.class);
        try {
            assertFalse(server.container().isRunning());
            assertEquals(0, server.port());
            server.start().toCompletableFuture().get(10, TimeUnit.SECONDS);
            assertTrue(server.container().isRunning());
            assertEquals("200 hello from /", get(server.port(), "/hello"));
        } finally {
            stop(instance);
        }
    }

    @Test
    void applicationClassCanBeBootstrapped() throws Exception {
        SeBootstrap.Instance instance = SeBootstrap.start(WithPath.class, freePort().build())
                .toCompletableFuture().get(30, TimeUnit.SECONDS);
        try {
            assertEquals("200 hello from /api/", get(instance.configuration().port(), "/api/hello"));
        } finally {
            stop(instance);
        }
    }

    @Test
    void defaultPortIs8080AndHostAndRootPathAreRead() {
        BootstrapSettings settings = BootstrapSettings.from(SeBootstrap.Configuration.builder()
                .port(SeBootstrap.Configuration.DEFAULT_PORT).host("127.0.0.1").rootPath("base").build());
        assertEquals(8080, settings.address().port());
        assertEquals("127.0.0.1", settings.address().host());
        assertEquals("/base", settings.address().rootPath());
        assertTrue(settings.autoStart());
    }

    @Test
    void portInUseFailsTheStart() throws Exception {
        try (java.net.ServerSocket taken = new java.net.ServerSocket(0, 1, java.net.InetAddress.getLoopbackAddress())) {
            SeBootstrap.Configuration config = SeBootstrap.Configuration.builder().host("127.0.0.1")
                    .port(taken.getLocalPort()).build();
            ExecutionException failure = assertThrows(ExecutionException.class,
                    () -> SeBootstrap.start(new Plain(), config).toCompletableFuture().get(30, TimeUnit.SECONDS));
            assertTrue(failure.getCause().getMessage().contains("cannot start Fleche"), failure.getCause().toString());
        } catch (IOException e) {
            throw new AssertionError(e);
        }
    }
}
