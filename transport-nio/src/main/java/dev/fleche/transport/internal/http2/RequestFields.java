package dev.fleche.transport.internal.http2;

import dev.fleche.transport.HttpFields;
import dev.fleche.transport.internal.http2.hpack.HpackDecoder;

/**
 * Collects the fields of one request header block (or trailer block) as HPACK decodes them, and checks them as RFC
 * 9113 8.2 and 8.3 say: lowercase names, no connection-specific fields, {@code te} only {@code trailers},
 * pseudo-header fields known, not repeated and before every regular field, the request's required ones present,
 * one {@code content-length}. A violation makes the request malformed: a stream error {@code PROTOCOL_ERROR}
 * ({@link #check}). The first violation is kept and decoding goes on, so the HPACK table stays in sync. One per
 * header block.
 */
public final class RequestFields implements HpackDecoder.FieldSink {
    private final boolean trailers;
    private final HttpFields fields = new HttpFields();
    private String method;
    private String scheme;
    private String authority;
    private String path;
    private String protocol;
    private long contentLength = -1;
    private boolean regularSeen;
    private String malformed;

    /** @param trailers whether this is a trailer block (no pseudo-header fields at all) */
    public RequestFields(boolean trailers) {
        this.trailers = trailers;
    }

    @Override
    public void field(String name, String value) {
        if (malformed != null) {
            return;
        }
        if (name.isEmpty()) {
            malformed = "empty field name";
        } else if (name.charAt(0) == ':') {
            pseudo(name, value);
        } else {
            regular(name, value);
        }
    }

    private void pseudo(String name, String value) {
        if (trailers) {
            malformed = "pseudo-header field " + name + " in trailers (RFC 9113 8.1)";
            return;
        }
        if (regularSeen) {
            malformed = "pseudo-header field " + name + " after a regular field (RFC 9113 8.3)";
            return;
        }
        switch (name) {
            case ":method" -> method = once(name, method, value);
            case ":scheme" -> scheme = once(name, scheme, value);
            case ":authority" -> authority = once(name, authority, value);
            case ":path" -> path = once(name, path, value);
            case ":protocol" -> protocol = once(name, protocol, value);
            default -> malformed = "unknown or response pseudo-header field " + name + " (RFC 9113 8.3)";
        }
    }

    private String once(String name, String previous, String value) {
        if (previous != null) {
            malformed = "pseudo-header field " + name + " repeated (RFC 9113 8.3)";
        }
        return value;
    }

    private void regular(String name, String value) {
        regularSeen = true;
        for (int i = 0; i < name.length(); i++) {
            char c = name.charAt(i);
            if (c >= 'A' && c <= 'Z' || c <= ' ' || c >= 0x7F || c == ':') {
                malformed = "field name " + name + " not lowercase token characters (RFC 9113 8.2.1)";
                return;
            }
        }
        if (!validValue(value)) {
            malformed = "field " + name + " has a value with CR, LF, NUL or edge whitespace (RFC 9113 8.2.1)";
            return;
        }
        switch (name) {
            case "connection", "keep-alive", "proxy-connection", "transfer-encoding", "upgrade" -> {
                malformed = "connection-specific field " + name + " (RFC 9113 8.2.2)";
                return;
            }
            case "te" -> {
                if (!value.equals("trailers")) {
                    malformed = "te other than trailers (RFC 9113 8.2.2)";
                    return;
                }
            }
            case "content-length" -> {
                if (!contentLength(value)) {
                    return;
                }
            }
            default -> { }
        }
        fields.add(name, value);
    }

    private static boolean validValue(String value) {
        int n = value.length();
        if (n > 0 && (value.charAt(0) == ' ' || value.charAt(0) == '\t' || value.charAt(n - 1) == ' '
                || value.charAt(n - 1) == '\t')) {
            return false;
        }
        for (int i = 0; i < n; i++) {
            char c = value.charAt(i);
            if (c == '\r' || c == '\n' || c == 0) {
                return false;
            }
        }
        return true;
    }

    private boolean contentLength(String value) {
        long parsed = 0;
        if (value.isEmpty() || value.length() > 18) {
            malformed = "content-length not a number: " + value;
            return false;
        }
        for (int i = 0; i < value.length(); i++) {
            char c = value.charAt(i);
            if (c < '0' || c > '9') {
                malformed = "content-length not a number: " + value;
                return false;
            }
            parsed = parsed * 10 + (c - '0');
        }
        if (contentLength >= 0 && contentLength != parsed) {
            malformed = "two different content-length values";
            return false;
        }
        contentLength = parsed;
        return true;
    }

    /** Throws the stream error for the first violation found, or for a required pseudo-header field missing. */
    public void check(int stream) throws Http2Exception {
        if (malformed == null && !trailers) {
            if (method == null) {
                malformed = ":method missing (RFC 9113 8.3.1)";
            } else if (protocol != null) {
                malformed = ":protocol without SETTINGS_ENABLE_CONNECT_PROTOCOL (RFC 8441)";
            } else if (method.equals("CONNECT")) {
                if (authority == null || scheme != null || path != null) {
                    malformed = "CONNECT needs :authority and no :scheme or :path (RFC 9113 8.5)";
                }
            } else if (scheme == null || path == null || path.isEmpty()) {
                malformed = ":scheme or :path missing or empty (RFC 9113 8.3.1)";
            }
        }
        if (malformed != null) {
            throw Http2Exception.stream(stream, Http2Error.PROTOCOL_ERROR, "malformed request: " + malformed);
        }
    }

    public String method() { return method; }
    public String scheme() { return scheme; }
    /** {@code :authority}, else the {@code host} field, else null. */
    public String authority() {
        return authority != null ? authority : fields.get("host");
    }
    /** {@code :path}; for CONNECT, the authority. */
    public String path() {
        return path != null ? path : authority;
    }
    public HttpFields fields() { return fields; }
    /** The {@code content-length}, or -1. */
    public long contentLength() { return contentLength; }
}
