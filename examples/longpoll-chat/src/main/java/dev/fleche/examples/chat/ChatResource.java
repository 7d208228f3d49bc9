package dev.fleche.examples.chat;

import dev.fleche.async.LongPollTopic;
import jakarta.ws.rs.BadRequestException;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.DefaultValue;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.container.AsyncResponse;
import jakarta.ws.rs.container.Suspended;
import jakarta.ws.rs.core.Configuration;
import jakarta.ws.rs.core.Context;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;

import java.util.List;
import java.util.regex.Pattern;

/**
 * {@code GET /rooms/{room}/messages?after=N} answers the messages after {@code N} at once when there are some,
 * else waits (suspended: no thread held) until the next {@code POST} to the room or the wait timeout
 * ({@code 204}). {@code POST /rooms/{room}/messages} (a {@code text/plain} body) stores a message and resumes
 * every waiter of the room with it.
 */
@Path("rooms/{room}/messages")
public class ChatResource {
    /** The application property holding the {@link MessageStore}. */
    static final String STORE = "chat.store";
    /** The application property holding the rooms' {@link LongPollTopic}. */
    static final String ROOMS = "chat.rooms";
    static final int MAX_TEXT = 4096;
    private static final Pattern ROOM = Pattern.compile("[A-Za-z0-9_-]{1,64}");

    private final MessageStore store;
    private final LongPollTopic<String, List<Message>> rooms;

    /** One instance per request (the JAX-RS default); store and rooms come from the application's properties. */
    @SuppressWarnings("unchecked")
    public ChatResource(@Context Configuration config) {
        this.store = (MessageStore) config.getProperty(STORE);
        this.rooms = (LongPollTopic<String, List<Message>>) config.getProperty(ROOMS);
    }

    @GET
    @Produces(MediaType.APPLICATION_JSON)
    public void poll(@PathParam("room") String room, @QueryParam("after") @DefaultValue("0") long after,
                     @Suspended AsyncResponse response) {
        String name = checked(room);
        rooms.await(name, response, () -> store.after(name, after));
    }

    @POST
    @Consumes(MediaType.TEXT_PLAIN)
    @Produces(MediaType.APPLICATION_JSON)
    public Response post(@PathParam("room") String room, String text) {
        String name = checked(room);
        if (text == null || text.isBlank() || text.length() > MAX_TEXT) {
            throw new BadRequestException("a message is 1 to " + MAX_TEXT + " characters of text/plain");
        }
        Message message = store.append(name, text.strip());
        rooms.publish(name, List.of(message));
        return Response.status(Response.Status.CREATED).entity(message).build();
    }

    private static String checked(String room) {
        if (!ROOM.matcher(room).matches()) {
            throw new BadRequestException("a room name is 1 to 64 letters, digits, '-' or '_'");
        }
        return room;
    }
}
