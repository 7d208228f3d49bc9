package dev.fleche.validation;

import com.fasterxml.jackson.jakarta.rs.json.JacksonJsonProvider;
import jakarta.ws.rs.core.Application;
import org.glassfish.jersey.server.ResourceConfig;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;

/** Without registering anything, the feature is on: the module is on the class path. */
class AutoDiscoveryTest extends ProblemTestSupport {
    @Override
    protected Application configure() {
        return new ResourceConfig(Orders.Resource.class).register(JacksonJsonProvider.class);
    }

    @Test
    void problemsWithoutRegistration() {
        assertProblem(get("orders/abc"), 400, """
                {'type':'urn:fleche:problem:constraint-violation','title':'Constraint violation','status':400,
                 'detail':'1 value of the request is invalid.','instance':'/orders/abc',
                 'errors':[{'in':'path','name':'id','message':'must match \\'[0-9]{1,9}\\'','rejected':'abc'}]}""");
        assertProblem(get("orders/1", "Accept", "image/png"), 406, """
                {'type':'about:blank','title':'Not Acceptable','status':406,
                 'detail':'None of the media types in Accept can be produced here.','instance':'/orders/1'}""");
    }

    static void assertPlainJersey(ProblemTestSupport test) {
        var response = test.get("nothing");
        assertEquals(404, response.statusCode());
        assertNotEquals(ProblemJson.MEDIA_TYPE, response.headers().firstValue("Content-Type").orElse(""));
        // Jersey's own bean validation stays on (it is forced): a bare 400
        var invalid = test.get("orders/abc");
        assertEquals(400, invalid.statusCode());
        assertEquals("", invalid.body());
    }
}
