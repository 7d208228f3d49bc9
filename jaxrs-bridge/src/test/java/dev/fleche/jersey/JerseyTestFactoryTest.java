package dev.fleche.jersey;

import jakarta.ws.rs.core.Application;
import jakarta.ws.rs.core.Response;
import org.glassfish.jersey.server.ResourceConfig;
import org.glassfish.jersey.test.spi.TestHelper;
import org.junit.jupiter.api.DynamicContainer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;
import org.junit.jupiter.api.Timeout;

import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;

/**
 * A JerseyTest run from a {@code @TestFactory}, the way Jersey's own suites run their parameterized JerseyTests
 * ({@link TestHelper#toTestContainer}): each dynamic test calls {@code setUp()} and {@code tearDown()} on one
 * JerseyTest instance, so every test method after the first serves the same {@code ResourceConfig} again. Two
 * instances, two test methods each.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class JerseyTestFactoryTest {

    @TestFactory
    List<DynamicContainer> sameConfigurationForEveryTestMethod() {
        return List.of(TestHelper.toTestContainer(new Reused(), "first instance"),
                TestHelper.toTestContainer(new Reused(), "second instance"));
    }

    /** Run by the factory above (public: Jersey's TestHelper calls its methods reflectively); not by itself. */
    public static final class Reused extends FlecheJerseyTest {
        @Override
        protected Application configure() {
            return new ResourceConfig(ServedAgainTest.Hello.class).register(FlecheRequestIds.class);
        }

        @Test
        public void once() {
            assertServes();
        }

        @Test
        public void again() {
            assertServes();
        }

        private void assertServes() {
            try (Response response = target("hello").request().get()) {
                assertEquals(200, response.getStatus());
                assertEquals("hello, served again", response.readEntity(String.class));
                assertNotNull(response.getHeaderString(FlecheRequestIds.HEADER));
            }
        }
    }
}
