package dev.fleche.transport.internal.rules;

/**
 * Every answer of static content that is not the file: named once, with the section behind it, the status and a
 * reason that is safe to send back (it never echoes the request). The client's mistake: counted by name
 * ({@code ServerMetrics.refusals}), access-logged with it as {@code rule}, told as a {@code reject} event at
 * {@code DEBUG}; never a stack trace.
 */
public enum StaticRule {
    /**
     * A path that cannot name a file under the root: a {@code .} or {@code ..} segment (also percent-encoded), an
     * encoded {@code /} or a {@code \} (raw or encoded), NUL or another control character, an empty segment, a
     * malformed percent-encoding or UTF-8 sequence (overlong forms included).
     */
    STATIC_BAD_PATH("RFC 3986 3.3, RFC 3629 3", 400, "bad static file path"),
    /** A name starting with {@code .} ({@code .git}, {@code .env}) while dot-files are hidden: answered as missing. */
    STATIC_HIDDEN("OWASP path traversal", 404, "not found"),
    /** A symbolic link that leads out of the root: answered as missing. */
    STATIC_OUTSIDE_ROOT("OWASP path traversal", 404, "not found"),
    /** No such file, a directory without an index, or something that is not a regular file. */
    STATIC_NOT_FOUND("RFC 9110 15.5.5", 404, "not found"),
    /** A method other than {@code GET} or {@code HEAD} on a static path: {@code Allow: GET, HEAD}. */
    STATIC_METHOD_NOT_ALLOWED("RFC 9110 15.5.6", 405, "method not allowed"),
    /** A {@code Range} none of whose bytes exist: {@code Content-Range: bytes *}{@code /length}. */
    STATIC_RANGE_NOT_SATISFIABLE("RFC 9110 15.5.17", 416, "range not satisfiable"),
    /**
     * {@code If-Match} without the file's entity tag, or {@code If-Unmodified-Since} before its last change: the
     * file is not the one the client meant (a resumed download of a file replaced meanwhile).
     */
    STATIC_PRECONDITION_FAILED("RFC 9110 13.1.1, 13.1.4", 412, "precondition failed");

    private final String section;
    private final int status;
    private final String reason;

    StaticRule(String section, int status, String reason) {
        this.section = section;
        this.status = status;
        this.reason = reason;
    }

    public String section() {
        return section;
    }

    public int status() {
        return status;
    }

    /** The reason sent back (safe to echo: fixed text). */
    public String reason() {
        return reason;
    }
}
