package dev.fleche.examples.hello;

import com.fasterxml.jackson.core.JsonLocation;
import com.fasterxml.jackson.core.JsonParseException;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.exc.StreamConstraintsException;
import com.fasterxml.jackson.core.exc.StreamReadException;
import com.fasterxml.jackson.databind.exc.MismatchedInputException;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import jakarta.ws.rs.ext.ExceptionMapper;

/**
 * A request body that is not the JSON an endpoint expects is the client's mistake: {@code 400} with a body that
 * says what is wrong and where ({@code {"error":..., "detail":...}}); JSON beyond Jackson's read limits (a string
 * of more than 20,000,000 characters, say) is {@code 413}. Without this mapper Jackson's exception reaches Jersey
 * as a server error ({@code 500}). Anything else Jackson throws (a type it cannot map, a failure
 * while writing a response) is the server's: {@code 500}, without details.
 */
public final class JsonErrorMapper implements ExceptionMapper<JsonProcessingException> {
    /** Jackson's messages can quote the input; a client needs the start of it, not all of it. */
    private static final int MAX_DETAIL = 200;

    /** The body of an error response. */
    public record Problem(String error, String detail) {
    }

    @Override
    public Response toResponse(JsonProcessingException e) {
        if (e instanceof JsonParseException) {
            return badRequest("malformed JSON", detail(e));
        }
        if (e instanceof MismatchedInputException) {
            return badRequest("JSON does not match the expected body", detail(e));
        }
        if (overReadLimit(e)) { // Jackson's StreamReadConstraints: a string, number or nesting beyond its limits
            return Response.status(Response.Status.REQUEST_ENTITY_TOO_LARGE).type(MediaType.APPLICATION_JSON_TYPE)
                    .entity(new Problem("JSON beyond this server's limits", detail(e))).build();
        }
        if (e instanceof StreamReadException) { // malformed in another way Jackson names (e.g. truncated)
            return badRequest("malformed JSON", detail(e));
        }
        return Response.serverError().type(MediaType.APPLICATION_JSON_TYPE)
                .entity(new Problem("request failed", null)).build();
    }

    /** Whether Jackson refused the input for its read limits, met directly or while binding. */
    private static boolean overReadLimit(Throwable e) {
        for (Throwable at = e; at != null; at = at.getCause()) {
            if (at instanceof StreamConstraintsException) {
                return true;
            }
        }
        return false;
    }

    /** A {@code 400} with a JSON body. */
    static Response badRequest(String error, String detail) {
        return Response.status(Response.Status.BAD_REQUEST).type(MediaType.APPLICATION_JSON_TYPE)
                .entity(new Problem(error, detail)).build();
    }

    private static String detail(JsonProcessingException e) {
        String message = e.getOriginalMessage();
        if (message.length() > MAX_DETAIL) {
            message = message.substring(0, MAX_DETAIL) + "...";
        }
        JsonLocation at = e.getLocation();
        return at == null ? message : message + " (line " + at.getLineNr() + ", column " + at.getColumnNr() + ")";
    }
}
