package dev.fleche.validation;

import com.fasterxml.jackson.jakarta.rs.json.JacksonJsonProvider;
import jakarta.ws.rs.core.Application;
import org.glassfish.jersey.server.ResourceConfig;
import org.junit.jupiter.api.Test;

import java.net.http.HttpResponse;

/**
 * Messages follow {@code Accept-Language}: Hibernate Validator's bundles and the application's
 * {@code ValidationMessages} (base and {@code _de} in the test resources); unknown languages get the base.
 */
class LocalizationTest extends ProblemTestSupport {
    static final String ORDER = "{\"reference\":\"Bad Ref\",\"customer\":{\"name\":\"\"},\"items\":[]}";

    @Override
    protected Application configure() {
        return new ResourceConfig(Orders.Resource.class).register(JacksonJsonProvider.class)
                .register(FlecheValidationFeature.class);
    }

    private static String expected(String blank, String empty, String slug) {
        return ("""
                {'type':'urn:fleche:problem:constraint-violation','title':'Constraint violation','status':400,
                 'detail':'3 values of the request are invalid.','instance':'/orders',
                 'errors':[
                   {'in':'body','path':'customer.name','message':'%s','rejected':''},
                   {'in':'body','path':'items','message':'%s'},
                   {'in':'body','path':'reference','message':'%s','rejected':'Bad Ref'}]}""")
                .formatted(blank, empty, slug);
    }

    private HttpResponse<String> post(String languages) {
        return languages == null ? postJson("orders", ORDER) : postJson("orders", ORDER, "Accept-Language", languages);
    }

    @Test
    void germanFromBothBundles() {
        assertProblem(post("de-CH, en;q=0.5"), 400, expected("darf nicht leer sein", "darf nicht leer sein",
                "muss aus kleingeschriebenen, mit Bindestrichen verbundenen Wörtern bestehen"));
    }

    @Test
    void frenchFromHibernateValidatorAndTheBaseBundleForTheApplicationsMessages() {
        assertProblem(post("fr"), 400, expected("ne doit pas être vide", "ne doit pas être vide",
                "must be lower-case words joined by dashes"));
    }

    @Test
    void qualityDecides() {
        assertProblem(post("fr;q=0.4, de;q=0.9"), 400, expected("darf nicht leer sein", "darf nicht leer sein",
                "muss aus kleingeschriebenen, mit Bindestrichen verbundenen Wörtern bestehen"));
    }

    @Test
    void englishNoHeaderAndUnknownLanguagesUseTheBaseBundles() {
        String english = expected("must not be blank", "must not be empty", "must be lower-case words joined by dashes");
        assertProblem(post("en, de;q=0.5"), 400, english);
        assertProblem(post(null), 400, english);
        assertProblem(post("sw, x-klingon;q=0.5"), 400, english);
        assertProblem(post("*"), 400, english);
    }
}
