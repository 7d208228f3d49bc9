package dev.fleche.transport.internal.files;

import java.util.Locale;

/**
 * Whether an {@code Accept-Encoding} field (RFC 9110 12.5.3) accepts a coding: listed with a weight above 0, or
 * covered by {@code *} above 0 without being listed at weight 0. Bounded: a field longer than
 * {@value #MAX_LENGTH} characters accepts nothing (the identity is always acceptable).
 */
final class AcceptEncoding {
    private static final int MAX_LENGTH = 512;

    private AcceptEncoding() {
    }

    static boolean accepts(String field, String coding) {
        if (field == null || field.length() > MAX_LENGTH) {
            return false;
        }
        boolean wildcard = false;
        for (String element : field.split(",")) {
            int semicolon = element.indexOf(';');
            String name = (semicolon < 0 ? element : element.substring(0, semicolon)).trim().toLowerCase(Locale.ROOT);
            boolean positive = semicolon < 0 || weight(element.substring(semicolon + 1)) > 0;
            if (name.equals(coding)) {
                return positive;
            }
            if (name.equals("*")) {
                wildcard = positive;
            }
        }
        return wildcard;
    }

    /** The weight of {@code q=...} parameters; 1 when absent, 0 when malformed. */
    private static double weight(String parameters) {
        for (String parameter : parameters.split(";")) {
            String p = parameter.trim();
            if (p.length() > 2 && (p.charAt(0) == 'q' || p.charAt(0) == 'Q') && p.charAt(1) == '=') {
                try {
                    return Double.parseDouble(p.substring(2).trim());
                } catch (NumberFormatException e) {
                    return 0;
                }
            }
        }
        return 1;
    }
}
