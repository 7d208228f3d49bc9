package dev.fleche.jersey;

import dev.fleche.transport.testing.TestCertificates;
import dev.fleche.transport.testing.TestCertificates.ServerKey;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.SeBootstrap;
import jakarta.ws.rs.client.Client;
import jakarta.ws.rs.client.ClientBuilder;
import jakarta.ws.rs.core.Response;
import jakarta.ws.rs.ext.RuntimeDelegate;
import org.glassfish.grizzly.http.server.HttpServer;
import org.glassfish.jersey.grizzly2.httpserver.GrizzlyHttpServerFactory;
import org.glassfish.jersey.server.ContainerFactory;
import org.glassfish.jersey.server.ResourceConfig;
import org.glassfish.jersey.server.ServerProperties;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.net.URI;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;

/**
 * The container never writes to the application it is given (issue 35): one {@code ResourceConfig} served twice at
 * once (HTTP and HTTPS), served, stopped and served again, served by Fleche and then by Jersey's Grizzly container
 * (which must answer with the whole body, as it does for a configuration Fleche never saw), reloaded into a container
 * twice — through {@code createServer}, {@code ContainerFactory}, {@code RuntimeDelegate}, {@code SeBootstrap} and
 * {@code FlecheContainer.reload}; and after all that, the configuration's properties are the ones the test set.
 * JerseyTest's own reuse of one configuration ({@code PER_CLASS}, {@code @TestFactory}) is in
 * {@link JerseyTestPerClassTest} and {@link JerseyTestFactoryTest}.
 *
 * <p>The application registers {@link FlecheRequestIds}, whose work Fleche does in the container and Grizzly in
 * filters, and answers a {@code String}, which Fleche writes with its own writer and length buffer: both must follow
 * the server, not the configuration.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class ServedAgainTest {
    private static final String HELLO = "hello, served again";

    private final Client client = ClientBuilder.newBuilder().connectTimeout(10, TimeUnit.SECONDS)
            .readTimeout(30, TimeUnit.SECONDS).sslContext(TestCertificates.get().clientContext()).build();
    private final List<AutoCloseable> servers = new ArrayList<>();

    @Path("hello")
    public static class Hello {
        @GET
        public String get() {
            return HELLO;
        }
    }

    private static ResourceConfig config() {
        return new ResourceConfig(Hello.class).register(FlecheRequestIds.class)
                .property(ServerProperties.WADL_FEATURE_DISABLE, true);
    }

    @AfterEach
    void stop() throws Exception {
        for (AutoCloseable server : servers) {
            server.close();
        }
        client.close();
    }

    private FlecheHttpServer serve(String uri, ResourceConfig config) {
        FlecheHttpServer server = FlecheHttpServerFactory.createServer(URI.create(uri), config);
        servers.add(() -> server.stop(Duration.ZERO));
        return server;
    }

    /** The answer of {@code base}/hello: the whole body, and the request id of FlecheRequestIds. */
    private void assertServes(URI base) {
        try (Response response = client.target(base).path("hello").request().get()) {
            assertEquals(200, response.getStatus());
            assertEquals(HELLO, response.readEntity(String.class), () -> "body from " + base);
            assertNotNull(response.getHeaderString(FlecheRequestIds.HEADER), () -> "request id from " + base);
        }
    }

    @Test
    void oneConfigurationServedOverHttpAndHttpsAtOnce() {
        ResourceConfig config = config();
        Map<String, Object> properties = new HashMap<>(config.getProperties());
        FlecheHttpServer http = serve("http://127.0.0.1:0/", config);
        FlecheHttpServer https = FlecheHttpServerFactory.createServer(URI.create("https://localhost:0/"), config,
                TestCertificates.get().serverContext(ServerKey.EC_P256));
        servers.add(() -> https.stop(Duration.ZERO));
        assertServes(http.baseUri());
        assertServes(https.baseUri());
        assertEquals(properties, config.getProperties());
    }

    @Test
    void oneConfigurationServedStoppedAndServedAgain() throws InterruptedException {
        ResourceConfig config = config();
        Map<String, Object> properties = new HashMap<>(config.getProperties());
        FlecheHttpServer first = FlecheHttpServerFactory.createServer(URI.create("http://127.0.0.1:0/"), config);
        assertServes(first.baseUri());
        first.stop(Duration.ZERO);
        FlecheHttpServer again = serve("http://127.0.0.1:0/", config);
        assertServes(again.baseUri());
        assertEquals(properties, config.getProperties());
    }

    @Test
    void oneConfigurationServedByFlecheThenByGrizzly() {
        ResourceConfig config = config();
        Map<String, Object> properties = new HashMap<>(config.getProperties());
        FlecheHttpServer fleche = serve("http://127.0.0.1:0/", config);
        assertServes(fleche.baseUri());
        HttpServer grizzly = GrizzlyHttpServerFactory.createHttpServer(URI.create("http://127.0.0.1:0/"), config);
        servers.add(grizzly::shutdownNow);
        assertServes(URI.create("http://127.0.0.1:" + grizzly.getListeners().iterator().next().getPort() + "/"));
        assertServes(fleche.baseUri());
        assertEquals(properties, config.getProperties());
    }

    @Test
    void oneConfigurationMadeIntoContainersTwice() {
        ResourceConfig config = config();
        Map<String, Object> properties = new HashMap<>(config.getProperties());
        FlecheContainer first = ContainerFactory.createContainer(FlecheContainer.class, config);
        FlecheContainer second = RuntimeDelegate.getInstance().createEndpoint(config, FlecheContainer.class);
        for (FlecheContainer container : List.of(first, second)) {
            FlecheHttpServer server = FlecheHttpServerFactory.createServer(URI.create("http://127.0.0.1:0/"),
                    container, null, true);
            servers.add(() -> server.stop(Duration.ZERO));
            assertServes(server.baseUri());
        }
        assertEquals(properties, config.getProperties());
    }

    @Test
    void oneConfigurationStartedTwiceWithSeBootstrap() throws Exception {
        ResourceConfig config = config();
        Map<String, Object> properties = new HashMap<>(config.getProperties());
        SeBootstrap.Configuration bootstrap = SeBootstrap.Configuration.builder().host("127.0.0.1")
                .port(SeBootstrap.Configuration.FREE_PORT).property(ServerProperties.WEBSERVER_CLASS, FlecheWebServer.class)
                .build();
        for (int i = 0; i < 2; i++) {
            SeBootstrap.Instance instance = SeBootstrap.start(config, bootstrap).toCompletableFuture()
                    .get(30, TimeUnit.SECONDS);
            servers.add(() -> instance.stop().toCompletableFuture().get(30, TimeUnit.SECONDS));
            assertServes(instance.configuration().baseUri());
        }
        assertEquals(properties, config.getProperties());
    }

    @Test
    void oneConfigurationReloadedIntoRunningContainersTwice() {
        ResourceConfig config = config();
        Map<String, Object> properties = new HashMap<>(config.getProperties());
        FlecheHttpServer server = serve("http://127.0.0.1:0/", new ResourceConfig(ContainerFactoryTest.One.class));
        FlecheHttpServer other = serve("http://127.0.0.1:0/", config);
        server.container().reload(config);
        assertServes(server.baseUri());
        server.container().reload(config);
        assertServes(server.baseUri());
        server.container().reload(); // a copy of the running configuration
        assertServes(server.baseUri());
        assertServes(other.baseUri());
        assertEquals(properties, config.getProperties());
    }
}
