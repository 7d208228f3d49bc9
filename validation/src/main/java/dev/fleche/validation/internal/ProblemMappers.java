package dev.fleche.validation.internal;

import jakarta.annotation.Priority;
import jakarta.inject.Inject;
import jakarta.inject.Provider;
import jakarta.validation.ConstraintViolationException;
import jakarta.validation.ValidationException;
import jakarta.ws.rs.CookieParam;
import jakarta.ws.rs.FormParam;
import jakarta.ws.rs.HeaderParam;
import jakarta.ws.rs.MatrixParam;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Priorities;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.WebApplicationException;
import jakarta.ws.rs.container.ContainerRequestContext;
import jakarta.ws.rs.core.Context;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.NoContentException;
import jakarta.ws.rs.core.Response;
import jakarta.ws.rs.ext.ExceptionMapper;
import org.glassfish.jersey.internal.inject.InjectionManager;
import org.glassfish.jersey.server.ParamException;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;

/**
 * The exception mappers. Each maps one exception type to a {@link Problem} and hands it to the shared
 * {@link ProblemResponder}.
 *
 * <p>Priorities (Jersey picks the mapper of the nearest exception type, then the lowest priority value, custom
 * providers before Jersey's defaults): ours are {@link #PRIORITY} ({@code USER + 1000}), so that a user's mapper
 * for the same type ({@code USER} by default) wins. The one exception is {@link ValidationFailure}: Jersey's own
 * {@code ValidationExceptionMapper} (a default at {@code USER}) would otherwise answer with the exception's
 * message, so ours has {@code USER}, and a user's mapper for {@code ValidationException} itself needs a priority
 * below {@code USER} to win.
 */
final class ProblemMappers {
    static final int PRIORITY = Priorities.USER + 1000;

    private ProblemMappers() {
    }

    /** What every mapper needs: the request, the injection manager (for customizers), the responder. */
    abstract static class Base {
        @Context
        private Provider<ContainerRequestContext> request;
        @Inject
        private InjectionManager injection;
        final ProblemResponder responder;

        Base(ProblemResponder responder) {
            this.responder = responder;
        }

        ContainerRequestContext request() {
            try {
                return request != null ? request.get() : null;
            } catch (RuntimeException e) { // no request scope
                return null;
            }
        }

        Response respond(Problem problem, Throwable cause, Map<String, List<Object>> keep) {
            jakarta.ws.rs.core.MultivaluedHashMap<String, Object> headers = null;
            if (keep != null) {
                headers = new jakarta.ws.rs.core.MultivaluedHashMap<>();
                headers.putAll(keep);
            }
            return responder.respond(problem, cause, request(), injection, headers);
        }

        /**
         * 500 with a fresh incident id, logged with the stack trace — unless the failure is the client's: a request
         * body the transport refused or the client cut short (a {@link RequestBodyException} however deep in the
         * causes) is answered quietly with its status (the transport has sent it already). This module compiles
         * against no container, so the Fleche transport's exception is known by name.
         */
        Response incident(Throwable cause) {
            int refused = refusedBodyStatus(cause);
            if (refused != 0) {
                return Response.status(refused).build();
            }
            ContainerRequestContext r = request();
            String id = Incidents.log(cause, r);
            Problem problem = Problem.ofStatus(500,
                    "The server could not complete the request. Quote the incident id when reporting it.")
                    .with("incident", id);
            return respond(problem, cause, null);
        }
    }

    /** The name of the Fleche transport's exception for a request body it refused or the client cut short. */
    static final String REFUSED_BODY = "dev.fleche.transport.RequestBodyException";

    /**
     * The status of the Fleche transport's {@value #REFUSED_BODY} among {@code error}'s causes (16 deep at most),
     * or 0 when there is none.
     */
    static int refusedBodyStatus(Throwable error) {
        Throwable at = error;
        for (int i = 0; at != null && i < 16; i++, at = at.getCause()) {
            if (at.getClass().getName().equals(REFUSED_BODY)) {
                try {
                    return (Integer) at.getClass().getMethod("status").invoke(at);
                } catch (ReflectiveOperationException | RuntimeException e) {
                    return 400;
                }
            }
        }
        return 0;
    }

    /** Constraint violations: of the input 400 with the list of errors, of a return value 500. */
    @Priority(PRIORITY)
    static final class Violation extends Base implements ExceptionMapper<ConstraintViolationException> {
        Violation(ProblemResponder responder) {
            super(responder);
        }

        @Override
        public Response toResponse(ConstraintViolationException e) {
            if (Violations.anyReturnValue(e.getConstraintViolations())) {
                return incident(e);
            }
            List<Map<String, Object>> errors = Violations.errors(e.getConstraintViolations());
            int n = errors.size();
            Problem problem = Problem.of(Problem.TYPE_CONSTRAINT_VIOLATION, "Constraint violation", 400,
                    n == 1 ? "1 value of the request is invalid." : n + " values of the request are invalid.")
                    .errors(errors);
            return respond(problem, e, null);
        }
    }

    /** Other validation failures are the server's (a bad constraint definition, ...): 500. */
    @Priority(Priorities.USER)
    static final class ValidationFailure extends Base implements ExceptionMapper<ValidationException> {
        ValidationFailure(ProblemResponder responder) {
            super(responder);
        }

        @Override
        public Response toResponse(ValidationException e) {
            return incident(e);
        }
    }

    /**
     * {@code WebApplicationException}s, Jersey's own (404, 405, 406, 415, parameter conversion) and the
     * application's: their status and headers, a problem body; a response that already has an entity is sent as
     * it is. The message is used as {@code detail} for 4xx when the application gave one.
     */
    @Priority(PRIORITY)
    static final class WebApplication extends Base implements ExceptionMapper<WebApplicationException> {
        WebApplication(ProblemResponder responder) {
            super(responder);
        }

        @Override
        public Response toResponse(WebApplicationException e) {
            Response original = e.getResponse();
            if (original.hasEntity()) {
                return original;
            }
            int status = original.getStatus();
            Problem problem = e instanceof ParamException pe ? parameter(pe, status)
                    : Problem.ofStatus(status, detail(e, status, original));
            return respond(problem, e, original.getHeaders());
        }

        private Problem parameter(ParamException e, int status) {
            Map<String, Object> error = new LinkedHashMap<>();
            error.put("in", in(e.getParameterType()));
            error.put("name", e.getParameterName());
            error.put("message", "cannot be converted to the expected type");
            return Problem.of(Problem.TYPE_INVALID_PARAMETER, "Invalid parameter", status,
                    "A parameter of the request has a value of the wrong type.").errors(List.of(error));
        }

        private static String in(Class<?> annotation) {
            if (annotation == PathParam.class) {
                return "path";
            } else if (annotation == QueryParam.class) {
                return "query";
            } else if (annotation == HeaderParam.class) {
                return "header";
            } else if (annotation == FormParam.class) {
                return "form";
            } else if (annotation == CookieParam.class) {
                return "cookie";
            } else if (annotation == MatrixParam.class) {
                return "matrix";
            }
            return "request";
        }

        private String detail(WebApplicationException e, int status, Response original) {
            String message = e.getMessage();
            boolean explicit = message != null && !message.startsWith("HTTP " + status);
            if (explicit && status < 500) {
                return message;
            }
            ContainerRequestContext r = request();
            return switch (status) {
                case 400 -> e.getCause() instanceof NoContentException ? "The request has no body."
                        : "The request is invalid.";
                case 404 -> "There is no resource at this path.";
                case 405 -> "The method " + (r != null ? r.getMethod() + " " : "")
                        + "is not allowed here; allowed: " + String.join(", ", new TreeSet<>(original.getAllowedMethods())) + ".";
                case 406 -> "None of the media types in Accept can be produced here.";
                case 415 -> unsupported(r);
                default -> null;
            };
        }

        private static String unsupported(ContainerRequestContext r) {
            MediaType type = r != null ? r.getMediaType() : null;
            return type == null ? "A request body without a content type is not accepted here."
                    : "The content type " + type.getType() + "/" + type.getSubtype() + " is not accepted here.";
        }
    }

    /** Anything else: 500 with an incident id; the stack trace goes to the log, never to the client. */
    @Priority(PRIORITY)
    static final class Unexpected extends Base implements ExceptionMapper<Throwable> {
        Unexpected(ProblemResponder responder) {
            super(responder);
        }

        @Override
        public Response toResponse(Throwable e) {
            return incident(e);
        }
    }
}
