package dev.fleche.examples.todo;

import jakarta.validation.Valid;
import jakarta.validation.constraints.Max;
import jakarta.validation.constraints.Min;
import jakarta.validation.constraints.NotNull;
import jakarta.validation.constraints.Positive;
import jakarta.validation.groups.ConvertGroup;
import jakarta.validation.groups.Default;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.DELETE;
import jakarta.ws.rs.DefaultValue;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.NotFoundException;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.PUT;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.Configuration;
import jakarta.ws.rs.core.Context;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import jakarta.ws.rs.core.UriInfo;

import java.sql.SQLException;
import java.util.List;

/**
 * {@code /todos}: list, read, create, replace, delete. Invalid input is answered by the validation module as
 * {@code application/problem+json}; a missing item is a {@link NotFoundException} with a message, which becomes
 * the problem's {@code detail}; a database failure is a 500 with an incident id.
 */
@Path("todos")
@Produces(MediaType.APPLICATION_JSON)
@Consumes(MediaType.APPLICATION_JSON)
public class TodoResource {
    /** The application property holding the {@link TodoStore}. */
    public static final String STORE = "todo.store";

    private final TodoStore store;

    /** One instance per request (the JAX-RS default); the store comes from the application's configuration. */
    public TodoResource(@Context Configuration config) {
        this.store = (TodoStore) config.getProperty(STORE);
    }

    @GET
    public List<Todo> list(@QueryParam("done") Boolean done,
                           @QueryParam("limit") @DefaultValue("50") @Min(1) @Max(500) int limit) throws SQLException {
        return store.list(done, limit);
    }

    @GET
    @Path("{id}")
    public Todo get(@PathParam("id") @Positive long id) throws SQLException {
        return store.find(id).orElseThrow(() -> missing(id));
    }

    @POST
    public Response create(@Valid @ConvertGroup(from = Default.class, to = Todo.OnCreate.class) @NotNull Todo todo,
                           @Context UriInfo uri) throws SQLException {
        Todo created = store.insert(todo);
        return Response.created(uri.getAbsolutePathBuilder().path(String.valueOf(created.id)).build())
                .entity(created).build();
    }

    @PUT
    @Path("{id}")
    public Todo replace(@PathParam("id") @Positive long id, @Valid @NotNull Todo todo) throws SQLException {
        if (!store.update(id, todo)) {
            throw missing(id);
        }
        return new Todo(id, todo.title, todo.notes, todo.done, todo.priority);
    }

    @DELETE
    @Path("{id}")
    public void delete(@PathParam("id") @Positive long id) throws SQLException {
        if (!store.delete(id)) {
            throw missing(id);
        }
    }

    private static NotFoundException missing(long id) {
        return new NotFoundException("There is no todo " + id + ".");
    }
}
