package dev.fleche.validation;

import com.fasterxml.jackson.jakarta.rs.json.JacksonJsonProvider;
import jakarta.ws.rs.core.Application;
import org.glassfish.jersey.server.ResourceConfig;
import org.junit.jupiter.api.Test;

import java.util.logging.Level;
import java.util.logging.LogRecord;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@code @Valid} entities: nested objects, collections, container elements, a class-level and a custom
 * constraint, group conversion; and return values (500, nothing leaked).
 */
class EntityValidationTest extends ProblemTestSupport {
    static final String INVALID_ORDER = """
            {"id":5,"reference":"Bad Ref",
             "customer":{"name":"","email":"x","password":"short"},
             "items":[{"name":"","quantity":0}],
             "delivery":{"from":3,"to":1},
             "tags":["ok","toolong"]}""";

    @Override
    protected Application configure() {
        return new ResourceConfig(Orders.Resource.class).register(JacksonJsonProvider.class)
                .register(FlecheValidationFeature.class);
    }

    @Test
    void everyKindOfBodyViolationIsListedWithItsPropertyPath() {
        assertProblem(postJson("orders", INVALID_ORDER), 400, """
                {'type':'urn:fleche:problem:constraint-violation','title':'Constraint violation','status':400,
                 'detail':'9 values of the request are invalid.','instance':'/orders',
                 'errors':[
                   {'in':'body','path':'customer.email','message':'must be a well-formed email address',
                    'rejected':'x'},
                   {'in':'body','path':'customer.name','message':'must not be blank','rejected':''},
                   {'in':'body','path':'customer.password','message':'size must be between 12 and 2147483647'},
                   {'in':'body','path':'delivery','message':'the delivery window ends before it starts'},
                   {'in':'body','path':'id','message':'must be null','rejected':5},
                   {'in':'body','path':'items[0].name','message':'must not be blank','rejected':''},
                   {'in':'body','path':'items[0].quantity','message':'must be greater than 0','rejected':0},
                   {'in':'body','path':'reference','message':'must be lower-case words joined by dashes',
                    'rejected':'Bad Ref'},
                   {'in':'body','path':'tags[1]','message':'size must be between 0 and 5',
                    'rejected':'toolong'}]}""");
    }

    @Test
    void groupConversionAppliesOnlyWhereDeclared() {
        String order = "{\"id\":7,\"customer\":{\"name\":\"Ada\"},\"items\":[{\"name\":\"tea\",\"quantity\":2}]}";
        // POST converts Default to OnCreate, which forbids a client-chosen id ...
        assertProblem(postJson("orders", order), 400, """
                {'type':'urn:fleche:problem:constraint-violation','title':'Constraint violation','status':400,
                 'detail':'1 value of the request is invalid.','instance':'/orders',
                 'errors':[{'in':'body','path':'id','message':'must be null','rejected':7}]}""");
        // ... PUT validates the Default group only.
        assertEquals(200, send("PUT", "orders/7", order, "Content-Type", "application/json").statusCode());
        assertEquals(200, postJson("orders", order.replace("\"id\":7,", "")).statusCode());
    }

    @Test
    void missingBodyViolatesNotNullAtTheRoot() {
        assertProblem(postJson("orders", ""), 400, """
                {'type':'urn:fleche:problem:constraint-violation','title':'Constraint violation','status':400,
                 'detail':'1 value of the request is invalid.','instance':'/orders',
                 'errors':[{'in':'body','path':'','message':'must not be null'}]}""");
    }

    @Test
    void invalidReturnValueIsA500WithAnIncidentAndTheViolationsOnlyInTheLog() {
        try (LogCapture log = new LogCapture()) {
            var response = get("orders/broken");
            String incident = assertIncident(response, "/orders/broken");
            assertFalse(response.body().contains("must not"), response.body());
            LogRecord record = log.find(incident);
            assertNotNull(record, "incident logged");
            assertEquals(Level.SEVERE, record.getLevel());
            assertTrue(record.getMessage().contains("GET /orders/broken"), record.getMessage());
            assertTrue(record.getThrown().getMessage().contains("customer.name"), record.getThrown().getMessage());
        }
    }
}
