package dev.fleche.validation;

import jakarta.annotation.Priority;
import jakarta.validation.ValidationException;
import jakarta.ws.rs.Priorities;
import jakarta.ws.rs.core.Application;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import jakarta.ws.rs.ext.ExceptionMapper;
import org.glassfish.jersey.server.ResourceConfig;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;

/** Our ValidationException mapper has priority USER (to beat Jersey's); an application's below USER wins. */
class OwnValidationExceptionMapperTest extends ProblemTestSupport {

    @Priority(Priorities.USER - 1)
    public static class OwnMapper implements ExceptionMapper<ValidationException> {
        @Override
        public Response toResponse(ValidationException e) {
            return Response.status(500).type(MediaType.TEXT_PLAIN).entity("own validation failure").build();
        }
    }

    @Override
    protected Application configure() {
        return new ResourceConfig(Failures.class).register(FlecheValidationFeature.class).register(OwnMapper.class);
    }

    @Test
    void ownMapperWithAHigherPriorityWins() {
        var response = get("fail/misdeclared?n=5");
        assertEquals(500, response.statusCode());
        assertEquals("own validation failure", response.body());
    }
}
