package dev.fleche.nativeimage;

import com.fasterxml.jackson.annotation.JsonAutoDetect;
import jakarta.inject.Inject;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.Context;
import jakarta.ws.rs.core.Response;
import jakarta.ws.rs.core.UriInfo;
import jakarta.ws.rs.ext.ExceptionMapper;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** What the rules register for the kinds of class a Jersey application has, and what they leave alone. */
@Timeout(30)
class JaxrsRulesTest {
    /** HK2's ProxyCtl, for the proxies (the rules get the real one from the image's class path). */
    interface ProxyCtl {
    }

    @Path("orders")
    public static class OrderResource {
        @Context
        UriInfo uri;

        /** A body type nested in the resource: Jackson's. */
        public record Receipt(long id, Line first) {
        }

        @GET
        public List<Order> list(@QueryParam("limit") int limit, @QueryParam("since") Since since) {
            return List.of();
        }

        @POST
        public Receipt create(Order order) {
            return null;
        }

        public void notAResourceMethod(Unrelated unrelated) {
        }
    }

    public static class Order {
        public String name;
        private Line line;

        public Line getLine() {
            return line;
        }
    }

    public static class Line {
        public int quantity;
    }

    /** A query parameter type with its own valueOf. */
    public static class Since {
        public static Since valueOf(String text) {
            return new Since();
        }
    }

    public static class Unrelated {
        public int value;
    }

    public static class BadRequestMapper implements ExceptionMapper<IllegalArgumentException> {
        @Override
        public Response toResponse(IllegalArgumentException exception) {
            return Response.status(400).build();
        }
    }

    public static class Injected {
        @Inject
        Order order;

        @Inject
        public Injected(Line line) {
        }
    }

    @JsonAutoDetect
    public static class Annotated {
        private String hidden;
    }

    public static class Plain {
        public String name;
    }

    /** A helper, not a component, that builds the record a resource resumes its AsyncResponse with. */
    static final class Notifier {
        /** In the resources' package, named by no signature. */
        public record Change(long version, String change) {
        }
    }

    private final RecordingRegistrar registrar = new RecordingRegistrar();
    private final JaxrsRules rules = new JaxrsRules(registrar, ProxyCtl.class);

    @Test
    void aResourceItsMethodsAndItsEntitiesAreRegistered() {
        rules.reached(OrderResource.class);
        String resource = OrderResource.class.getName();
        assertTrue(registrar.has("method " + resource + "#list(int,Since)"), registrar.lines::toString);
        assertTrue(registrar.has("method " + resource + "#create(Order)"));
        assertTrue(registrar.has("constructor " + resource + "()"));
        assertTrue(registrar.has("field " + resource + "#uri"), "a @Context field HK2 sets");
        // entities: the body parameter, the return type's type argument, the nested record, their properties
        assertTrue(registrar.has("field " + Order.class.getName() + "#line"));
        assertTrue(registrar.has("method " + Order.class.getName() + "#getLine()"));
        assertTrue(registrar.has("field " + Line.class.getName() + "#quantity"), "a property's type, transitively");
        assertTrue(registrar.has("record " + OrderResource.Receipt.class.getName()));
        assertTrue(registrar.has("queries java.lang.Record"), "Jackson walks a record's supertypes");
        // a method without an HTTP method designator is not a resource method: its parameter is no entity, and
        // it is queried (with the class) but not registered for invocation
        assertFalse(registrar.mentions(Unrelated.class), registrar.lines::toString);
        assertTrue(registrar.has("queries " + resource));
    }

    @Test
    void parameterTypesGetWhatJerseysConvertersLookUp() {
        rules.reached(OrderResource.class);
        assertTrue(registrar.has("method java.lang.Integer#valueOf(String)"), "int, boxed");
        assertTrue(registrar.has("constructor java.lang.Integer(String)"));
        assertTrue(registrar.has("lookup java.lang.Integer#fromString(String)"), "absent, and known to be");
        assertTrue(registrar.has("method " + Since.class.getName() + "#valueOf(String)"));
    }

    @Test
    void anInjectedContextInterfaceGetsHk2sProxy() {
        rules.reached(OrderResource.class);
        assertTrue(registrar.has("proxy " + UriInfo.class.getName() + "," + ProxyCtl.class.getName()));
    }

    @Test
    void aProviderIsQueriedAndConstructedAndItsInterfacesQueried() {
        rules.reached(BadRequestMapper.class);
        String mapper = BadRequestMapper.class.getName();
        assertTrue(registrar.has("queries " + mapper));
        assertTrue(registrar.has("constructor " + mapper + "()"), "HK2 constructs it");
        assertFalse(registrar.has("method " + mapper + "#toResponse(IllegalArgumentException)"),
                "called through its interface: not registered for reflective invocation (it would be compiled always)");
        assertTrue(registrar.has("queries " + ExceptionMapper.class.getName()), "Jersey reads the interface's methods");
    }

    @Test
    void injectionPointsAreRegisteredForHk2() {
        rules.reached(Injected.class);
        assertTrue(registrar.has("constructor " + Injected.class.getName() + "(Line)"));
        assertTrue(registrar.has("field " + Injected.class.getName() + "#order"));
    }

    @Test
    void aClassWithJacksonAnnotationsIsAnEntity() {
        rules.reached(Annotated.class);
        assertTrue(registrar.has("field " + Annotated.class.getName() + "#hidden"));
    }

    @Test
    void aRecordInTheResourcesPackageIsAnEntityWhicheverIsReachedFirst() {
        rules.reached(Notifier.Change.class);
        assertFalse(registrar.mentions(Notifier.Change.class), "no component of its package reached yet");
        rules.reached(BadRequestMapper.class);
        assertTrue(registrar.has("record " + Notifier.Change.class.getName()), registrar.lines::toString);
        assertTrue(registrar.has("method " + Notifier.Change.class.getName() + "#change()"));

        RecordingRegistrar later = new RecordingRegistrar();
        JaxrsRules other = new JaxrsRules(later, ProxyCtl.class);
        other.reached(BadRequestMapper.class);
        other.reached(Notifier.Change.class);
        assertTrue(later.has("record " + Notifier.Change.class.getName()), "reached after the component");
    }

    @Test
    void aRecordOutsideTheComponentsPackagesGetsNothing() {
        rules.reached(OrderResource.class);
        rules.reached(dev.fleche.nativeimage.elsewhere.LibraryRecord.class);
        assertFalse(registrar.mentions(dev.fleche.nativeimage.elsewhere.LibraryRecord.class), registrar.lines::toString);
    }

    @Test
    void aPlainClassGetsNothing() {
        rules.reached(Plain.class);
        rules.reached(String.class);
        assertTrue(registrar.lines.isEmpty(), registrar.lines::toString);
    }
}
