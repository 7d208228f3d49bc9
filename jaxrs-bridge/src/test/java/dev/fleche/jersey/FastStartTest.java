package dev.fleche.jersey;

import dev.fleche.jersey.internal.FastStart;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.core.Application;
import org.glassfish.jersey.server.ResourceConfig;
import org.glassfish.jersey.server.ServerProperties;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.Map;
import java.util.Set;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** {@link FlecheProperties#FAST_START}: what the preset sets, what it leaves alone, and an application served with it. */
@Timeout(30)
class FastStartTest {

    @Path("hello")
    public static class Hello {
        @GET
        public String hello() {
            return "hi";
        }
    }

    @Test
    void offByDefault() {
        ResourceConfig config = new ResourceConfig(Hello.class);
        assertSame(config, FastStart.apply(config));
        assertTrue(config.getProperties().isEmpty());
    }

    @Test
    void setsEveryPresetPropertyTheApplicationLeftUnsetInACopyItOwns() {
        ResourceConfig config = new ResourceConfig(Hello.class).property(FlecheProperties.FAST_START, "true")
                .property(ServerProperties.RESOURCE_VALIDATION_DISABLE, false); // the application's own choice wins
        ResourceConfig preset = assertInstanceOf(ResourceConfig.class, FastStart.apply(config));
        assertNotSame(config, preset);
        assertEquals(true, preset.getProperty(ServerProperties.FEATURE_AUTO_DISCOVERY_DISABLE));
        assertEquals(true, preset.getProperty(ServerProperties.METAINF_SERVICES_LOOKUP_DISABLE));
        assertEquals(true, preset.getProperty(ServerProperties.WADL_FEATURE_DISABLE));
        assertEquals(false, preset.getProperty(ServerProperties.RESOURCE_VALIDATION_DISABLE));
        assertTrue(preset.getClasses().contains(Hello.class));
        assertEquals(4, FastStart.PRESET.size());
        // the user's configuration is as it was: served again elsewhere, it carries none of the preset
        assertEquals(Map.of(FlecheProperties.FAST_START, "true", ServerProperties.RESOURCE_VALIDATION_DISABLE, false),
                config.getProperties());
    }

    @Test
    void aConfigurationThatSetsThePresetItselfIsUsedAsItIs() {
        ResourceConfig config = new ResourceConfig(Hello.class).property(FlecheProperties.FAST_START, true);
        FastStart.PRESET.forEach((name, value) -> config.property(name, false));
        assertSame(config, FastStart.apply(config));
    }

    @Test
    void aResourceConfigWrappingAnApplicationIsCopiedWithItsComponents() {
        Application application = new Application() {
            @Override
            public Set<Class<?>> getClasses() {
                return Set.of(Hello.class);
            }
        };
        ResourceConfig wrapper = ResourceConfig.forApplication(application).property(FlecheProperties.FAST_START, true);
        ResourceConfig preset = assertInstanceOf(ResourceConfig.class, FastStart.apply(wrapper));
        assertNotSame(wrapper, preset);
        assertTrue(preset.getClasses().contains(Hello.class), () -> "classes: " + preset.getClasses());
        assertFalse(wrapper.getProperties().containsKey(ServerProperties.WADL_FEATURE_DISABLE));
    }

    @Test
    void explicitFalseIsOff() {
        ResourceConfig config = new ResourceConfig(Hello.class).property(FlecheProperties.FAST_START, false);
        FastStart.apply(config);
        assertFalse(config.getProperties().containsKey(ServerProperties.FEATURE_AUTO_DISCOVERY_DISABLE));
    }

    @Test
    void plainApplicationIsWrappedAsJerseyWould() {
        Application application = new Application() {
            @Override
            public Set<Class<?>> getClasses() {
                return Set.of(Hello.class);
            }

            @Override
            public Map<String, Object> getProperties() {
                return Map.of(FlecheProperties.FAST_START, true);
            }
        };
        ResourceConfig config = assertInstanceOf(ResourceConfig.class, FastStart.apply(application));
        assertEquals(true, config.getProperty(ServerProperties.FEATURE_AUTO_DISCOVERY_DISABLE));
        assertSame(Hello.class, FastStart.apply(Hello.class)); // a class: left to Jersey
    }

    @Test
    void servesWithThePresetOnAndTheContainerFeaturesStillApply() throws Exception {
        ResourceConfig config = new ResourceConfig(Hello.class).property(FlecheProperties.FAST_START, true);
        FlecheHttpServer server = FlecheHttpServerFactory.createServer(URI.create("http://127.0.0.1:0/"), config);
        FlecheHttpServer again = FlecheHttpServerFactory.createServer(URI.create("http://127.0.0.1:0/"), config);
        again.stop(Duration.ZERO); // the same configuration serves twice: it was not written to
        assertEquals(Map.of(FlecheProperties.FAST_START, true), config.getProperties());
        try {
            HttpClient client = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(10)).build();
            URI base = URI.create("http://127.0.0.1:" + server.port() + "/");
            HttpResponse<String> hello = client.send(HttpRequest.newBuilder(base.resolve("hello"))
                    .timeout(Duration.ofSeconds(10)).build(), HttpResponse.BodyHandlers.ofString());
            assertEquals(200, hello.statusCode());
            assertEquals("hi", hello.body());
            HttpResponse<String> wadl = client.send(HttpRequest.newBuilder(base.resolve("application.wadl"))
                    .timeout(Duration.ofSeconds(10)).build(), HttpResponse.BodyHandlers.ofString());
            assertEquals(404, wadl.statusCode());
            // ContainerFeatures is a forced auto-discoverable: auto-discovery off does not turn it off.
            assertTrue(server.container().getConfiguration().getClasses().stream()
                    .anyMatch(type -> type.getName().equals("dev.fleche.jersey.internal.ClientGone$Mapper")),
                    () -> "registered: " + server.container().getConfiguration().getClasses());
        } finally {
            server.stop(Duration.ofSeconds(1));
        }
    }
}
