package dev.fleche.jersey;

import jakarta.ws.rs.BeanParam;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.CookieParam;
import jakarta.ws.rs.DefaultValue;
import jakarta.ws.rs.FormParam;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.HeaderParam;
import jakarta.ws.rs.MatrixParam;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.client.Entity;
import jakarta.ws.rs.core.Application;
import jakarta.ws.rs.core.Form;
import jakarta.ws.rs.core.MediaType;
import org.glassfish.jersey.server.ResourceConfig;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;

/** Parameters of every kind and sub-resource locators, through Fleche. */
class ParamsTest extends FlecheJerseyTest {

    @Path("params")
    public static class Params {
        @GET
        @Path("path/{id}/{name: [a-z]+}")
        public String path(@PathParam("id") int id, @PathParam("name") String name) {
            return id + ":" + name;
        }

        @GET
        @Path("query")
        public String query(@QueryParam("a") String a, @QueryParam("n") List<Integer> n,
                            @QueryParam("missing") @DefaultValue("dflt") String missing) {
            return a + ":" + n + ":" + missing;
        }

        @GET
        @Path("matrix")
        public String matrix(@MatrixParam("x") String x, @MatrixParam("y") String y) {
            return x + ":" + y;
        }

        @GET
        @Path("header")
        public String header(@HeaderParam("X-Token") String token, @HeaderParam("X-Multi") List<String> multi) {
            return token + ":" + multi;
        }

        @GET
        @Path("cookie")
        public String cookie(@CookieParam("session") String session, @CookieParam("theme") String theme) {
            return session + ":" + theme;
        }

        @POST
        @Path("form")
        @Consumes(MediaType.APPLICATION_FORM_URLENCODED)
        public String form(@FormParam("user") String user, @FormParam("tags") List<String> tags) {
            return user + ":" + tags;
        }

        @GET
        @Path("bean/{id}")
        public String bean(@BeanParam Ids ids) {
            return ids.id + ":" + ids.q;
        }

        @Path("items/{item}")
        public Item locator(@PathParam("item") String item) {
            return new Item(item);
        }
    }

    public static class Ids {
        @PathParam("id")
        String id;
        @QueryParam("q")
        String q;
    }

    public static class Item {
        private final String item;

        Item(String item) {
            this.item = item;
        }

        @GET
        public String get() {
            return "item " + item;
        }

        @GET
        @Path("parts/{part}")
        public String part(@PathParam("part") String part) {
            return "item " + item + " part " + part;
        }

        @Path("sub")
        public Item nested() {
            return new Item(item + "/sub");
        }
    }

    @Override
    protected Application configure() {
        return new ResourceConfig(Params.class);
    }

    @Test
    void pathParametersAreDecodedAndConverted() {
        assertEquals("42:abc", target("params/path/42/abc").request().get(String.class));
        assertEquals(404, target("params/path/42/ABC").request().get().getStatus());
    }

    @Test
    void queryParametersIncludingRepeatedAndEncoded() {
        String body = target("params/query").queryParam("a", "x y&z").queryParam("n", 1, 2, 3)
                .request().get(String.class);
        assertEquals("x y&z:[1, 2, 3]:dflt", body);
    }

    @Test
    void matrixParameters() {
        assertEquals("1:two", target("params/matrix").matrixParam("x", "1").matrixParam("y", "two")
                .request().get(String.class));
    }

    @Test
    void headerParametersIncludingRepeatedFields() {
        String body = target("params/header").request().header("X-Token", "t0k").header("X-Multi", "a")
                .header("X-Multi", "b").get(String.class);
        assertEquals("t0k:[a, b]", body.replace("[a,b]", "[a, b]"));
    }

    @Test
    void cookieParameters() {
        String body = target("params/cookie").request().cookie("session", "s1").cookie("theme", "dark")
                .get(String.class);
        assertEquals("s1:dark", body);
    }

    @Test
    void formParameters() {
        Form form = new Form().param("user", "zoë").param("tags", "a").param("tags", "b c");
        assertEquals("zoë:[a, b c]", target("params/form").request().post(Entity.form(form), String.class));
    }

    @Test
    void beanParameters() {
        assertEquals("7:q1", target("params/bean/7").queryParam("q", "q1").request().get(String.class));
    }

    @Test
    void subResourceLocators() {
        assertEquals("item i1", target("params/items/i1").request().get(String.class));
        assertEquals("item i1 part p", target("params/items/i1/parts/p").request().get(String.class));
        assertEquals("item i1/sub part q", target("params/items/i1/sub/parts/q").request().get(String.class));
    }
}
