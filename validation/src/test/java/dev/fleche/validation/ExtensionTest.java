package dev.fleche.validation;

import com.fasterxml.jackson.jakarta.rs.json.JacksonJsonProvider;
import jakarta.annotation.Priority;
import jakarta.validation.ConstraintViolationException;
import jakarta.ws.rs.NotFoundException;
import jakarta.ws.rs.container.ContainerRequestContext;
import jakarta.ws.rs.core.Application;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import jakarta.ws.rs.ext.ExceptionMapper;
import org.glassfish.jersey.server.ResourceConfig;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;

/** The application's exception mappers win over ours; customizers add members. */
class ExtensionTest extends ProblemTestSupport {

    /** The application's own answer to constraint violations: ours must step aside. */
    public static class OwnViolationMapper implements ExceptionMapper<ConstraintViolationException> {
        @Override
        public Response toResponse(ConstraintViolationException e) {
            return Response.status(422).type(MediaType.TEXT_PLAIN).entity("own: " + e.getConstraintViolations().size())
                    .build();
        }
    }

    /** The application's catch-all for the same type as ours. */
    public static class OwnThrowableMapper implements ExceptionMapper<Throwable> {
        @Override
        public Response toResponse(Throwable e) {
            return Response.status(503).type(MediaType.TEXT_PLAIN).entity("own catch-all").build();
        }
    }

    /** A nearer type than our WebApplicationException mapper. */
    public static class OwnNotFoundMapper implements ExceptionMapper<NotFoundException> {
        @Override
        public Response toResponse(NotFoundException e) {
            return Response.status(404).type(MediaType.TEXT_PLAIN).entity("own 404").build();
        }
    }

    /** A customizer registered as a provider; runs before the later-priority one and the feature's. */
    @Priority(10)
    public static class TraceCustomizer implements ProblemCustomizer {
        @Override
        public void customize(ContainerRequestContext request, Throwable cause, Map<String, Object> problem) {
            problem.put("trace", request.getHeaderString("X-Trace"));
            problem.put("order", "first");
        }
    }

    @Priority(20)
    public static class SecondCustomizer implements ProblemCustomizer {
        @Override
        public void customize(ContainerRequestContext request, Throwable cause, Map<String, Object> problem) {
            problem.put("order", problem.get("order") + ",second");
        }
    }

    public static class FailingCustomizer implements ProblemCustomizer {
        @Override
        public void customize(ContainerRequestContext request, Throwable cause, Map<String, Object> problem) {
            throw new IllegalStateException("customizer bug");
        }
    }

    @Override
    protected Application configure() {
        return new ResourceConfig(Orders.Resource.class, Failures.class)
                .register(JacksonJsonProvider.class)
                .register(OwnViolationMapper.class)
                .register(OwnThrowableMapper.class)
                .register(SecondCustomizer.class)
                .register(TraceCustomizer.class)
                .register(FailingCustomizer.class)
                .register(new FlecheValidationFeature().customizer((request, cause, problem) -> {
                    problem.put("order", problem.get("order") + ",feature");
                    if (cause instanceof jakarta.ws.rs.ClientErrorException e
                            && e.getResponse().getStatus() == 409) {
                        problem.put("type", "https://example.com/problems/already-shipped");
                        problem.put("status", 410);
                        problem.put("links", List.of(Map.of("rel", "order", "href", "/orders/42")));
                    }
                }));
    }

    @Test
    void ownMapperOfTheSameTypeWins() {
        var response = get("orders/abc");
        assertEquals(422, response.statusCode());
        assertEquals("own: 1", response.body());
    }

    @Test
    void ownCatchAllOfTheSameTypeWins() {
        var response = get("fail/unexpected");
        assertEquals(503, response.statusCode());
        assertEquals("own catch-all", response.body());
    }

    @Test
    void oursStillMapNearerTypesThanTheApplicationsCatchAll() {
        assertProblem(get("nothing", "X-Trace", "t-1"), 404, """
                {'type':'about:blank','title':'Not Found','status':404,
                 'detail':'There is no resource at this path.','instance':'/nothing',
                 'trace':'t-1','order':'first,second,feature'}""");
    }

    @Test
    void customizersCanChangeTypeStatusAndAddStructuredMembers() {
        assertProblem(get("fail/conflict"), 410, """
                {'type':'https://example.com/problems/already-shipped','title':'Conflict','status':410,
                 'detail':'Order 42 is already shipped.','instance':'/fail/conflict',
                 'trace':null,'order':'first,second,feature',
                 'links':[{'rel':'order','href':'/orders/42'}]}""");
    }
}
