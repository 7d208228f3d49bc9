package dev.fleche.jersey;

import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.client.Client;
import jakarta.ws.rs.client.ClientBuilder;
import jakarta.ws.rs.ext.RuntimeDelegate;
import org.glassfish.jersey.server.ContainerFactory;
import org.glassfish.jersey.server.ResourceConfig;
import org.glassfish.jersey.server.spi.AbstractContainerLifecycleListener;
import org.glassfish.jersey.server.spi.Container;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.net.URI;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** ContainerFactory / RuntimeDelegate creation, serving such a container, lifecycle events and reload. */
class ContainerFactoryTest {
    static final List<String> EVENTS = new CopyOnWriteArrayList<>();

    private final Client client = ClientBuilder.newBuilder().connectTimeout(10, TimeUnit.SECONDS).readTimeout(30, TimeUnit.SECONDS).build();
    private FlecheHttpServer server;

    @Path("v")
    public static class One {
        @GET
        public String get() {
            return "one";
        }
    }

    @Path("v")
    public static class Two {
        @GET
        public String get() {
            return "two";
        }
    }

    public static class Recorder extends AbstractContainerLifecycleListener {
        private final String name;

        public Recorder(String name) {
            this.name = name;
        }

        @Override
        public void onStartup(Container container) {
            EVENTS.add(name + ":startup");
        }

        @Override
        public void onReload(Container container) {
            EVENTS.add(name + ":reload");
        }

        @Override
        public void onShutdown(Container container) {
            EVENTS.add(name + ":shutdown");
        }
    }

    @AfterEach
    void stop() throws InterruptedException {
        client.close();
        if (server != null) {
            server.stop(Duration.ofSeconds(1));
        }
    }

    private String get() {
        return client.target(server.baseUri()).path("v").request().get(String.class);
    }

    @Test
    void containerFactoryCreatesAFlecheContainerThatCanBeServed() {
        FlecheContainer container = ContainerFactory.createContainer(FlecheContainer.class,
                new ResourceConfig(One.class));
        assertInstanceOf(FlecheContainer.class, container);
        server = FlecheHttpServerFactory.createServer(URI.create("http://127.0.0.1:0/base"), container, null, true);
        assertSame(container, server.container());
        assertEquals("one", get());
        assertEquals("/base/", server.baseUri().getPath());
        assertThrows(IllegalStateException.class, () -> FlecheHttpServerFactory.createServer(
                URI.create("http://127.0.0.1:0/"), container, null, false), "one server per container");
    }

    @Test
    void runtimeDelegateCreatesEndpoints() {
        FlecheContainer container = RuntimeDelegate.getInstance().createEndpoint(new ResourceConfig(One.class),
                FlecheContainer.class);
        assertEquals(true, container.getConfiguration().getClasses().contains(One.class));
    }

    @Test
    void lifecycleAndReload() throws Exception {
        EVENTS.clear();
        server = FlecheHttpServerFactory.createServer(URI.create("http://127.0.0.1:0/"),
                new ResourceConfig(One.class).register(new Recorder("one")));
        assertEquals(List.of("one:startup"), EVENTS);
        assertEquals("one", get());

        server.container().reload(new ResourceConfig(Two.class).register(new Recorder("two")));
        assertEquals(List.of("one:startup", "one:shutdown", "two:reload", "two:startup"), EVENTS);
        assertEquals("two", get());

        server.container().reload();
        assertEquals("two", get());

        server.stop(Duration.ofSeconds(1));
        assertEquals("two:shutdown", EVENTS.get(EVENTS.size() - 1));
    }

    @Test
    void httpsUriWithoutTlsSettingsIsRefused() {
        IllegalArgumentException error = assertThrows(IllegalArgumentException.class,
                () -> FlecheHttpServerFactory.createServer(URI.create("https://localhost:0/"),
                        new ResourceConfig(One.class)));
        assertTrue(error.getMessage().contains("needs TLS settings: pass an SSLContext or ServerOptions with tls"),
                error.getMessage());
    }
}
