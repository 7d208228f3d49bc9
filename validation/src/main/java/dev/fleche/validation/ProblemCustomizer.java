package dev.fleche.validation;

import jakarta.ws.rs.container.ContainerRequestContext;
import org.glassfish.jersey.spi.Contract;

import java.util.Map;

/**
 * Adds, changes or removes members of every problem document this module answers, before it is written. Give one
 * to {@link FlecheValidationFeature#customizer(ProblemCustomizer)} or register a class implementing it like any
 * provider ({@code resourceConfig.register(MyCustomizer.class)}); registered ones run first, ordered by their
 * {@link jakarta.annotation.Priority @Priority} (lowest first), then the feature's in the order given.
 *
 * <pre>{@code
 * new FlecheValidationFeature().customizer((request, cause, problem) -> {
 *     problem.put("requestId", request.getHeaderString("X-Request-Id"));
 *     if (cause instanceof OrderLockedException e) {
 *         problem.put("type", "https://example.com/problems/order-locked");
 *         problem.put("orderId", e.orderId());
 *     }
 * });
 * }</pre>
 *
 * <p>The map holds {@code type}, {@code title}, {@code status}, {@code detail}, {@code instance} and, when
 * present, {@code errors} (a list of maps) and {@code incident}; its iteration order is the JSON member order.
 * Values may be strings, numbers, booleans, null, maps and lists. Changing {@code status} changes the response
 * status (it must stay an {@code Integer} in 400..599, else the original status is kept). A customizer runs on the
 * request's thread and must not block for long; one that throws is logged and skipped (what it changed before
 * throwing stays). The plain-text form of a problem shows only {@code title}, {@code detail}, {@code errors} and
 * {@code incident}.
 */
@Contract
@FunctionalInterface
public interface ProblemCustomizer {

    /**
     * @param request the request being answered (its headers, URI, properties)
     * @param cause the exception that is being mapped
     * @param problem the mutable problem document
     */
    void customize(ContainerRequestContext request, Throwable cause, Map<String, Object> problem);
}
