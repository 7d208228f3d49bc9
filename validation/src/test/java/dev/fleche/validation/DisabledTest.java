package dev.fleche.validation;

import com.fasterxml.jackson.jakarta.rs.json.JacksonJsonProvider;
import jakarta.ws.rs.core.Application;
import org.glassfish.jersey.server.ResourceConfig;
import org.junit.jupiter.api.Test;

/** {@value FlecheValidationFeature#DISABLE} turns the auto-registered feature off. */
class DisabledTest extends ProblemTestSupport {
    @Override
    protected Application configure() {
        return new ResourceConfig(Orders.Resource.class).register(JacksonJsonProvider.class)
                .property(FlecheValidationFeature.DISABLE, true);
    }

    @Test
    void plainJerseyAnswers() {
        AutoDiscoveryTest.assertPlainJersey(this);
    }
}
