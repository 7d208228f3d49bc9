package dev.fleche.validation;

import jakarta.ws.rs.core.Application;
import org.glassfish.jersey.server.ResourceConfig;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;

/** An application's mapper of a nearer exception type than ours (NotFoundException) wins. */
class NearerMapperTest extends ProblemTestSupport {
    @Override
    protected Application configure() {
        return new ResourceConfig(Failures.class).register(ExtensionTest.OwnNotFoundMapper.class)
                .register(FlecheValidationFeature.class);
    }

    @Test
    void nearerTypeWins() {
        var response = get("nothing");
        assertEquals(404, response.statusCode());
        assertEquals("own 404", response.body());
        assertProblem(get("fail/throttled"), 429, """
                {'type':'about:blank','title':'Too Many Requests','status':429,'instance':'/fail/throttled'}""");
    }
}
