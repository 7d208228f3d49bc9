package dev.fleche.transport.internal;

import dev.fleche.transport.HttpFields;

import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.Locale;

/**
 * Encodes response heads: status line, the handler's fields (validated against response splitting), and the
 * transport's framing fields. One per reactor: it caches the {@code Date} value per second.
 */
final class ResponseEncoder {
    static final byte[] CRLF = {'\r', '\n'};
    static final byte[] CONTINUE = "HTTP/1.1 100 Continue\r\n\r\n".getBytes(StandardCharsets.US_ASCII);
    private static final byte[][] STATUS_LINES = new byte[600][];
    /** RFC 9110 5.6.7; not {@code RFC_1123_DATE_TIME}, which writes days 1-9 with one digit. */
    private static final DateTimeFormatter IMF_FIXDATE =
            DateTimeFormatter.ofPattern("EEE, dd MMM yyyy HH:mm:ss 'GMT'", Locale.US);

    private long dateSecond = Long.MIN_VALUE;
    private byte[] dateField;

    static {
        for (int status = 100; status < 600; status++) {
            String reason = reasonPhrase(status);
            STATUS_LINES[status] = ("HTTP/1.1 " + status + " " + reason + "\r\n").getBytes(StandardCharsets.US_ASCII);
        }
    }

    /** Writes the head into {@code out}. {@code framing} is the framing field line(s), ready-encoded, or null. */
    void encodeHead(ByteSink out, int status, HttpFields fields, long contentLength, boolean chunked,
                    boolean close, boolean keepAliveOn10, boolean isHead) {
        if (status < 100 || status > 599) {
            throw new IllegalArgumentException("status must be 100..599, was " + status);
        }
        out.put(STATUS_LINES[status]);
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
            out.put(date());
        }
        if (bodyAllowed(status)) {
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

    /** Whether a response with {@code status} may carry a body (and framing fields). */
    static boolean bodyAllowed(int status) {
        return status >= 200 && status != 204 && status != 304;
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

    /** The {@code Date} field line for the current second, recomputed at most once a second. */
    byte[] date() {
        long now = System.currentTimeMillis() / 1000;
        if (now != dateSecond) {
            String text = IMF_FIXDATE.format(Instant.ofEpochSecond(now).atOffset(ZoneOffset.UTC));
            dateField = ("Date: " + text + "\r\n").getBytes(StandardCharsets.US_ASCII);
            dateSecond = now;
        }
        return dateField;
    }

    /** The standard reason phrase of {@code status}, or an empty string. */
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
