package dev.fleche.validation;

import com.fasterxml.jackson.jakarta.rs.json.JacksonJsonProvider;
import jakarta.ws.rs.core.Application;
import org.glassfish.jersey.server.ResourceConfig;
import org.junit.jupiter.api.Test;

import java.net.http.HttpResponse;
import java.util.List;
import java.util.logging.LogRecord;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Jersey's own errors, WebApplicationExceptions and unexpected exceptions, all in the problem shape. */
class HttpErrorsTest extends ProblemTestSupport {

    @Override
    protected Application configure() {
        return new ResourceConfig(Orders.Resource.class, Failures.class).register(JacksonJsonProvider.class)
                .register(FlecheValidationFeature.class);
    }

    @Test
    void notFound() {
        assertProblem(get("nothing/here"), 404, """
                {'type':'about:blank','title':'Not Found','status':404,
                 'detail':'There is no resource at this path.','instance':'/nothing/here'}""");
    }

    @Test
    void methodNotAllowedKeepsAllow() {
        HttpResponse<String> response = send("DELETE", "orders/1", null);
        assertProblem(response, 405, """
                {'type':'about:blank','title':'Method Not Allowed','status':405,
                 'detail':'The method DELETE is not allowed here; allowed: GET, OPTIONS, PUT.','instance':'/orders/1'}""");
        assertEquals(List.of("GET", "OPTIONS", "PUT"),
                List.of(response.headers().firstValue("Allow").orElseThrow().split("\\s*,\\s*")).stream().sorted().toList());
    }

    @Test
    void unsupportedMediaType() {
        assertProblem(send("POST", "orders", "x", "Content-Type", "text/plain"), 415, """
                {'type':'about:blank','title':'Unsupported Media Type','status':415,
                 'detail':'The content type text/plain is not accepted here.','instance':'/orders'}""");
    }

    @Test
    void notAcceptableStillAnswersJson() {
        assertProblem(get("orders/1", "Accept", "image/png"), 406, """
                {'type':'about:blank','title':'Not Acceptable','status':406,
                 'detail':'None of the media types in Accept can be produced here.','instance':'/orders/1'}""");
    }

    @Test
    void webApplicationExceptionKeepsStatusAndHeaders() {
        HttpResponse<String> response = get("fail/throttled");
        assertProblem(response, 429, """
                {'type':'about:blank','title':'Too Many Requests','status':429,'instance':'/fail/throttled'}""");
        assertEquals("30", response.headers().firstValue("Retry-After").orElse(null));
        assertEquals("0", response.headers().firstValue("X-RateLimit-Remaining").orElse(null));
    }

    @Test
    void messagesOfClientErrorsAreTheDetail() {
        assertProblem(get("fail/conflict"), 409, """
                {'type':'about:blank','title':'Conflict','status':409,
                 'detail':'Order 42 is already shipped.','instance':'/fail/conflict'}""");
        assertProblem(get("fail/bad"), 400, """
                {'type':'about:blank','title':'Bad Request','status':400,
                 'detail':'The request is invalid.','instance':'/fail/bad'}""");
    }

    @Test
    void messagesOfServerErrorsAreNotSent() {
        HttpResponse<String> response = get("fail/internal");
        assertProblem(response, 500, """
                {'type':'about:blank','title':'Internal Server Error','status':500,'instance':'/fail/internal'}""");
    }

    @Test
    void aResponseWithItsOwnEntityIsSentAsItIs() {
        HttpResponse<String> response = get("fail/own-body");
        assertEquals(402, response.statusCode());
        assertEquals("pay first", response.body());
        assertTrue(response.headers().firstValue("Content-Type").orElseThrow().startsWith("text/plain"));
    }

    @Test
    void parameterConversionFailuresNameTheParameter() {
        // JAX-RS: a query parameter that cannot be converted is a 404, a header parameter a 400
        assertProblem(get("fail/number?n=many"), 404, """
                {'type':'urn:fleche:problem:invalid-parameter','title':'Invalid parameter','status':404,
                 'detail':'A parameter of the request has a value of the wrong type.','instance':'/fail/number',
                 'errors':[{'in':'query','name':'n','message':'cannot be converted to the expected type'}]}""");
        assertProblem(get("fail/number?n=1", "X-Count", "lots"), 400, """
                {'type':'urn:fleche:problem:invalid-parameter','title':'Invalid parameter','status':400,
                 'detail':'A parameter of the request has a value of the wrong type.','instance':'/fail/number',
                 'errors':[{'in':'header','name':'X-Count','message':'cannot be converted to the expected type'}]}""");
    }

    @Test
    void unexpectedExceptionIsAnIncidentLoggedWithItsStackTrace() {
        try (LogCapture log = new LogCapture()) {
            HttpResponse<String> response = get("fail/unexpected");
            String incident = assertIncident(response, "/fail/unexpected");
            assertFalse(response.body().contains("jdbc"), response.body());
            assertFalse(response.body().contains("IllegalStateException"), response.body());
            LogRecord record = log.find(incident);
            assertNotNull(record);
            assertEquals("incident " + incident + ": GET /fail/unexpected failed", record.getMessage());
            assertSame(IllegalStateException.class, record.getThrown().getClass());
            assertTrue(record.getThrown().getStackTrace().length > 0);
        }
    }

    @Test
    void aBrokenConstraintIsTheServersFaultNotJerseysMessage() {
        HttpResponse<String> response = get("fail/misdeclared?n=5");
        assertIncident(response, "/fail/misdeclared");
        assertFalse(response.body().contains("HV0"), response.body());
    }

    @Test
    void incidentsAreUnique() {
        String a = json(get("fail/unexpected").body()).path("incident").asText();
        String b = json(get("fail/unexpected").body()).path("incident").asText();
        assertFalse(a.equals(b));
    }
}
