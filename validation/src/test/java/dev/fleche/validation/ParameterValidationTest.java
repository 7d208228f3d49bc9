package dev.fleche.validation;

import com.fasterxml.jackson.jakarta.rs.json.JacksonJsonProvider;
import jakarta.ws.rs.core.Application;
import org.glassfish.jersey.server.ResourceConfig;
import org.junit.jupiter.api.Test;

import java.net.http.HttpResponse;

import static org.junit.jupiter.api.Assertions.assertEquals;

/** Constraints on path, query, header, form and {@code @BeanParam} parameters: 400 with one error each. */
class ParameterValidationTest extends ProblemTestSupport {

    @Override
    protected Application configure() {
        return new ResourceConfig(Orders.Resource.class).register(JacksonJsonProvider.class)
                .register(FlecheValidationFeature.class);
    }

    @Test
    void pathAndQueryParametersIncludingListElements() {
        assertProblem(get("orders/abc?fields=a&fields=B1&fields=c&fields=d"), 400, """
                {'type':'urn:fleche:problem:constraint-violation','title':'Constraint violation','status':400,
                 'detail':'3 values of the request are invalid.','instance':'/orders/abc',
                 'errors':[
                   {'in':'path','name':'id','message':'must match \\'[0-9]{1,9}\\'','rejected':'abc'},
                   {'in':'query','name':'fields','message':'size must be between 0 and 3'},
                   {'in':'query','name':'fields[1]','message':'must match \\'[a-z]+\\'','rejected':'B1'}]}""");
    }

    @Test
    void beanParamAndHeadersWithoutEchoingTheToken() {
        assertProblem(get("orders?page=0&size=500", "X-Tenant", "", "X-Api-Token", "short"), 400, """
                {'type':'urn:fleche:problem:constraint-violation','title':'Constraint violation','status':400,
                 'detail':'4 values of the request are invalid.','instance':'/orders',
                 'errors':[
                   {'in':'query','name':'page','message':'must be greater than or equal to 1','rejected':0},
                   {'in':'query','name':'size','message':'must be less than or equal to 100','rejected':500},
                   {'in':'header','name':'X-Api-Token','message':'size must be between 16 and 2147483647'},
                   {'in':'header','name':'X-Tenant','message':'must not be blank','rejected':''}]}""");
    }

    @Test
    void formParametersWithCustomConstraintAndSecret() {
        HttpResponse<String> response = send("POST", "orders/search", "q=&password=abc&slug=Not%20A%20Slug",
                "Content-Type", "application/x-www-form-urlencoded");
        assertProblem(response, 400, """
                {'type':'urn:fleche:problem:constraint-violation','title':'Constraint violation','status':400,
                 'detail':'3 values of the request are invalid.','instance':'/orders/search',
                 'errors':[
                   {'in':'form','name':'password','message':'size must be between 12 and 2147483647'},
                   {'in':'form','name':'q','message':'must not be blank','rejected':''},
                   {'in':'form','name':'slug','message':'must be lower-case words joined by dashes',
                    'rejected':'Not A Slug'}]}""");
    }

    @Test
    void primitivePathParameter() {
        HttpResponse<String> response = send("PUT", "orders/0",
                "{\"customer\":{\"name\":\"n\"},\"items\":[{\"name\":\"a\",\"quantity\":1}]}",
                "Content-Type", "application/json");
        assertProblem(response, 400, """
                {'type':'urn:fleche:problem:constraint-violation','title':'Constraint violation','status':400,
                 'detail':'1 value of the request is invalid.','instance':'/orders/0',
                 'errors':[{'in':'path','name':'id','message':'must be greater than or equal to 1','rejected':0}]}""");
    }

    @Test
    void validParametersPass() {
        assertEquals(200, get("orders/12?fields=a&fields=b").statusCode());
        assertEquals(200, get("orders?page=2", "X-Tenant", "acme", "X-Api-Token", "0123456789abcdef").statusCode());
    }
}
