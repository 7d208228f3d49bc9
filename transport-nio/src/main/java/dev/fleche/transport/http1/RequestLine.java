package dev.fleche.transport.http1;

import java.nio.charset.StandardCharsets;

/**
 * A parsed request line (RFC 9112 3): {@code method SP request-target SP HTTP-version}, with the target split by
 * its form (origin, absolute, authority or asterisk).
 *
 * @param authority the authority of an absolute-form target, else {@code null}
 */
record RequestLine(String method, String target, String path, String query, String authority, int minorVersion) {

    static final String GET = "GET";
    static final String HEAD = "HEAD";
    static final String POST = "POST";
    static final String PUT = "PUT";
    static final String DELETE = "DELETE";
    static final String OPTIONS = "OPTIONS";
    static final String PATCH = "PATCH";
    static final String TRACE = "TRACE";
    static final String CONNECT = "CONNECT";

    private static final String[] METHODS = {GET, POST, HEAD, PUT, DELETE, OPTIONS, PATCH, TRACE, CONNECT};
    private static final int VERSION_LENGTH = "HTTP/1.1".length();
    /** The characters of {@code pchar / "/"} other than a percent-encoding, by ASCII code. */
    private static final boolean[] PATH_CHARS = pathChars();

    /** Parses the request line {@code b[start, end)} (CRLF excluded). */
    static RequestLine parse(byte[] b, int start, int end) throws RequestException {
        int methodEnd = HttpChars.scanToken(b, start, end);
        if (methodEnd == end) {
            throw new RequestException(ProtocolRule.REQUEST_LINE_INVALID);
        }
        if (methodEnd == start || b[methodEnd] != HttpChars.SP) {
            throw new RequestException(ProtocolRule.METHOD_INVALID);
        }
        int targetStart = methodEnd + 1;
        int targetEnd = targetStart;
        while (targetEnd < end && HttpChars.isVisible(b[targetEnd])) {
            targetEnd++;
        }
        if (targetEnd == targetStart || targetEnd == end) {
            throw new RequestException(ProtocolRule.REQUEST_LINE_INVALID);
        }
        if (b[targetEnd] != HttpChars.SP) {
            throw new RequestException(ProtocolRule.TARGET_INVALID);
        }
        int minor = minorVersion(b, targetEnd + 1, end);
        String method = method(b, start, methodEnd);
        String target = new String(b, targetStart, targetEnd - targetStart, StandardCharsets.US_ASCII);
        return withTarget(method, target, minor);
    }

    /** Parses {@code HTTP/<digit>.<digit>}: returns 0 or 1 for major version 1, refuses any other. */
    private static int minorVersion(byte[] b, int start, int end) throws RequestException {
        if (end - start != VERSION_LENGTH || b[start] != 'H' || b[start + 1] != 'T' || b[start + 2] != 'T'
                || b[start + 3] != 'P' || b[start + 4] != '/' || !isDigit(b[start + 5]) || b[start + 6] != '.'
                || !isDigit(b[start + 7])) {
            throw new RequestException(ProtocolRule.VERSION_INVALID);
        }
        if (b[start + 5] != '1') {
            throw new RequestException(ProtocolRule.VERSION_NOT_SUPPORTED);
        }
        return b[start + 7] == '0' ? 0 : 1;
    }

    private static String method(byte[] b, int start, int end) {
        String known = HttpChars.lookup(METHODS, b, start, end);
        return known != null ? known : new String(b, start, end - start, StandardCharsets.US_ASCII);
    }

    static RequestLine withTarget(String method, String target, int minor) throws RequestException {
        if (CONNECT.equals(method)) {
            if (target.indexOf('/') >= 0 || !Authority.isValid(target, false, true)) {
                throw new RequestException(ProtocolRule.AUTHORITY_FORM_INVALID);
            }
            return new RequestLine(method, target, target, null, null, minor);
        }
        char first = target.charAt(0);
        if (first == '/') {
            if (!isPathAndQuery(target, 0)) {
                throw new RequestException(ProtocolRule.ORIGIN_FORM_INVALID);
            }
            int question = target.indexOf('?');
            return question < 0
                    ? new RequestLine(method, target, target, null, null, minor)
                    : new RequestLine(method, target, target.substring(0, question),
                            target.substring(question + 1), null, minor);
        }
        if (first == '*' && target.length() == 1) {
            if (!OPTIONS.equals(method)) {
                throw new RequestException(ProtocolRule.ASTERISK_FORM_MISUSED);
            }
            return new RequestLine(method, target, target, null, null, minor);
        }
        if (schemeEnd(target) < 0 && Authority.isValid(target, false, true)) {
            throw new RequestException(ProtocolRule.AUTHORITY_FORM_MISUSED);
        }
        return absoluteForm(method, target, minor);
    }

    /** Parses {@code http[s]://authority[/path][?query]} (RFC 9112 3.2.2). */
    private static RequestLine absoluteForm(String method, String target, int minor) throws RequestException {
        int authorityStart = schemeEnd(target);
        if (authorityStart < 0) {
            throw new RequestException(target.contains("://")
                    ? ProtocolRule.ABSOLUTE_FORM_INVALID : ProtocolRule.TARGET_INVALID);
        }
        int authorityEnd = authorityStart;
        while (authorityEnd < target.length() && target.charAt(authorityEnd) != '/'
                && target.charAt(authorityEnd) != '?') {
            authorityEnd++;
        }
        String authority = target.substring(authorityStart, authorityEnd);
        if (!Authority.isValid(authority, false, false) || !isPathAndQuery(target, authorityEnd)) {
            throw new RequestException(ProtocolRule.ABSOLUTE_FORM_INVALID);
        }
        int question = target.indexOf('?', authorityEnd);
        int pathEnd = question < 0 ? target.length() : question;
        String path = pathEnd == authorityEnd ? "/" : target.substring(authorityEnd, pathEnd);
        String query = question < 0 ? null : target.substring(question + 1);
        return new RequestLine(method, target, path, query, authority, minor);
    }

    /** The index past {@code "http://"} or {@code "https://"} (scheme in any case), or -1. */
    private static int schemeEnd(String target) {
        if (target.regionMatches(true, 0, "http://", 0, 7)) {
            return 7;
        }
        if (target.regionMatches(true, 0, "https://", 0, 8)) {
            return 8;
        }
        return -1;
    }

    /**
     * Whether {@code target[from..]} is an absolute-path ({@code *( pchar / "/" )}, percent-encodings well formed:
     * RFC 9112 3.2.1, RFC 3986 3.3) followed by an optional query. The query is taken as clients send it: any
     * visible ASCII but {@code #} (a fragment is never sent), since clients commonly send {@code { } | ^ ` \ "}
     * unencoded there and other containers accept them (the bridge's ParityTest); the request line has already
     * refused anything not visible.
     */
    private static boolean isPathAndQuery(String target, int from) {
        int length = target.length();
        for (int i = from; i < length; i++) {
            char c = target.charAt(i);
            if (c == '?') {
                return target.indexOf('#', i) < 0;
            }
            if (c == '%') {
                if (i + 2 >= length || HttpChars.hexValue(target.charAt(i + 1)) < 0
                        || HttpChars.hexValue(target.charAt(i + 2)) < 0) {
                    return false;
                }
                i += 2;
            } else if (c >= PATH_CHARS.length || !PATH_CHARS[c]) {
                return false;
            }
        }
        return true;
    }

    private static boolean[] pathChars() {
        boolean[] allowed = new boolean[128];
        for (char c = 'a'; c <= 'z'; c++) {
            allowed[c] = true;
            allowed[Character.toUpperCase(c)] = true;
        }
        for (char c = '0'; c <= '9'; c++) {
            allowed[c] = true;
        }
        for (char c : "-._~!$&'()*+,;=:@/".toCharArray()) { // unreserved, sub-delims, pchar and the path's "/"
            allowed[c] = true;
        }
        return allowed;
    }

    private static boolean isDigit(byte b) {
        return b >= '0' && b <= '9';
    }
}
