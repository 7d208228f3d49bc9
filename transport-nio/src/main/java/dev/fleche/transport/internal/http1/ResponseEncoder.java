package dev.fleche.transport.internal.http1;

import dev.fleche.transport.internal.exchange.Ascii;
import dev.fleche.transport.internal.loop.ByteSink;
import dev.fleche.transport.internal.exchange.HttpDate;
import dev.fleche.transport.internal.exchange.Responses;
import dev.fleche.transport.ErrorRenderer;
import dev.fleche.transport.HttpFields;

import java.nio.charset.StandardCharsets;

/**
 * Encodes response heads: status line, the handler's fields (validated against response splitting), and the
 * transport's framing fields; and the transport's own refusals ({@link #encodeRefusal}), so that every response
 * Fleche writes by itself carries {@code Date} and goes through the {@link ErrorRenderer}. Holds the one table of
 * standard reason phrases. One per reactor (and one for the acceptor): it caches the {@code Date} value per second.
 */
public final class ResponseEncoder {
    static final byte[] CRLF = {'\r', '\n'};
    static final byte[] CONTINUE = "HTTP/1.1 100 Continue\r\n\r\n".getBytes(StandardCharsets.US_ASCII);
    private static final byte[][] STATUS_LINES = new byte[600][];
    /** The standard phrase of each status below 600, so that a handler passing it gets the cached line. */
    private static final String[] PHRASES = new String[600];

    private final HttpDate date;

    /** An encoder with its own {@code Date} cache (the acceptor's, a test's). */
    public ResponseEncoder() {
        this(new HttpDate());
    }

    /** An encoder that takes the {@code Date} from {@code date} (its reactor's, which HTTP/2 shares). */
    public ResponseEncoder(HttpDate date) {
        this.date = date;
    }

    static {
        for (int status = 100; status < 600; status++) {
            String reason = reasonPhrase(status);
            PHRASES[status] = reason;
            STATUS_LINES[status] = ("HTTP/1.1 " + status + " " + reason + "\r\n").getBytes(StandardCharsets.US_ASCII);
        }
    }

    /** {@link #encodeHead(ByteSink, int, String, HttpFields, long, boolean, boolean, boolean, boolean)} with the standard phrase. */
    void encodeHead(ByteSink out, int status, HttpFields fields, long contentLength, boolean chunked,
                    boolean close, boolean keepAliveOn10, boolean isHead) {
        encodeHead(out, status, null, fields, contentLength, chunked, close, keepAliveOn10, isHead);
    }

    /**
     * Writes the head into {@code out}: the status line (with {@code reason} when it is a valid reason-phrase, else
     * the standard phrase), the handler's fields, {@code Date} unless given, and the framing fields.
     *
     * @throws IllegalArgumentException for a status outside 100..999 or a field that could split the response
     */
    void encodeHead(ByteSink out, int status, String reason, HttpFields fields, long contentLength, boolean chunked,
                    boolean close, boolean keepAliveOn10, boolean isHead) {
        putStatusLine(out, status, reason);
        boolean hasDate = false;
        boolean keepLength = isHead;
        for (int i = 0, n = fields.size(); i < n; i++) {
            String name = fields.name(i);
            if (isFramingField(name, keepLength)) {
                continue;
            }
            if (!hasDate && name.length() == 4 && name.equalsIgnoreCase("Date")) {
                hasDate = true;
            }
            putName(out, name);
            out.put((byte) ':');
            out.put((byte) ' ');
            putValue(out, fields.value(i));
            out.put(CRLF);
        }
        if (!hasDate) {
            out.put(date.field());
        }
        if (Responses.bodyAllowed(status)) {
            if (chunked) {
                out.putAscii("Transfer-Encoding: chunked\r\n");
            } else if (contentLength >= 0 && !(isHead && fields.contains("Content-Length"))) {
                out.putAscii("Content-Length: ");
                out.putDecimal(contentLength);
                out.put(CRLF);
            }
        }
        if (close) {
            out.putAscii("Connection: close\r\n");
        } else if (keepAliveOn10) {
            out.putAscii("Connection: keep-alive\r\n");
        }
        out.put(CRLF);
    }

    /**
     * Writes a refusal of the transport's own: the renderer's body, {@code Connection: close}, and {@code extra}
     * fields (such as {@code Retry-After}) or null. The refusal of a {@code HEAD} request ({@code head}) has the
     * body's {@code Content-Length} and no body (RFC 9110 9.3.2, RFC 9112 6.3).
     */
    public void encodeRefusal(ByteSink out, int status, String reason, ErrorRenderer renderer, HttpFields extra,
                       boolean head) {
        ErrorRenderer.Body body = Responses.renderError(renderer, status, reason);
        HttpFields fields = new HttpFields(extra == null ? 1 : 1 + extra.size()).add("Content-Type", body.contentType());
        if (extra != null) {
            for (int i = 0; i < extra.size(); i++) {
                fields.add(extra.name(i), extra.value(i));
            }
        }
        encodeHead(out, status, null, fields, body.bytes().length, false, true, false, head);
        if (!head) {
            out.put(body.bytes());
        }
    }

    private static void putStatusLine(ByteSink out, int status, String reason) {
        Responses.checkStatus(status);
        if (reason == null || reason.isEmpty() || (status < PHRASES.length && reason.equals(PHRASES[status]))
                || !isReasonPhrase(reason)) {
            if (status < STATUS_LINES.length) {
                out.put(STATUS_LINES[status]);
                return;
            }
            reason = "";
        }
        out.putAscii("HTTP/1.1 ");
        out.putDecimal(status);
        out.put((byte) ' ');
        for (int i = 0, n = reason.length(); i < n; i++) {
            out.put((byte) reason.charAt(i));
        }
        out.put(CRLF);
    }

    /** RFC 9112 4: {@code reason-phrase = 1*( HTAB / SP / VCHAR / obs-text )}, chars 0x09, 0x20-0x7E, 0x80-0xFF. */
    static boolean isReasonPhrase(String reason) {
        for (int i = 0, n = reason.length(); i < n; i++) {
            char c = reason.charAt(i);
            if (c != '\t' && (c < 0x20 || c == 0x7F || c > 0xFF)) {
                return false;
            }
        }
        return true;
    }

    private static boolean isFramingField(String name, boolean keepLength) {
        switch (name.length()) {
            case 10:
                return name.equalsIgnoreCase("Connection");
            case 14:
                return !keepLength && name.equalsIgnoreCase("Content-Length");
            case 17:
                return name.equalsIgnoreCase("Transfer-Encoding");
            default:
                return false;
        }
    }

    private static void putName(ByteSink out, String name) {
        if (name.isEmpty()) {
            throw new IllegalArgumentException("empty response header name");
        }
        for (int i = 0, n = name.length(); i < n; i++) {
            char c = name.charAt(i);
            if (c > 127 || !Ascii.isTokenChar(c)) {
                throw new IllegalArgumentException("invalid character in response header name: " + name);
            }
            out.put((byte) c);
        }
    }

    private static void putValue(ByteSink out, String value) {
        for (int i = 0, n = value.length(); i < n; i++) {
            char c = value.charAt(i);
            if (c == '\r' || c == '\n' || c == 0 || c > 0xFF) {
                throw new IllegalArgumentException("invalid character in response header value (code " + (int) c + ")");
            }
            out.put((byte) c);
        }
    }

    /** The standard reason phrase of {@code status} (RFC 9110 15, RFC 7725 for 451), or an empty string. */
    static String reasonPhrase(int status) {
        switch (status) {
            case 100: return "Continue";
            case 101: return "Switching Protocols";
            case 200: return "OK";
            case 201: return "Created";
            case 202: return "Accepted";
            case 203: return "Non-Authoritative Information";
            case 204: return "No Content";
            case 205: return "Reset Content";
            case 206: return "Partial Content";
            case 300: return "Multiple Choices";
            case 301: return "Moved Permanently";
            case 302: return "Found";
            case 303: return "See Other";
            case 304: return "Not Modified";
            case 307: return "Temporary Redirect";
            case 308: return "Permanent Redirect";
            case 400: return "Bad Request";
            case 401: return "Unauthorized";
            case 402: return "Payment Required";
            case 403: return "Forbidden";
            case 404: return "Not Found";
            case 405: return "Method Not Allowed";
            case 406: return "Not Acceptable";
            case 407: return "Proxy Authentication Required";
            case 408: return "Request Timeout";
            case 409: return "Conflict";
            case 410: return "Gone";
            case 411: return "Length Required";
            case 412: return "Precondition Failed";
            case 413: return "Content Too Large";
            case 414: return "URI Too Long";
            case 415: return "Unsupported Media Type";
            case 416: return "Range Not Satisfiable";
            case 417: return "Expectation Failed";
            case 421: return "Misdirected Request";
            case 422: return "Unprocessable Content";
            case 426: return "Upgrade Required";
            case 428: return "Precondition Required";
            case 429: return "Too Many Requests";
            case 431: return "Request Header Fields Too Large";
            case 451: return "Unavailable For Legal Reasons";
            case 500: return "Internal Server Error";
            case 501: return "Not Implemented";
            case 502: return "Bad Gateway";
            case 503: return "Service Unavailable";
            case 504: return "Gateway Timeout";
            case 505: return "HTTP Version Not Supported";
            default: return "";
        }
    }
}
