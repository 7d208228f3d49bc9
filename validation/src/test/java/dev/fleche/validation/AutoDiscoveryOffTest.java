package dev.fleche.validation;

import com.fasterxml.jackson.jakarta.rs.json.JacksonJsonProvider;
import jakarta.ws.rs.core.Application;
import org.glassfish.jersey.CommonProperties;
import org.glassfish.jersey.server.ResourceConfig;
import org.junit.jupiter.api.Test;

/** Jersey's auto-discovery switch turns the unregistered feature off too (it is not a forced one). */
class AutoDiscoveryOffTest extends ProblemTestSupport {
    @Override
    protected Application configure() {
        return new ResourceConfig(Orders.Resource.class).register(JacksonJsonProvider.class)
                .property(CommonProperties.FEATURE_AUTO_DISCOVERY_DISABLE, true);
    }

    @Test
    void plainJerseyAnswers() {
        AutoDiscoveryTest.assertPlainJersey(this);
    }
}
