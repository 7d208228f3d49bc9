package dev.fleche.jersey;

import dev.fleche.transport.ServerOptions;
import dev.fleche.transport.StaticContent;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.SeBootstrap;
import jakarta.ws.rs.container.ContainerRequestContext;
import jakarta.ws.rs.container.ContainerRequestFilter;
import jakarta.ws.rs.container.PreMatching;
import jakarta.ws.rs.core.Application;
import org.glassfish.jersey.server.ResourceConfig;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * Static content beside a Jersey application, each way in: {@code ServerOptions.staticContent} given to the
 * factory, the application property {@value FlecheProperties#STATIC_CONTENT}, and a {@code SeBootstrap}
 * configuration property. A static request is answered by the transport: Jersey never sees it (a pre-matching
 * filter counts what reaches Jersey); every path no prefix claims is the application's; the transport's answers
 * are problem documents, as the container's other refusals.
 */
class StaticContentJerseyTest {
    static final AtomicInteger jerseyRequests = new AtomicInteger();
    private final HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
            .connectTimeout(Duration.ofSeconds(10)).build();
    private FlecheHttpServer server;

    @TempDir
    java.nio.file.Path site;

    @Path("hello")
    public static class Hello {
        @GET
        public String hello() {
            return "hello from Jersey";
        }
    }

    @PreMatching
    public static class Counter implements ContainerRequestFilter {
        @Override
        public void filter(ContainerRequestContext request) {
            jerseyRequests.incrementAndGet();
        }
    }

    @AfterEach
    void stop() throws Exception {
        if (server != null) {
            server.stop(Duration.ZERO);
        }
    }

    private HttpResponse<String> get(int port, String path) throws Exception {
        return http.send(HttpRequest.newBuilder(URI.create("http://localhost:" + port + path))
                .timeout(Duration.ofSeconds(20)).build(), HttpResponse.BodyHandlers.ofString());
    }

    @Test
    void serverOptionsServeADirectoryBesideTheApplicationWithoutJersey() throws Exception {
        Files.writeString(site.resolve("app.css"), "body{}\n");
        server = FlecheHttpServerFactory.createServer(URI.create("http://localhost:0/api/"),
                new ResourceConfig(Hello.class, Counter.class),
                ServerOptions.builder().staticContent(StaticContent.directory("/assets/", site).build()).build());
        int before = jerseyRequests.get();
        HttpResponse<String> css = get(server.port(), "/assets/app.css");
        assertEquals(200, css.statusCode());
        assertEquals("body{}\n", css.body());
        assertEquals("text/css; charset=utf-8", css.headers().firstValue("content-type").orElseThrow());
        HttpResponse<String> missing = get(server.port(), "/assets/nothing.css");
        assertEquals(404, missing.statusCode());
        assertEquals("application/problem+json", missing.headers().firstValue("content-type").orElseThrow());
        assertEquals("{\"type\":\"about:blank\",\"title\":\"Not Found\",\"status\":404,\"detail\":\"not found\"}",
                missing.body());
        assertEquals(before, jerseyRequests.get(), "no static request reached Jersey");
        assertEquals("hello from Jersey", get(server.port(), "/api/hello").body());
        assertEquals(before + 1, jerseyRequests.get());
        assertEquals(1, server.transport().metrics().refusals("STATIC_NOT_FOUND"));
    }

    @Test
    void theApplicationPropertyServesTheClassPathAtTheRootBesideTheApplication() throws Exception {
        ResourceConfig config = new ResourceConfig(Hello.class).property(FlecheProperties.STATIC_CONTENT,
                StaticContent.classPath("/", "static-site").fallThrough(true).build());
        server = FlecheHttpServerFactory.createServer(URI.create("http://localhost:0/"), config);
        assertEquals("<!doctype html><title>site</title>\n", get(server.port(), "/").body());
        assertEquals("Hello from the class path!\n", get(server.port(), "/hello.txt").body());
        assertEquals("hello from Jersey", get(server.port(), "/hello").body(), "no file: the application's");
        assertEquals(404, get(server.port(), "/nothing").statusCode(), "Jersey's 404");
    }

    public static class App extends Application {
        @Override
        public Set<Class<?>> getClasses() {
            return Set.of(Hello.class);
        }
    }

    @Test
    void seBootstrapTakesTheProperty() throws Exception {
        Files.writeString(site.resolve("a.txt"), "a\n");
        SeBootstrap.Instance instance = SeBootstrap.start(new App(), SeBootstrap.Configuration.builder()
                .port(SeBootstrap.Configuration.FREE_PORT)
                .property(FlecheProperties.STATIC_CONTENT, List.of(StaticContent.directory("/files/", site).build(),
                        StaticContent.classPath("/site/", "static-site").build()))
                .build()).toCompletableFuture().get(30, TimeUnit.SECONDS);
        try {
            int port = instance.configuration().port();
            assertEquals("a\n", get(port, "/files/a.txt").body());
            assertEquals("Hello from the class path!\n", get(port, "/site/hello.txt").body());
            assertEquals("hello from Jersey", get(port, "/hello").body());
        } finally {
            instance.stop().toCompletableFuture().get(30, TimeUnit.SECONDS);
        }
    }
}
