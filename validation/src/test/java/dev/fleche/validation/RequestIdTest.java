package dev.fleche.validation;

import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.jakarta.rs.json.JacksonJsonProvider;
import dev.fleche.jersey.FlecheRequestIds;
import jakarta.ws.rs.core.Application;
import org.glassfish.jersey.server.ResourceConfig;
import org.junit.jupiter.api.Test;

import java.net.http.HttpResponse;
import java.util.logging.LogRecord;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;

/** The request id set by a container (here Fleche's FlecheRequestIds) reaches problem bodies and incident logs. */
class RequestIdTest extends ProblemTestSupport {

    @Override
    protected Application configure() {
        return new ResourceConfig(Orders.Resource.class, Failures.class).register(JacksonJsonProvider.class)
                .register(FlecheValidationFeature.class).register(FlecheRequestIds.class);
    }

    @Test
    void theRequestIdIsAMemberOfTheProblem() {
        HttpResponse<String> response = get("nothing/here", "X-Request-Id", "req-42");
        assertProblem(response, 404, """
                {'type':'about:blank','title':'Not Found','status':404,
                 'detail':'There is no resource at this path.','instance':'/nothing/here','requestId':'req-42'}""");
        assertEquals("req-42", response.headers().firstValue("X-Request-Id").orElse(null));
    }

    @Test
    void aGeneratedIdIsTheSameInBodyAndHeader() {
        HttpResponse<String> response = get("nothing/here", "X-Request-Id", "bad id!");
        String header = response.headers().firstValue("X-Request-Id").orElseThrow();
        assertEquals(header, json(response.body()).path("requestId").asText());
    }

    @Test
    void anIncidentIsLoggedWithTheRequestId() {
        try (LogCapture log = new LogCapture()) {
            HttpResponse<String> response = get("fail/unexpected", "X-Request-Id", "req-500");
            ObjectNode body = (ObjectNode) json(response.body());
            assertEquals("req-500", body.remove("requestId").asText());
            String incident = body.path("incident").asText();
            LogRecord record = log.find(incident);
            assertNotNull(record);
            assertEquals("incident " + incident + ": GET /fail/unexpected failed (request id req-500)",
                    record.getMessage());
        }
    }
}
