package dev.fleche.transport.http1;

/**
 * Every HTTP/1.1 request rule the parser enforces, named once with the section that states it, the status it
 * answers and a short reason that is safe to send back (fixed ASCII text, never derived from the input).
 *
 * <p>Limits are counted as follows: the request line without its CRLF; a header (or trailer) section as its
 * field lines, each with its CRLF, the final empty line excluded; a chunk line without its CRLF.
 */
public enum ProtocolRule {

    // --- message and request line -------------------------------------------------------------------------
    /** More empty lines before the request line than {@link RequestHeadParser#MAX_LEADING_EMPTY_LINES}. */
    LEADING_EMPTY_LINES("RFC 9112 2.2", 400, "Too many empty lines before request"),
    /** A line ended by LF alone (or a lone CR): only CRLF ends a line here. */
    BARE_LF("RFC 9112 2.2", 400, "Line not terminated by CRLF"),
    /** The request line is longer than the configured maximum. */
    REQUEST_LINE_TOO_LONG("RFC 9112 3", 414, "Request line too long"),
    /** The request line is not {@code method SP request-target SP HTTP-version} with single spaces. */
    REQUEST_LINE_INVALID("RFC 9112 3", 400, "Malformed request line"),
    /** The method has a byte that is not a token character. */
    METHOD_INVALID("RFC 9112 3.1", 400, "Invalid method"),
    /** The request-target has a byte outside visible ASCII, or is in no known form. */
    TARGET_INVALID("RFC 9112 3.2", 400, "Invalid request target"),
    /**
     * An origin-form target ({@code absolute-path ["?" query]}) whose path has a character outside
     * {@code pchar / "/"} (such as {@code # < > " { } | \ ^ `}) or a malformed percent-encoding, or whose query has a
     * {@code #}. The query is otherwise taken as clients send it (unencoded {@code { } | ^} and the like).
     */
    ORIGIN_FORM_INVALID("RFC 9112 3.2.1", 400, "Invalid origin-form target"),
    /**
     * An absolute-form target that is not {@code http[s]://authority[path][?query]} with a valid authority (no
     * user info) and a path and query as in the origin-form.
     */
    ABSOLUTE_FORM_INVALID("RFC 9112 3.2.2", 400, "Invalid absolute-form target"),
    /** CONNECT without an authority-form target ({@code host:port}). */
    AUTHORITY_FORM_INVALID("RFC 9112 3.2.3", 400, "CONNECT needs a host:port target"),
    /** An authority-form target ({@code host:port}) on a method other than CONNECT. */
    AUTHORITY_FORM_MISUSED("RFC 9112 3.2.3", 400, "Authority target only for CONNECT"),
    /** The asterisk-form target {@code *} on a method other than OPTIONS. */
    ASTERISK_FORM_MISUSED("RFC 9112 3.2.4", 400, "Asterisk target only for OPTIONS"),
    /** The version is not {@code HTTP/<digit>.<digit>} (the name is case-sensitive). */
    VERSION_INVALID("RFC 9112 2.3", 400, "Invalid HTTP version"),
    /** A well-formed version whose major number is not 1. */
    VERSION_NOT_SUPPORTED("RFC 9110 15.6.6", 505, "HTTP version not supported"),

    // --- field lines (headers and trailers) ----------------------------------------------------------------
    /** The first field line starts with whitespace. */
    WHITESPACE_AFTER_START_LINE("RFC 9112 2.2", 400, "Whitespace after request line"),
    /** A field line starts with SP or HTAB (obsolete line folding). */
    OBS_FOLD("RFC 9112 5.2", 400, "Obsolete line folding"),
    /** Whitespace between a field name and its colon. */
    FIELD_NAME_WHITESPACE("RFC 9112 5.1", 400, "Whitespace before colon"),
    /** A field name that is empty, not a token, or not followed by a colon. */
    FIELD_NAME_INVALID("RFC 9110 5.1", 400, "Invalid field name"),
    /** A field value holding a control character other than HTAB (NUL, CR, LF, DEL, ...). */
    FIELD_VALUE_INVALID("RFC 9110 5.5", 400, "Invalid field value"),
    /** The header section is larger than the configured maximum. */
    HEADER_SECTION_TOO_LARGE("RFC 6585 5", 431, "Request header fields too large"),
    /** More header fields than the configured maximum. */
    TOO_MANY_HEADERS("RFC 6585 5", 431, "Too many header fields"),

    // --- Host -----------------------------------------------------------------------------------------------
    /** An HTTP/1.1 request without a Host field. */
    HOST_MISSING("RFC 9112 3.2", 400, "Missing Host header"),
    /** More than one Host field line. */
    HOST_DUPLICATE("RFC 9112 3.2", 400, "Multiple Host headers"),
    /** A Host value that is not {@code uri-host [":" port]}. */
    HOST_INVALID("RFC 9110 7.2", 400, "Invalid Host header"),

    // --- framing --------------------------------------------------------------------------------------------
    /** A Content-Length that is not one or more digits, or that overflows a long. */
    CONTENT_LENGTH_INVALID("RFC 9110 8.6", 400, "Invalid Content-Length"),
    /** Several Content-Length values that are not all identical. */
    CONTENT_LENGTH_CONFLICT("RFC 9112 6.3", 400, "Conflicting Content-Length"),
    /** Both Content-Length and Transfer-Encoding (a request smuggling vector). */
    CONTENT_LENGTH_WITH_TRANSFER_ENCODING("RFC 9112 6.1", 400, "Content-Length with Transfer-Encoding"),
    /** Transfer-Encoding whose final coding is not chunked, or that is empty or malformed. */
    TRANSFER_ENCODING_INVALID("RFC 9112 6.3", 400, "Invalid Transfer-Encoding"),
    /** Transfer-Encoding on an HTTP/1.0 request: its framing cannot be trusted. */
    TRANSFER_ENCODING_IN_HTTP_1_0("RFC 9112 6.1", 400, "Transfer-Encoding in HTTP/1.0"),
    /** A transfer coding other than chunked (which is final): none is implemented. */
    TRANSFER_CODING_NOT_IMPLEMENTED("RFC 9112 6.1", 501, "Transfer coding not implemented"),
    /** An HTTP/1.1 expectation other than 100-continue. */
    EXPECTATION_FAILED("RFC 9110 10.1.1", 417, "Unsupported expectation"),

    // --- chunked transfer coding ----------------------------------------------------------------------------
    /** A chunk size that is not 1 to 16 hex digits fitting a long. */
    CHUNK_SIZE_INVALID("RFC 9112 7.1", 400, "Invalid chunk size"),
    /** A chunk extension that is not {@code ;name[=token|quoted-string]}. */
    CHUNK_EXTENSION_INVALID("RFC 9112 7.1.1", 400, "Invalid chunk extension"),
    /** A chunk-size line (with extensions) longer than the configured maximum. */
    CHUNK_LINE_TOO_LONG("RFC 9112 7.1.1", 400, "Chunk line too long"),
    /** Chunk data not followed by CRLF. */
    CHUNK_DATA_UNTERMINATED("RFC 9112 7.1", 400, "Chunk data not followed by CRLF"),
    /** The trailer section is larger than the configured maximum. */
    TRAILER_SECTION_TOO_LARGE("RFC 9112 7.1.2", 431, "Trailer fields too large"),
    /** More trailer fields than the configured maximum. */
    TOO_MANY_TRAILERS("RFC 9112 7.1.2", 431, "Too many trailer fields");

    private final String section;
    private final int status;
    private final String reason;

    ProtocolRule(String section, int status, String reason) {
        this.section = section;
        this.status = status;
        this.reason = reason;
    }

    /** The specification section that states the rule, such as {@code "RFC 9112 6.1"}. */
    public String section() {
        return section;
    }

    /** The response status a violation answers. */
    public int status() {
        return status;
    }

    /** A short fixed ASCII reason, safe to send to the client. */
    public String reason() {
        return reason;
    }
}
