package dev.fleche.validation.internal;

import dev.fleche.validation.ProblemCustomizer;
import jakarta.ws.rs.core.FeatureContext;
import org.glassfish.jersey.server.validation.ValidationFeature;

import java.util.List;

/** Registers the module's providers for {@link dev.fleche.validation.FlecheValidationFeature}. */
public final class Registration {
    private static final String JACKSON_DATABIND = "com.fasterxml.jackson.databind.JsonMappingException";

    private Registration() {
    }

    /** Registers Jersey's validation, the localised interpolator and the problem mappers into {@code context}. */
    public static void register(FeatureContext context, List<ProblemCustomizer> customizers) {
        if (!context.getConfiguration().isRegistered(ValidationFeature.class)) {
            context.register(ValidationFeature.class);
        }
        context.register(new LocalizedValidationConfig());
        ProblemResponder responder = new ProblemResponder(customizers);
        context.register(new ProblemMappers.Violation(responder));
        context.register(new ProblemMappers.ValidationFailure(responder));
        context.register(new ProblemMappers.WebApplication(responder));
        context.register(new ProblemMappers.Unexpected(responder));
        if (jacksonPresent()) {
            context.register(new JacksonMappers.Parse(responder));
            context.register(new JacksonMappers.Mapping(responder));
            context.register(new JacksonMappers.Processing(responder));
        }
    }

    private static boolean jacksonPresent() {
        try {
            Class.forName(JACKSON_DATABIND, false, Registration.class.getClassLoader());
            return true;
        } catch (ClassNotFoundException | LinkageError e) {
            return false;
        }
    }
}
