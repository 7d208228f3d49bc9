package dev.fleche.jersey.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import org.glassfish.jersey.server.ApplicationHandler;
import org.glassfish.jersey.server.ResourceConfig;
import org.junit.jupiter.api.Test;


/**
 * Base paths with percent-encoded characters (TCK {@code applicationPathAnnotationEncodedTest}): an
 * {@code @ApplicationPath("ApplicationPath%21")} application is reachable as {@code /ApplicationPath!/} and as
 * {@code /ApplicationPath%21/}, and Jersey always sees the base path's own spelling.
 */
class DeploymentPathTest {

    @jakarta.ws.rs.ApplicationPath("ApplicationPath%21")
    static final class EncodedApplication extends jakarta.ws.rs.core.Application {
    }

    private static Deployment deployment(String rootPath) {
        ResourceConfig config = ResourceConfig.forApplicationClass(EncodedApplication.class);
        return Deployment.of(new ApplicationHandler(config), rootPath);
    }

    @Test
    void theAnnotationsEncodedValueIsTheRawBasePath() {
        assertEquals("/war/ApplicationPath%21/", deployment("/war").basePath());
        assertEquals("ApplicationPath%21", Deployment.rawApplicationPath("ApplicationPath%2521"));
        assertEquals("my%20app", Deployment.rawApplicationPath("my%20app"));
        assertEquals("api", Deployment.rawApplicationPath("api"));
    }

    @Test
    void requestsSpelledDifferentlyAreServedUnderTheBasePathsSpelling() {
        Deployment d = deployment("/war");
        assertEquals("/war/ApplicationPath%21/Resource", d.canonicalPath("/war/ApplicationPath%21/Resource"));
        assertEquals("/war/ApplicationPath%21/Resource", d.canonicalPath("/war/ApplicationPath!/Resource"));
        assertEquals("/war/ApplicationPath%21/a%2Fb", d.canonicalPath("/w%61r/ApplicationPath!/a%2Fb"));
        assertNull(d.canonicalPath("/war/ApplicationPath/Resource"));
        assertNull(d.canonicalPath("/other/ApplicationPath!/Resource"));
        assertNull(d.canonicalPath("/war"));
    }
}
