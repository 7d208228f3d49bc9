package dev.fleche.jersey.internal;

import dev.fleche.jersey.FlecheProperties;
import org.glassfish.jersey.server.ServerProperties;

import java.util.Map;

/**
 * The container's settings, read once per deployment from the application's properties (see
 * {@link FlecheProperties} for names, types and defaults).
 *
 * @param trustForwarded          whether forwarding headers decide scheme and host
 * @param retryAfterSeconds       {@code Retry-After} of a saturation {@code 503}
 * @param nonBlockingLimit        the in-memory limit of a {@code @NonBlocking} response
 * @param setStatusOverSendError  Jersey's {@code RESPONSE_SET_STATUS_OVER_SEND_ERROR}: a failure answers a bare
 *                                {@code 500} without a body
 */
public record Settings(boolean trustForwarded, int retryAfterSeconds, int nonBlockingLimit,
                       boolean setStatusOverSendError) {

    static final int DEFAULT_NON_BLOCKING_LIMIT = 1024 * 1024;

    /** Reads the settings from {@code properties}, applying the defaults. */
    public static Settings from(Map<String, Object> properties) {
        return new Settings(
                bool(properties, FlecheProperties.TRUST_FORWARDED_HEADERS, false),
                integer(properties, FlecheProperties.RETRY_AFTER_SECONDS, 1, 0),
                integer(properties, FlecheProperties.NON_BLOCKING_MAX_RESPONSE_BYTES, DEFAULT_NON_BLOCKING_LIMIT, 0),
                bool(properties, ServerProperties.RESPONSE_SET_STATUS_OVER_SEND_ERROR, false));
    }

    /** A boolean property given as {@link Boolean} or string; {@code fallback} when absent. */
    static boolean bool(Map<String, Object> properties, String name, boolean fallback) {
        Object value = properties.get(name);
        if (value == null) {
            return fallback;
        }
        if (value instanceof Boolean) {
            return (Boolean) value;
        }
        return Boolean.parseBoolean(value.toString().trim());
    }

    /** An int property given as {@link Number} or string, at least {@code min}; {@code fallback} when absent. */
    static int integer(Map<String, Object> properties, String name, int fallback, int min) {
        Long value = longValue(properties, name, min);
        if (value == null) {
            return fallback;
        }
        if (value > Integer.MAX_VALUE) {
            throw new IllegalArgumentException(name + " must be <= " + Integer.MAX_VALUE + ", was " + value);
        }
        return value.intValue();
    }

    /** A long property given as {@link Number} or string, at least {@code min}; null when absent. */
    static Long longValue(Map<String, Object> properties, String name, long min) {
        Object value = properties.get(name);
        if (value == null) {
            return null;
        }
        long parsed;
        try {
            parsed = value instanceof Number ? ((Number) value).longValue() : Long.parseLong(value.toString().trim());
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException(name + " must be an integer, was \"" + value + "\"", e);
        }
        if (parsed < min) {
            throw new IllegalArgumentException(name + " must be >= " + min + ", was " + parsed);
        }
        return parsed;
    }

    /** A property that must be an instance of {@code type}, or null when absent. */
    static <T> T instance(Map<String, Object> properties, String name, Class<T> type) {
        Object value = properties.get(name);
        if (value == null) {
            return null;
        }
        if (!type.isInstance(value)) {
            throw new IllegalArgumentException(name + " must be a " + type.getName() + ", was a "
                    + value.getClass().getName());
        }
        return type.cast(value);
    }
}
