package dev.fleche.transport.http1;

/** Byte classes of RFC 9110 5.6 and small bounded scans over bytes and strings; no allocation. */
final class HttpChars {

    static final byte CR = '\r';
    static final byte LF = '\n';
    static final byte SP = ' ';
    static final byte HTAB = '\t';

    private static final boolean[] TCHAR = new boolean[128];

    static {
        for (int c = '0'; c <= '9'; c++) {
            TCHAR[c] = true;
        }
        for (int c = 'a'; c <= 'z'; c++) {
            TCHAR[c] = true;
            TCHAR[c - 'a' + 'A'] = true;
        }
        for (char c : "!#$%&'*+-.^_`|~".toCharArray()) {
            TCHAR[c] = true;
        }
    }

    private HttpChars() {
    }

    /** Whether {@code c} (a byte or a char) is a token character. */
    static boolean isTchar(int c) {
        return c >= 0 && c < 128 && TCHAR[c];
    }

    /** Whether {@code b} is SP or HTAB. */
    static boolean isWhitespace(int b) {
        return b == SP || b == HTAB;
    }

    /** Whether {@code b} is a visible ASCII character (VCHAR). */
    static boolean isVisible(int b) {
        return b > 0x20 && b < 0x7F;
    }

    /** Whether the unsigned byte {@code b} may appear inside a field value: HTAB, SP, VCHAR or obs-text. */
    static boolean isFieldValueByte(int b) {
        return b == HTAB || (b >= 0x20 && b != 0x7F);
    }

    /** The value of hex digit {@code b}, or -1. */
    static int hexValue(int b) {
        if (b >= '0' && b <= '9') {
            return b - '0';
        }
        if (b >= 'a' && b <= 'f') {
            return b - 'a' + 10;
        }
        if (b >= 'A' && b <= 'F') {
            return b - 'A' + 10;
        }
        return -1;
    }

    /** The index of the first byte in {@code b[from, to)} that is not a token character, or {@code to}. */
    static int scanToken(byte[] b, int from, int to) {
        int i = from;
        while (i < to && isTchar(b[i])) {
            i++;
        }
        return i;
    }

    /** The index of the first byte in {@code b[from, to)} that is not SP or HTAB, or {@code to}. */
    static int skipWhitespace(byte[] b, int from, int to) {
        int i = from;
        while (i < to && isWhitespace(b[i])) {
            i++;
        }
        return i;
    }

    /** The end of {@code b[from, to)} once trailing SP and HTAB are dropped. */
    static int trimWhitespace(byte[] b, int from, int to) {
        int i = to;
        while (i > from && isWhitespace(b[i - 1])) {
            i--;
        }
        return i;
    }

    /** The index of the first char in {@code s[from, to)} that is not SP or HTAB, or {@code to}. */
    static int skipWhitespace(String s, int from, int to) {
        int i = from;
        while (i < to && isWhitespace(s.charAt(i))) {
            i++;
        }
        return i;
    }

    /** The end of {@code s[from, to)} once trailing SP and HTAB are dropped. */
    static int trimWhitespace(String s, int from, int to) {
        int i = to;
        while (i > from && isWhitespace(s.charAt(i - 1))) {
            i--;
        }
        return i;
    }

    /** The end of the list element starting at {@code from}: the next comma, or the end of {@code s}. */
    static int elementEnd(String s, int from) {
        int comma = s.indexOf(',', from);
        return comma < 0 ? s.length() : comma;
    }

    /** Whether {@code s[from, to)} is a non-empty token. */
    static boolean isToken(String s, int from, int to) {
        if (from == to) {
            return false;
        }
        for (int i = from; i < to; i++) {
            if (!isTchar(s.charAt(i))) {
                return false;
            }
        }
        return true;
    }

    /** Whether {@code s[from, to)} equals {@code lowerCase} ignoring ASCII case. */
    static boolean equalsIgnoreCase(String s, int from, int to, String lowerCase) {
        return to - from == lowerCase.length() && s.regionMatches(true, from, lowerCase, 0, lowerCase.length());
    }

    /**
     * The entry of {@code known} whose ASCII bytes equal {@code b[from, to)} exactly, or {@code null}; lets common
     * methods and field names be shared constants rather than new strings.
     */
    static String lookup(String[] known, byte[] b, int from, int to) {
        int length = to - from;
        for (String candidate : known) {
            if (candidate.length() == length && sameAscii(candidate, b, from)) {
                return candidate;
            }
        }
        return null;
    }

    private static boolean sameAscii(String s, byte[] b, int from) {
        for (int i = 0; i < s.length(); i++) {
            if (s.charAt(i) != b[from + i]) {
                return false;
            }
        }
        return true;
    }
}
