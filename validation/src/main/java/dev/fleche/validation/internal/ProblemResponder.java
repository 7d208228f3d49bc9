package dev.fleche.validation.internal;

import dev.fleche.validation.ProblemCustomizer;
import dev.fleche.validation.ProblemJson;
import jakarta.ws.rs.container.ContainerRequestContext;
import jakarta.ws.rs.core.HttpHeaders;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.MultivaluedMap;
import jakarta.ws.rs.core.Response;
import org.glassfish.jersey.internal.inject.InjectionManager;
import org.glassfish.jersey.internal.inject.Providers;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Turns a {@link Problem} into the response: fills in {@code instance}, runs the customizers, negotiates JSON
 * or plain text and copies the headers to keep. One per application, shared by the exception mappers.
 *
 * <p>Negotiation: the client's media ranges are tried best first; the first one that admits
 * {@code application/problem+json} or {@code application/json} gives JSON, the first that admits
 * {@code text/plain} or is {@code text/html} gives plain text. Nothing acceptable (or no {@code Accept}): JSON.
 * JSON goes out as {@code application/problem+json}, or as {@code application/json} when that is the client's
 * first JSON choice and it does not name {@code application/problem+json} at all.
 */
final class ProblemResponder {
    private static final System.Logger LOG = System.getLogger("dev.fleche.validation");
    static final MediaType PROBLEM_JSON = MediaType.valueOf(ProblemJson.MEDIA_TYPE);
    static final MediaType TEXT_UTF8 = MediaType.valueOf("text/plain;charset=UTF-8");

    private final List<ProblemCustomizer> featureCustomizers;
    private volatile List<ProblemCustomizer> registered;

    ProblemResponder(List<ProblemCustomizer> featureCustomizers) {
        this.featureCustomizers = List.copyOf(featureCustomizers);
    }

    /**
     * The response for {@code problem}, caused by {@code cause}, answering {@code request} (null outside a
     * request); {@code keep} are headers to send along (e.g. {@code Allow}), or null.
     */
    Response respond(Problem problem, Throwable cause, ContainerRequestContext request, InjectionManager injection,
                     MultivaluedMap<String, Object> keep) {
        Map<String, Object> map = problem.toMap(request != null ? request.getUriInfo().getRequestUri().getRawPath()
                : null);
        String requestId = requestId(request);
        if (requestId != null) {
            map.put(ProblemJson.REQUEST_ID_MEMBER, requestId);
        }
        customize(map, cause, request, injection);
        int status = statusOf(map, problem.status());
        MediaType type = negotiate(request != null ? request.getAcceptableMediaTypes() : List.of());
        byte[] body = type == TEXT_UTF8 ? text(map, status).getBytes(StandardCharsets.UTF_8) : ProblemJson.render(map);
        Response.ResponseBuilder response = Response.status(status);
        if (keep != null) {
            keep.forEach((name, values) -> {
                if (!name.equalsIgnoreCase(HttpHeaders.CONTENT_TYPE) && !name.equalsIgnoreCase(HttpHeaders.CONTENT_LENGTH)
                        && !name.equalsIgnoreCase(HttpHeaders.CONTENT_LANGUAGE)) {
                    values.forEach(value -> response.header(name, value));
                }
            });
        }
        return response.type(type).entity(body).build();
    }

    /** The request id a container or filter set as {@value ProblemJson#REQUEST_ID_PROPERTY}, or null. */
    static String requestId(ContainerRequestContext request) {
        Object id = request == null ? null : request.getProperty(ProblemJson.REQUEST_ID_PROPERTY);
        return id instanceof String text ? text : null;
    }

    private void customize(Map<String, Object> map, Throwable cause, ContainerRequestContext request,
                           InjectionManager injection) {
        if (request == null) {
            return;
        }
        for (ProblemCustomizer customizer : customizers(injection)) {
            try {
                customizer.customize(request, cause, map);
            } catch (RuntimeException e) {
                LOG.log(System.Logger.Level.WARNING, "problem customizer " + customizer.getClass().getName()
                        + " failed; ignored", e);
            }
        }
    }

    private List<ProblemCustomizer> customizers(InjectionManager injection) {
        List<ProblemCustomizer> all = registered;
        if (all == null) {
            all = new ArrayList<>();
            if (injection != null) {
                for (ProblemCustomizer c : Providers.getAllProviders(injection, ProblemCustomizer.class)) {
                    all.add(c);
                }
            }
            all.addAll(featureCustomizers);
            all = List.copyOf(all);
            registered = all;
        }
        return all;
    }

    private static int statusOf(Map<String, Object> map, int fallback) {
        Object status = map.get("status");
        if (status instanceof Integer && (Integer) status >= 400 && (Integer) status <= 599) {
            return (Integer) status;
        }
        map.put("status", fallback);
        return fallback;
    }

    /** The media type of the problem for a client accepting {@code acceptable} (best first). */
    static MediaType negotiate(List<MediaType> acceptable) {
        for (MediaType range : acceptable) {
            if (range.isCompatible(PROBLEM_JSON)) {
                return PROBLEM_JSON;
            }
            if (range.isCompatible(MediaType.APPLICATION_JSON_TYPE)) {
                return namesProblemJson(acceptable) ? PROBLEM_JSON : MediaType.APPLICATION_JSON_TYPE;
            }
            if (range.isCompatible(MediaType.TEXT_PLAIN_TYPE) || range.isCompatible(MediaType.TEXT_HTML_TYPE)) {
                return TEXT_UTF8;
            }
        }
        return PROBLEM_JSON;
    }

    private static boolean namesProblemJson(List<MediaType> acceptable) {
        for (MediaType range : acceptable) {
            if (range.getType().equalsIgnoreCase(PROBLEM_JSON.getType())
                    && range.getSubtype().equalsIgnoreCase(PROBLEM_JSON.getSubtype())) {
                return true;
            }
        }
        return false;
    }

    /** The short plain-text form: a status line, the detail, one line per error, the incident. */
    static String text(Map<String, Object> map, int status) {
        StringBuilder out = new StringBuilder(128);
        out.append(status).append(' ').append(map.get("title"));
        Object detail = map.get("detail");
        if (detail != null) {
            out.append(": ").append(detail);
        }
        out.append('\n');
        if (map.get("errors") instanceof List<?> errors) {
            for (Object e : errors) {
                if (e instanceof Map<?, ?> error) {
                    Object where = error.get("name") != null ? error.get("name") : error.get("path");
                    String label = (join(error.get("in"), where));
                    out.append("- ").append(label.isEmpty() ? "" : label + ": ").append(error.get("message"))
                            .append('\n');
                }
            }
        }
        Object requestId = map.get(ProblemJson.REQUEST_ID_MEMBER);
        if (requestId != null) {
            out.append("request id: ").append(requestId).append('\n');
        }
        Object incident = map.get("incident");
        if (incident != null) {
            out.append("incident: ").append(incident).append('\n');
        }
        return out.toString();
    }

    private static String join(Object first, Object second) {
        String a = first == null ? "" : first.toString();
        String b = second == null ? "" : second.toString();
        return a.isEmpty() || b.isEmpty() ? a + b : a + " " + b;
    }
}
