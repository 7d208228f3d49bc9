package dev.fleche.transport.http1;

import dev.fleche.transport.HttpFields;

/**
 * A request's line and header fields, with the facts the transport needs already derived: host, body framing,
 * persistence and {@code 100-continue}. Built by {@link RequestHeadParser} once the whole head has been checked,
 * and never changed after {@link RequestHeadParser#take()}.
 */
public final class RequestHead {

    private final RequestLine line;
    private final HttpFields headers;
    private final String host;
    private final long contentLength;
    private final boolean chunked;
    private final boolean keepAlive;
    private final boolean expectContinue;
    /** 1 for HTTP/1.x, 2 for a request that came as an HTTP/2 stream. */
    private final int majorVersion;

    RequestHead(RequestLine line, HttpFields headers, String host, long contentLength, boolean chunked,
            boolean keepAlive, boolean expectContinue) {
        this(line, headers, host, contentLength, chunked, keepAlive, expectContinue, 1);
    }

    private RequestHead(RequestLine line, HttpFields headers, String host, long contentLength, boolean chunked,
            boolean keepAlive, boolean expectContinue, int majorVersion) {
        this.majorVersion = majorVersion;
        this.line = line;
        this.headers = headers;
        this.host = host;
        this.contentLength = contentLength;
        this.chunked = chunked;
        this.keepAlive = keepAlive;
        this.expectContinue = expectContinue;
    }

    /**
     * The head of a request that came as an HTTP/2 stream (RFC 9113 8.3), its pseudo-header fields already checked
     * by the connection: {@code path} is checked here as HTTP/1.1 checks a request target (origin-form, or
     * {@code *} for OPTIONS; CONNECT gives its authority), and {@code authority} as it checks Host. A body of unknown length ({@code hasBody} without
     * {@code contentLength}) reads as {@link #chunked()}: the body's end is the stream's.
     */
    public static RequestHead http2(String method, String path, String authority, HttpFields headers,
            long contentLength, boolean hasBody, boolean expectContinue) throws RequestException {
        if (!"CONNECT".equals(method) && !path.startsWith("/") && !"*".equals(path)) {
            throw new RequestException(ProtocolRule.TARGET_INVALID);
        }
        if (authority != null && !Authority.isValid(authority, false, "CONNECT".equals(method))) {
            throw new RequestException(ProtocolRule.HOST_INVALID); // :authority (or host) as HTTP/1.1 checks Host
        }
        RequestLine line = RequestLine.withTarget(method, path, 1);
        boolean unknownLength = hasBody && contentLength < 0;
        return new RequestHead(line, headers, authority, hasBody ? contentLength : Math.max(contentLength, -1),
                unknownLength, true, expectContinue, 2);
    }

    /** 1 for HTTP/1.x, 2 for HTTP/2. */
    public int majorVersion() {
        return majorVersion;
    }

    /** The method; GET, HEAD, POST, PUT, DELETE, OPTIONS, PATCH, TRACE and CONNECT are shared constants. */
    public String method() {
        return line.method();
    }

    /** The request-target exactly as received. */
    public String target() {
        return line.target();
    }

    /**
     * The raw path, not decoded: the target up to {@code ?} for origin-form, the path part for absolute-form
     * ({@code "/"} when empty), {@code "*"} for asterisk-form, the authority for CONNECT's authority-form.
     */
    public String path() {
        return line.path();
    }

    /** The raw query without {@code ?}, or {@code null} when the target has none. */
    public String query() {
        return line.query();
    }

    /** 0 for HTTP/1.0, 1 for HTTP/1.1 (and for HTTP/1.x with x above 1). */
    public int minorVersion() {
        return line.minorVersion();
    }

    /** The header fields, in order, names as received. */
    public HttpFields headers() {
        return headers;
    }

    /**
     * The authority of an absolute-form target when there is one (RFC 9112 3.2.2), else the Host value (possibly
     * empty); {@code null} only for an HTTP/1.0 request without Host.
     */
    public String host() {
        return host;
    }

    /** The Content-Length, or -1 when the request has none. */
    public long contentLength() {
        return contentLength;
    }

    /** Whether the body uses the chunked transfer coding. */
    public boolean chunked() {
        return chunked;
    }

    /** Whether a body follows the head: chunked, or a Content-Length above zero. */
    public boolean hasBody() {
        return chunked || contentLength > 0;
    }

    /**
     * Whether the connection may stay open after this exchange: for HTTP/1.1 unless Connection has the token
     * {@code close}; for HTTP/1.0 only when Connection has the token {@code keep-alive} (and not {@code close}).
     */
    public boolean keepAlive() {
        return keepAlive;
    }

    /** Whether an HTTP/1.1 request asked for {@code Expect: 100-continue}. */
    public boolean expectContinue() {
        return expectContinue;
    }

    @Override
    public String toString() {
        return method() + ' ' + target() + " HTTP/1." + minorVersion();
    }
}
