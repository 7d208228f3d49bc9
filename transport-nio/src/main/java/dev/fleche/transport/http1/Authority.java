package dev.fleche.transport.http1;

/**
 * Validates {@code uri-host [":" port]} (RFC 3986 3.2.2 and 3.2.3, as used by RFC 9110 7.2 and RFC 9112 3.2):
 * a bracketed IP literal or a reg-name of unreserved, sub-delims and percent-encoded characters. User info
 * ({@code @}), paths, whitespace and other characters are refused.
 */
final class Authority {

    private static final String SUB_DELIMS = "!$&'()*+,;=";

    private Authority() {
    }

    /**
     * Whether {@code s} is a valid authority.
     *
     * @param allowEmpty whether the empty string is valid (an empty Host value, RFC 9110 7.2)
     * @param requirePort whether a non-empty port is mandatory (authority-form, RFC 9112 3.2.3)
     */
    static boolean isValid(String s, boolean allowEmpty, boolean requirePort) {
        if (s.isEmpty()) {
            return allowEmpty && !requirePort;
        }
        int hostEnd = s.charAt(0) == '[' ? ipLiteralEnd(s) : regNameEnd(s);
        if (hostEnd <= 0) {
            return false;
        }
        if (hostEnd == s.length()) {
            return !requirePort;
        }
        if (s.charAt(hostEnd) != ':') {
            return false;
        }
        int portStart = hostEnd + 1;
        if (requirePort && portStart == s.length()) {
            return false;
        }
        for (int i = portStart; i < s.length(); i++) {
            char c = s.charAt(i);
            if (c < '0' || c > '9') {
                return false;
            }
        }
        return true;
    }

    /** The index past the closing bracket of an IP literal at the start of {@code s}, or -1. */
    private static int ipLiteralEnd(String s) {
        int close = s.indexOf(']');
        if (close < 2) {
            return -1;
        }
        for (int i = 1; i < close; i++) {
            char c = s.charAt(i);
            if (!(isUnreserved(c) || c == ':' || SUB_DELIMS.indexOf(c) >= 0)) {
                return -1;
            }
        }
        return close + 1;
    }

    /** The index where the reg-name at the start of {@code s} ends (a colon or the end), or -1 if invalid. */
    private static int regNameEnd(String s) {
        int i = 0;
        while (i < s.length()) {
            char c = s.charAt(i);
            if (c == ':') {
                break;
            }
            if (c == '%') {
                if (i + 2 >= s.length() || HttpChars.hexValue(s.charAt(i + 1)) < 0
                        || HttpChars.hexValue(s.charAt(i + 2)) < 0) {
                    return -1;
                }
                i += 3;
            } else if (isUnreserved(c) || SUB_DELIMS.indexOf(c) >= 0) {
                i++;
            } else {
                return -1;
            }
        }
        return i;
    }

    private static boolean isUnreserved(char c) {
        return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9')
                || c == '-' || c == '.' || c == '_' || c == '~';
    }
}
