package dev.fleche.validation;

import jakarta.validation.Constraint;
import jakarta.validation.ConstraintValidator;
import jakarta.validation.ConstraintValidatorContext;
import jakarta.validation.Payload;
import jakarta.validation.Valid;
import jakarta.validation.constraints.Email;
import jakarta.validation.constraints.Max;
import jakarta.validation.constraints.Min;
import jakarta.validation.constraints.NotBlank;
import jakarta.validation.constraints.NotEmpty;
import jakarta.validation.constraints.NotNull;
import jakarta.validation.constraints.Null;
import jakarta.validation.constraints.Pattern;
import jakarta.validation.constraints.Positive;
import jakarta.validation.constraints.Size;
import jakarta.validation.groups.ConvertGroup;
import jakarta.validation.groups.Default;
import jakarta.ws.rs.BeanParam;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.DefaultValue;
import jakarta.ws.rs.FormParam;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.HeaderParam;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.PUT;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.MediaType;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;
import java.util.List;

/** A small order service whose resource methods exercise every kind of constraint. */
final class Orders {
    private Orders() {
    }

    /** Validation group of creation: the id is assigned by the server. */
    interface OnCreate extends Default {
    }

    /** A custom constraint: lower-case words joined by dashes. */
    @Documented
    @Constraint(validatedBy = SlugValidator.class)
    @Target({ElementType.FIELD, ElementType.PARAMETER, ElementType.TYPE_USE})
    @Retention(RetentionPolicy.RUNTIME)
    public @interface Slug {
        String message() default "{dev.fleche.validation.Slug.message}";

        Class<?>[] groups() default {};

        Class<? extends Payload>[] payload() default {};
    }

    public static final class SlugValidator implements ConstraintValidator<Slug, String> {
        @Override
        public boolean isValid(String value, ConstraintValidatorContext context) {
            return value == null || value.matches("[a-z0-9]+(-[a-z0-9]+)*");
        }
    }

    /** A class-level constraint: the delivery window must not end before it starts. */
    @Documented
    @Constraint(validatedBy = WindowValidator.class)
    @Target(ElementType.TYPE)
    @Retention(RetentionPolicy.RUNTIME)
    public @interface ValidWindow {
        String message() default "{dev.fleche.validation.ValidWindow.message}";

        Class<?>[] groups() default {};

        Class<? extends Payload>[] payload() default {};
    }

    public static final class WindowValidator implements ConstraintValidator<ValidWindow, Window> {
        @Override
        public boolean isValid(Window w, ConstraintValidatorContext context) {
            return w == null || w.to >= w.from;
        }
    }

    @ValidWindow
    public static class Window {
        /** Days from now. */
        public int from;
        public int to;
    }

    public static class Item {
        @NotBlank
        public String name;
        @Positive
        public int quantity;
    }

    public static class Customer {
        @NotBlank
        public String name;
        @Email
        public String email;
        @Size(min = 12)
        public String password;
    }

    public static class Order {
        @Null(groups = OnCreate.class)
        public Long id;
        @Slug
        public String reference;
        @NotNull
        @Valid
        public Customer customer;
        @NotEmpty
        public List<@Valid Item> items;
        @Valid
        public Window delivery;
        public List<@Size(max = 5) String> tags;
    }

    /** Query parameters grouped in a bean. */
    public static class Paging {
        @QueryParam("page")
        @DefaultValue("1")
        @Min(1)
        public int page;
        @QueryParam("size")
        @DefaultValue("10")
        @Max(100)
        public int size;
    }

    @Path("orders")
    @Produces(MediaType.APPLICATION_JSON)
    public static class Resource {
        @GET
        @Path("{id}")
        public Order get(@PathParam("id") @Pattern(regexp = "[0-9]{1,9}") String id,
                         @QueryParam("fields") @Size(max = 3) List<@Pattern(regexp = "[a-z]+") String> fields) {
            Order order = new Order();
            order.id = Long.valueOf(id);
            return order;
        }

        @GET
        public List<Order> list(@BeanParam @Valid Paging paging,
                                @HeaderParam("X-Tenant") @NotBlank String tenant,
                                @HeaderParam("X-Api-Token") @Size(min = 16) String token) {
            return List.of();
        }

        @POST
        @Consumes(MediaType.APPLICATION_JSON)
        public Order create(@Valid @ConvertGroup(from = Default.class, to = OnCreate.class) @NotNull Order order) {
            order.id = 1L;
            return order;
        }

        @PUT
        @Path("{id}")
        @Consumes(MediaType.APPLICATION_JSON)
        public Order replace(@PathParam("id") @Min(1) long id, @Valid @NotNull Order order) {
            order.id = id;
            return order;
        }

        @POST
        @Path("search")
        @Consumes(MediaType.APPLICATION_FORM_URLENCODED)
        public List<Order> search(@FormParam("q") @NotBlank @Size(max = 20) String q,
                                  @FormParam("password") @Size(min = 12) String password,
                                  @FormParam("slug") @Slug String slug) {
            return List.of();
        }

        /** A broken method: promises a valid order and returns an invalid one. */
        @GET
        @Path("broken")
        @Valid
        @NotNull
        public Order broken() {
            Order order = new Order();
            order.customer = new Customer(); // blank name
            order.items = List.of();
            return order;
        }
    }
}
