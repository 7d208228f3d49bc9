package dev.fleche.validation.internal;

import com.fasterxml.jackson.core.JsonLocation;
import com.fasterxml.jackson.core.JsonParseException;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.exc.StreamReadException;
import com.fasterxml.jackson.databind.JsonMappingException;
import com.fasterxml.jackson.databind.exc.InvalidDefinitionException;
import com.fasterxml.jackson.databind.exc.InvalidFormatException;
import com.fasterxml.jackson.databind.exc.InvalidNullException;
import com.fasterxml.jackson.databind.exc.MismatchedInputException;
import com.fasterxml.jackson.databind.exc.PropertyBindingException;
import jakarta.annotation.Priority;
import jakarta.ws.rs.core.Response;
import jakarta.ws.rs.ext.ExceptionMapper;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.time.temporal.TemporalAccessor;
import java.util.Arrays;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

/**
 * Jackson's errors while reading a request body: malformed JSON (the parser's message, line and column) and
 * values of the wrong type (the JSON path, what was expected, line and column) are the client's, 400. Errors
 * while writing a response, or in the application's Jackson set-up ({@link InvalidDefinitionException}), are the
 * server's, 500 with an incident id. Registered only when jackson-databind is on the class path.
 */
final class JacksonMappers {
    private static final int MAX_MESSAGE = 200;
    private static final Pattern START_MARKER = Pattern.compile("\\s*\\(start marker at \\[Source: [^\\]]*\\]\\)");

    private JacksonMappers() {
    }

    @Priority(ProblemMappers.PRIORITY)
    static final class Parse extends ProblemMappers.Base implements ExceptionMapper<JsonParseException> {
        Parse(ProblemResponder responder) {
            super(responder);
        }

        @Override
        public Response toResponse(JsonParseException e) {
            return map(this, e);
        }
    }

    @Priority(ProblemMappers.PRIORITY)
    static final class Mapping extends ProblemMappers.Base implements ExceptionMapper<JsonMappingException> {
        Mapping(ProblemResponder responder) {
            super(responder);
        }

        @Override
        public Response toResponse(JsonMappingException e) {
            return map(this, e);
        }
    }

    @Priority(ProblemMappers.PRIORITY)
    static final class Processing extends ProblemMappers.Base implements ExceptionMapper<JsonProcessingException> {
        Processing(ProblemResponder responder) {
            super(responder);
        }

        @Override
        public Response toResponse(JsonProcessingException e) {
            return map(this, e);
        }
    }

    static Response map(ProblemMappers.Base mapper, JsonProcessingException e) {
        Problem problem = problem(e);
        return problem == null ? mapper.incident(e) : mapper.respond(problem, e, null);
    }

    /** The client's problem, or null when the failure is the server's. */
    static Problem problem(JsonProcessingException e) {
        JsonProcessingException limit = readLimit(e);
        if (limit != null) {
            return overLimit(limit);
        }
        if (e instanceof JsonMappingException m && m.getCause() instanceof StreamReadException cause) {
            // malformed JSON met while binding: Jackson wraps the parser's exception with the path so far
            return malformed(cause, path(m.getPath()));
        }
        if (e instanceof JsonMappingException m) {
            if (m instanceof InvalidDefinitionException || !(m instanceof MismatchedInputException
                    || m.getProcessor() instanceof JsonParser)) {
                return null;
            }
            Map<String, Object> error = new LinkedHashMap<>();
            error.put("in", "body");
            String path = path(m.getPath());
            error.put("path", path);
            error.put("message", expectation(m));
            if (m instanceof InvalidFormatException f) {
                Object rejected = Secrets.echoable(path, f.getValue());
                if (rejected != null) {
                    error.put("rejected", rejected);
                }
            }
            location(error, m.getLocation());
            return Problem.of(Problem.TYPE_INVALID_JSON, "Invalid JSON value", 400,
                    "The request body does not have the expected structure.").errors(List.of(error));
        }
        if (e instanceof StreamReadException) { // malformed, truncated, over Jackson's read limits
            return malformed(e, null);
        }
        return null; // generation errors: the server's
    }

    /**
     * Jackson's read limits ({@code StreamReadConstraints}: string, number, name and document length, nesting
     * depth), met directly or while binding (wrapped with the path): the exception, or null.
     */
    private static JsonProcessingException readLimit(JsonProcessingException e) {
        Throwable at = e;
        for (int i = 0; at != null && i < 8; i++, at = at.getCause()) {
            if (at instanceof JsonProcessingException p && p.getClass().getSimpleName().equals("StreamConstraintsException")
                    && String.valueOf(p.getOriginalMessage()).contains("StreamReadConstraints")) {
                return p;
            }
        }
        return null;
    }

    /**
     * The client's JSON goes beyond a read limit: {@code 413} for a length (a string, number, name or the whole
     * document too long), {@code 400} for nesting deeper than allowed.
     */
    private static Problem overLimit(JsonProcessingException e) {
        Map<String, Object> error = new LinkedHashMap<>();
        error.put("in", "body");
        error.put("message", "exceeds the limits of this server: " + truncate(e.getOriginalMessage()));
        location(error, e.getLocation());
        if (String.valueOf(e.getOriginalMessage()).contains("NestingDepth")) {
            return Problem.of(Problem.TYPE_MALFORMED_JSON, "Malformed JSON", 400,
                    "The request body nests JSON deeper than this server accepts.").errors(List.of(error));
        }
        return Problem.of(Problem.TYPE_JSON_TOO_LARGE, "Content Too Large", 413,
                "A value in the request body is longer than this server accepts.").errors(List.of(error));
    }

    private static Problem malformed(JsonProcessingException e, String path) {
        Map<String, Object> error = new LinkedHashMap<>();
        error.put("in", "body");
        if (path != null) {
            error.put("path", path);
        }
        error.put("message", truncate(e.getOriginalMessage()));
        location(error, e.getLocation());
        return Problem.of(Problem.TYPE_MALFORMED_JSON, "Malformed JSON", 400,
                "The request body is not well-formed JSON.").errors(List.of(error));
    }

    /** {@code items[0].name} from Jackson's references. */
    static String path(List<JsonMappingException.Reference> references) {
        StringBuilder out = new StringBuilder();
        for (JsonMappingException.Reference r : references) {
            if (r.getFieldName() != null) {
                if (out.length() > 0) {
                    out.append('.');
                }
                out.append(r.getFieldName());
            } else if (r.getIndex() >= 0) {
                out.append('[').append(r.getIndex()).append(']');
            }
        }
        return out.toString();
    }

    private static String expectation(JsonMappingException e) {
        if (e instanceof PropertyBindingException) {
            return "is not a known property";
        }
        if (e instanceof InvalidNullException) {
            return "must not be null";
        }
        if (e instanceof MismatchedInputException m && m.getTargetType() != null) {
            String message = String.valueOf(m.getOriginalMessage());
            if (message.startsWith("Missing required creator property")) {
                return "is required";
            }
            return "must be " + kind(m.getTargetType());
        }
        return "has an invalid value";
    }

    /** What a JSON value of {@code type} looks like, in words. */
    static String kind(Class<?> type) {
        if (type == boolean.class || type == Boolean.class) {
            return "a boolean";
        }
        if (type == int.class || type == long.class || type == short.class || type == byte.class
                || type == Integer.class || type == Long.class || type == Short.class || type == Byte.class
                || type == BigInteger.class) {
            return "an integer";
        }
        if (type == double.class || type == float.class || type == BigDecimal.class
                || Number.class.isAssignableFrom(type)) {
            return "a number";
        }
        if (CharSequence.class.isAssignableFrom(type) || type == char.class || type == Character.class) {
            return "a string";
        }
        if (type.isEnum()) {
            return "one of " + Arrays.stream(type.getEnumConstants()).map(Object::toString)
                    .collect(Collectors.joining(", ", "[", "]"));
        }
        if (TemporalAccessor.class.isAssignableFrom(type)) {
            return "a date or time in ISO 8601 format";
        }
        if (type == UUID.class) {
            return "a UUID";
        }
        if (type.isArray() || Collection.class.isAssignableFrom(type)) {
            return "an array";
        }
        return "an object";
    }

    private static void location(Map<String, Object> error, JsonLocation location) {
        if (location != null && location.getLineNr() > 0) {
            error.put("line", location.getLineNr());
            error.put("column", location.getColumnNr());
        }
    }

    private static String truncate(String message) {
        if (message == null) {
            return "malformed JSON";
        }
        message = START_MARKER.matcher(message).replaceAll(""); // the location is reported on its own
        return message.length() <= MAX_MESSAGE ? message : message.substring(0, MAX_MESSAGE) + "...";
    }
}
