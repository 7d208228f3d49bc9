package dev.fleche.jersey.internal;

/**
 * Parses the W3C Trace Context headers (https://www.w3.org/TR/trace-context/, section 3). Pure functions: a value
 * in, the parts or null out. Nothing here throws on input.
 */
final class TraceContext {
    /** Length of a version-00 {@code traceparent}: {@code 2 + 1 + 32 + 1 + 16 + 1 + 2}. */
    static final int PARENT_LENGTH = 55;
    /** At most this many non-empty members in {@code tracestate} (section 3.3.1.1). */
    static final int MAX_STATE_MEMBERS = 32;
    /** A {@code tracestate} longer than this is dropped whole (32 members of the longest key and value fit). */
    static final int MAX_STATE_LENGTH = 32 * (256 + 1 + 256) + 31 * 3;

    /** The parts of a valid {@code traceparent}. */
    record Parent(String traceId, String parentId, String flags) {
    }

    private TraceContext() {
    }

    /**
     * The parts of {@code value}, or null when it is not a valid {@code traceparent}: version {@code 00} must be
     * exactly 55 characters; a later version (not {@code ff}) at least 55, the 56th being {@code -}, and is read
     * as version 00 (section 3.2.4: parse what is known, ignore the rest).
     */
    static Parent parseParent(String value) {
        if (value == null || value.length() < PARENT_LENGTH) {
            return null;
        }
        if (!lowerHex(value, 0, 2) || value.startsWith("ff") || value.charAt(2) != '-' || value.charAt(35) != '-'
                || value.charAt(52) != '-') {
            return null;
        }
        boolean version00 = value.startsWith("00");
        if (version00 ? value.length() != PARENT_LENGTH
                : value.length() > PARENT_LENGTH && value.charAt(PARENT_LENGTH) != '-') {
            return null;
        }
        if (!lowerHex(value, 3, 35) || !lowerHex(value, 36, 52) || !lowerHex(value, 53, 55)
                || zeros(value, 3, 35) || zeros(value, 36, 52)) {
            return null;
        }
        return new Parent(value.substring(3, 35), value.substring(36, 52), value.substring(53, 55));
    }

    /** Whether {@code value} is a valid {@code tracestate} list (section 3.3.1): the value itself, or null. */
    static String validState(String value) {
        if (value == null || value.length() > MAX_STATE_LENGTH) {
            return null;
        }
        int members = 0;
        int start = 0;
        while (start <= value.length()) {
            int comma = value.indexOf(',', start);
            int end = comma < 0 ? value.length() : comma;
            String member = value.substring(start, end).strip();
            if (!member.isEmpty()) {
                if (++members > MAX_STATE_MEMBERS || !validMember(member)) {
                    return null;
                }
            }
            start = end + 1;
        }
        return members == 0 ? null : value;
    }

    private static boolean validMember(String member) {
        int equals = member.indexOf('=');
        return equals > 0 && validKey(member.substring(0, equals)) && validValue(member.substring(equals + 1));
    }

    /** {@code simple-key} or {@code tenant-id@system-id}. */
    private static boolean validKey(String key) {
        int at = key.indexOf('@');
        if (at < 0) {
            return key.length() <= 256 && lowerAlpha(key.charAt(0)) && keyChars(key, 1, key.length());
        }
        String tenant = key.substring(0, at);
        String system = key.substring(at + 1);
        return !tenant.isEmpty() && tenant.length() <= 241 && (lowerAlpha(tenant.charAt(0))
                || isDigit(tenant.charAt(0))) && keyChars(tenant, 1, tenant.length())
                && !system.isEmpty() && system.length() <= 14 && lowerAlpha(system.charAt(0))
                && keyChars(system, 1, system.length());
    }

    /** 1 to 256 printable ASCII characters but {@code ,} and {@code =}, not ending with a space. */
    private static boolean validValue(String value) {
        if (value.isEmpty() || value.length() > 256 || value.charAt(value.length() - 1) == ' ') {
            return false;
        }
        for (int i = 0; i < value.length(); i++) {
            char c = value.charAt(i);
            if (c < 0x20 || c > 0x7e || c == ',' || c == '=') {
                return false;
            }
        }
        return true;
    }

    private static boolean keyChars(String key, int from, int to) {
        for (int i = from; i < to; i++) {
            char c = key.charAt(i);
            if (!lowerAlpha(c) && !isDigit(c) && c != '_' && c != '-' && c != '*' && c != '/') {
                return false;
            }
        }
        return true;
    }

    private static boolean lowerHex(String s, int from, int to) {
        for (int i = from; i < to; i++) {
            char c = s.charAt(i);
            if (!isDigit(c) && (c < 'a' || c > 'f')) {
                return false;
            }
        }
        return true;
    }

    private static boolean zeros(String s, int from, int to) {
        for (int i = from; i < to; i++) {
            if (s.charAt(i) != '0') {
                return false;
            }
        }
        return true;
    }

    private static boolean lowerAlpha(char c) {
        return c >= 'a' && c <= 'z';
    }

    private static boolean isDigit(char c) {
        return c >= '0' && c <= '9';
    }
}
