package dev.fleche.validation;

import dev.fleche.validation.internal.Registration;
import jakarta.ws.rs.core.Feature;
import jakarta.ws.rs.core.FeatureContext;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * Bean Validation for Jersey resources and {@value ProblemJson#MEDIA_TYPE} (RFC 9457) answers for every failure.
 *
 * <pre>{@code
 * new ResourceConfig(TodoResource.class).register(FlecheValidationFeature.class);
 * // or, with a customizer:
 * new ResourceConfig(TodoResource.class).register(new FlecheValidationFeature().customizer(
 *         (request, cause, problem) -> problem.put("requestId", request.getHeaderString("X-Request-Id"))));
 * }</pre>
 *
 * <p>It is also registered automatically (a Jersey auto-discoverable) when this module is on the class path,
 * unless auto-discovery is disabled or the property {@value #DISABLE} is {@code true}. It registers Jersey's
 * {@code ValidationFeature} (Hibernate Validator), a message interpolator that follows {@code Accept-Language},
 * and exception mappers for constraint violations, Jackson's parse and binding errors (when Jackson is present),
 * {@code WebApplicationException}s (Jersey's 404, 405, 406, 415 among them) and any other exception (500 with an
 * incident id). Every mapper has priority {@code Priorities.USER + 1000}, so an application's own mapper for the
 * same exception type wins; see the module README for the format and the rules.
 */
public final class FlecheValidationFeature implements Feature {
    /** Property: {@code true} turns the feature off (it registers nothing). */
    public static final String DISABLE = "fleche.validation.disable";

    private final List<ProblemCustomizer> customizers = new ArrayList<>();

    /** The feature with no customizer of its own (registered ones still apply). */
    public FlecheValidationFeature() {
    }

    /** Adds a customizer run on every problem, after the ones registered as providers; returns {@code this}. */
    public FlecheValidationFeature customizer(ProblemCustomizer customizer) {
        customizers.add(Objects.requireNonNull(customizer, "customizer"));
        return this;
    }

    @Override
    public boolean configure(FeatureContext context) {
        Object disabled = context.getConfiguration().getProperty(DISABLE);
        if (disabled != null && Boolean.parseBoolean(disabled.toString())) {
            return false;
        }
        Registration.register(context, customizers);
        return true;
    }
}
