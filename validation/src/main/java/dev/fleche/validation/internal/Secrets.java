package dev.fleche.validation.internal;

import java.time.temporal.TemporalAccessor;
import java.util.Locale;
import java.util.UUID;

/**
 * Decides whether an input value may be echoed back as {@code rejected}: only short scalar values, and never
 * for a parameter or property whose name suggests a secret.
 */
final class Secrets {
    /** Name fragments (lower case, separators removed) that mark a value as secret. */
    private static final String[] SECRET_WORDS = {
        "password", "passwd", "pwd", "passphrase", "secret", "token", "apikey", "key", "credential", "auth",
        "cookie", "session", "signature", "private", "otp", "cvv", "cvc", "pin", "iban", "cardnumber", "ssn"
    };
    /** Longer strings are not echoed: a rejected value is a hint, not a copy of the input. */
    static final int MAX_ECHO_CHARS = 200;

    private Secrets() {
    }

    /** Whether any segment of the name or property path {@code name} looks like it holds a secret. */
    static boolean looksSecret(String name) {
        if (name == null) {
            return false;
        }
        StringBuilder folded = new StringBuilder(name.length());
        for (int i = 0; i < name.length(); i++) {
            char c = name.charAt(i);
            if (Character.isLetterOrDigit(c)) {
                folded.append(Character.toLowerCase(c));
            } else if (c == '.' || c == '[') {
                folded.append('/');
            }
        }
        String s = folded.toString().toLowerCase(Locale.ROOT);
        for (String word : SECRET_WORDS) {
            if (word.length() <= 3 ? hasSegment(s, word) : s.contains(word)) {
                return true;
            }
        }
        return false;
    }

    /** Short words ("pin", "otp", "key", ...) only count as a whole segment or a suffix ("apiKey", "userPin"). */
    private static boolean hasSegment(String s, String word) {
        for (String segment : s.split("/")) {
            if (segment.equals(word) || segment.endsWith(word)) {
                return true;
            }
        }
        return false;
    }

    /**
     * The value to report as {@code rejected}, or {@code null} when it must not be reported: a string of at
     * most {@value #MAX_ECHO_CHARS} characters, a number, a boolean, a character, an enum constant, a UUID or a
     * date/time; nothing for names that look secret.
     */
    static Object echoable(String name, Object value) {
        if (value == null || looksSecret(name)) {
            return null;
        }
        if (value instanceof CharSequence) {
            return value.toString().length() <= MAX_ECHO_CHARS ? value.toString() : null;
        }
        if (value instanceof Number || value instanceof Boolean) {
            return value;
        }
        if (value instanceof Character || value instanceof Enum || value instanceof UUID
                || value instanceof TemporalAccessor) {
            return value.toString();
        }
        return null;
    }
}
