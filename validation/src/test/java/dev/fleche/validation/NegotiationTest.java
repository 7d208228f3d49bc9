package dev.fleche.validation;

import com.fasterxml.jackson.jakarta.rs.json.JacksonJsonProvider;
import jakarta.ws.rs.core.Application;
import org.glassfish.jersey.server.ResourceConfig;
import org.junit.jupiter.api.Test;

import java.net.http.HttpResponse;

import static org.junit.jupiter.api.Assertions.assertEquals;

/** JSON for clients that take JSON (or say nothing), a short text for the others. */
class NegotiationTest extends ProblemTestSupport {
    static final String BROWSER = "text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8";

    @Override
    protected Application configure() {
        return new ResourceConfig(Orders.Resource.class, Failures.class).register(JacksonJsonProvider.class)
                .register(FlecheValidationFeature.class);
    }

    private static void assertText(HttpResponse<String> response, int status, String text) {
        assertEquals(status, response.statusCode());
        assertEquals("text/plain;charset=UTF-8", response.headers().firstValue("Content-Type").orElse(null));
        assertEquals(text, response.body());
    }

    private String typeFor(String accept) {
        HttpResponse<String> response = accept == null ? get("nothing") : get("nothing", "Accept", accept);
        assertEquals(404, response.statusCode());
        return response.headers().firstValue("Content-Type").orElse(null);
    }

    @Test
    void jsonForJsonClientsWildcardsAndNoAccept() {
        assertEquals("application/problem+json", typeFor(null));
        assertEquals("application/problem+json", typeFor("*/*"));
        assertEquals("application/problem+json", typeFor("application/problem+json"));
        assertEquals("application/problem+json", typeFor("application/*"));
        assertEquals("application/problem+json", typeFor("application/json, application/problem+json"));
        assertEquals("application/json", typeFor("application/json"));
        assertEquals("application/problem+json", typeFor("image/png"));
        assertEquals("application/json", typeFor("text/csv, application/json;q=0.9, */*;q=0.1"));
    }

    @Test
    void textForTextClients() {
        assertEquals("text/plain;charset=UTF-8", typeFor("text/html,application/xhtml+xml,*/*;q=0.8"));
        assertEquals("text/plain;charset=UTF-8", typeFor("text/plain"));
        assertEquals("text/plain;charset=UTF-8", typeFor("text/*, application/json;q=0.5"));
        assertEquals("text/plain;charset=UTF-8", typeFor("application/json;q=0.5, text/plain"));
    }

    @Test
    void aJsonResourceAnswersTextProblemsToABrowser() {
        assertText(get("orders/abc", "Accept", BROWSER), 400, """
                400 Constraint violation: 1 value of the request is invalid.
                - path id: must match "[0-9]{1,9}"
                """);
    }

    @Test
    void notAcceptableIsAnsweredInTextToATextClient() {
        assertText(get("orders/1", "Accept", "text/plain"), 406,
                "406 Not Acceptable: None of the media types in Accept can be produced here.\n");
    }

    @Test
    void violationsAsText() {
        assertText(get("orders/abc?fields=a&fields=B1", "Accept", "text/plain, */*;q=0.1"), 400, """
                400 Constraint violation: 2 values of the request are invalid.
                - path id: must match "[0-9]{1,9}"
                - query fields[1]: must match "[a-z]+"
                """);
    }

    @Test
    void incidentAndStatusProblemsAsText() {
        HttpResponse<String> response = get("fail/unexpected", "Accept", BROWSER);
        String incident = response.body().substring(response.body().indexOf("incident: ") + 10).trim();
        assertText(response, 500, "500 Internal Server Error: The server could not complete the request. "
                + "Quote the incident id when reporting it.\nincident: " + incident + "\n");
        assertText(get("nothing", "Accept", "text/html"), 404, "404 Not Found: There is no resource at this path.\n");
        assertText(get("fail/throttled", "Accept", BROWSER), 429, "429 Too Many Requests\n");
    }
}
