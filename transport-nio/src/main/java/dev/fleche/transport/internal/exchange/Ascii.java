package dev.fleche.transport.internal.exchange;

/** ASCII character classes of RFC 9110 used when writing responses. */
public final class Ascii {
    private static final boolean[] TOKEN = new boolean[128];

    static {
        for (char c = '0'; c <= '9'; c++) TOKEN[c] = true;
        for (char c = 'a'; c <= 'z'; c++) TOKEN[c] = true;
        for (char c = 'A'; c <= 'Z'; c++) TOKEN[c] = true;
        for (char c : "!#$%&'*+-.^_`|~".toCharArray()) TOKEN[c] = true;
    }

    private Ascii() {
    }

    /** Whether {@code c} is a tchar (RFC 9110 5.6.2). */
    public static boolean isTokenChar(char c) {
        return c < 128 && TOKEN[c];
    }
}
