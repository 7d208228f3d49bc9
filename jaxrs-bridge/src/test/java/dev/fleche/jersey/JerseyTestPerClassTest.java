package dev.fleche.jersey;

import jakarta.ws.rs.core.Application;
import jakarta.ws.rs.core.Response;
import org.glassfish.jersey.server.ResourceConfig;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.Timeout;

import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;

/**
 * A JerseyTest with JUnit's {@code PER_CLASS} lifecycle: one test instance, so one {@code ResourceConfig} (made once,
 * by {@code configure()} in JerseyTest's constructor) served by a new Fleche test container before every test
 * method. The second and third containers serve a configuration that Jersey locked when the first was built.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class JerseyTestPerClassTest extends FlecheJerseyTest {

    @Override
    protected Application configure() {
        return new ResourceConfig(ServedAgainTest.Hello.class).register(FlecheRequestIds.class);
    }

    private void assertServes() {
        try (Response response = target("hello").request().get()) {
            assertEquals(200, response.getStatus());
            assertEquals("hello, served again", response.readEntity(String.class));
            assertNotNull(response.getHeaderString(FlecheRequestIds.HEADER));
        }
    }

    @Test
    @Order(1)
    void firstContainer() {
        assertServes();
    }

    @Test
    @Order(2)
    void secondContainerOfTheSameConfiguration() {
        assertServes();
    }

    @Test
    @Order(3)
    void thirdContainerOfTheSameConfiguration() {
        assertServes();
    }
}
