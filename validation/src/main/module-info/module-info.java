/**
 * Bean Validation and {@code application/problem+json} errors for Jersey on Fleche: {@code dev.fleche.validation}
 * ({@code FlecheValidationFeature}, {@code ProblemCustomizer}, {@code ProblemJson}). {@code internal} is not
 * exported. The Jersey {@code requires} are filled in by the build (see the module descriptor of
 * {@code dev.fleche.jersey}).
 */
module dev.fleche.validation {
    exports dev.fleche.validation;

    // Public signatures name Feature, FeatureContext and ContainerRequestContext.
    requires transitive jakarta.ws.rs;
    requires jakarta.validation;
    requires jakarta.inject;
    requires jakarta.annotation;
    // ProblemCustomizer is a Jersey @Contract.
    requires transitive ${jpms.jersey.common};
    requires ${jpms.jersey.server};
    requires ${jpms.jersey.validation};
    // Optional, as in the pom: Jackson's parse errors become problems only when Jackson is there (Registration).
    requires static com.fasterxml.jackson.core;
    requires static com.fasterxml.jackson.databind;

    // The auto-discoverable is found through META-INF/services and instantiated by Jersey reflectively; the
    // exception mappers and the validation config it registers are constructed and injected by HK2.
    opens dev.fleche.validation.internal;

    provides org.glassfish.jersey.internal.spi.AutoDiscoverable
            with dev.fleche.validation.internal.FlecheValidationAutoDiscoverable;
}
