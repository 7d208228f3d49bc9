package dev.fleche.validation;

import com.fasterxml.jackson.jakarta.rs.json.JacksonJsonProvider;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.Application;
import jakarta.ws.rs.core.MediaType;
import org.glassfish.jersey.server.ResourceConfig;
import org.junit.jupiter.api.Test;

/** Jackson's read errors are the client's (400, with path, line and column); its write errors the server's. */
class JsonErrorsTest extends ProblemTestSupport {

    /** Serialising it fails. */
    public static class Unwritable {
        public String getValue() {
            throw new IllegalStateException("secret internal state");
        }
    }

    @Path("unwritable")
    public static class UnwritableResource {
        @GET
        @Produces(MediaType.APPLICATION_JSON)
        public Unwritable get() {
            return new Unwritable();
        }
    }

    @Override
    protected Application configure() {
        return new ResourceConfig(Orders.Resource.class, UnwritableResource.class)
                .register(JacksonJsonProvider.class).register(FlecheValidationFeature.class);
    }

    @Test
    void malformedJsonInsideAnObject() {
        assertProblemJson(postJson("orders", "{\"customer\": {\"name\": \"x\",}\n}"), 400, """
                {"type":"urn:fleche:problem:malformed-json","title":"Malformed JSON","status":400,
                 "detail":"The request body is not well-formed JSON.","instance":"/orders",
                 "errors":[{"in":"body","path":"customer",
                   "message":"Unexpected character ('}' (code 125)): was expecting double-quote to start field name",
                   "line":1,"column":27}]}""");
    }

    @Test
    void malformedJsonAtTheTopLevel() {
        assertProblemJson(postJson("orders", "\n  nope"), 400, """
                {"type":"urn:fleche:problem:malformed-json","title":"Malformed JSON","status":400,
                 "detail":"The request body is not well-formed JSON.","instance":"/orders",
                 "errors":[{"in":"body",
                   "message":"Unrecognized token 'nope': was expecting (JSON String, Number, Array, Object or token 'null', 'true' or 'false')",
                   "line":2,"column":7}]}""");
    }

    @Test
    void truncatedJson() {
        var body = json(postJson("orders", "{\"customer\": {").body());
        org.junit.jupiter.api.Assertions.assertEquals("urn:fleche:problem:malformed-json", body.path("type").asText());
        org.junit.jupiter.api.Assertions.assertEquals(1, body.path("errors").path(0).path("line").asInt());
    }

    @Test
    void wrongTypeWithPathLineAndColumn() {
        assertProblem(postJson("orders", "{\"customer\": {\"name\": \"x\"},\n \"items\": [{\"name\":\"a\",\"quantity\":\"many\"}]}"),
                400, """
                {'type':'urn:fleche:problem:invalid-json','title':'Invalid JSON value','status':400,
                 'detail':'The request body does not have the expected structure.','instance':'/orders',
                 'errors':[{'in':'body','path':'items[0].quantity','message':'must be an integer','rejected':'many',
                   'line':2,'column':35}]}""");
    }

    @Test
    void wrongTypeOfAnArrayAndAnObject() {
        assertProblem(postJson("orders", "{\"items\": {}}"), 400, """
                {'type':'urn:fleche:problem:invalid-json','title':'Invalid JSON value','status':400,
                 'detail':'The request body does not have the expected structure.','instance':'/orders',
                 'errors':[{'in':'body','path':'items','message':'must be an array','line':1,'column':11}]}""");
        assertProblem(postJson("orders", "[1]"), 400, """
                {'type':'urn:fleche:problem:invalid-json','title':'Invalid JSON value','status':400,
                 'detail':'The request body does not have the expected structure.','instance':'/orders',
                 'errors':[{'in':'body','path':'','message':'must be an object','line':1,'column':1}]}""");
    }

    @Test
    void unknownProperty() {
        assertProblem(postJson("orders", "{\"customer\": {\"name\": \"x\"}, \"bogus\": 1}"), 400, """
                {'type':'urn:fleche:problem:invalid-json','title':'Invalid JSON value','status':400,
                 'detail':'The request body does not have the expected structure.','instance':'/orders',
                 'errors':[{'in':'body','path':'bogus','message':'is not a known property','line':1,'column':39}]}""");
    }

    @Test
    void secretsAreNotEchoed() {
        assertProblem(postJson("orders", "{\"customer\": {\"name\": \"x\", \"password\": [1]}}"), 400, """
                {'type':'urn:fleche:problem:invalid-json','title':'Invalid JSON value','status':400,
                 'detail':'The request body does not have the expected structure.','instance':'/orders',
                 'errors':[{'in':'body','path':'customer.password','message':'must be a string','line':1,'column':40}]}""");
    }

    @Test
    void failingToWriteTheResponseIsTheServersFault() {
        var response = get("unwritable", "Accept", "application/json");
        assertIncident(response, "/unwritable");
        org.junit.jupiter.api.Assertions.assertFalse(response.body().contains("secret"), response.body());
    }
}
