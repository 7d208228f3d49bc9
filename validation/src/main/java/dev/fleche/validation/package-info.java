/**
 * Bean Validation for Jersey resources and RFC 9457 problem details for every failure:
 * {@link dev.fleche.validation.FlecheValidationFeature} (register it, or let Jersey discover it),
 * {@link dev.fleche.validation.ProblemCustomizer} (add members) and {@link dev.fleche.validation.ProblemJson}
 * (render problems without Jackson, e.g. for the transport's own error responses).
 */
package dev.fleche.validation;
