package dev.fleche.transport;

import java.nio.charset.StandardCharsets;
import java.util.Objects;

/**
 * Renders the body of the error responses the transport sends by itself (400, 408, 413, 414, 417, 431, 500,
 * 501, 503, 505: requests that never reach the handler, or a handler that threw). The status line, framing and
 * {@code Connection: close} are the transport's; the renderer only picks the content type and bytes. It runs on
 * a reactor thread: it must be fast and must not block. The default, {@link #PLAIN_TEXT}, answers the reason as
 * one line of {@code text/plain}.
 */
@FunctionalInterface
public interface ErrorRenderer {

    /** The reason as {@code text/plain; charset=utf-8}, followed by a newline. */
    ErrorRenderer PLAIN_TEXT = (status, reason) ->
            new Body("text/plain; charset=utf-8", (reason + "\n").getBytes(StandardCharsets.UTF_8));

    /**
     * An RFC 9457 problem document, {@code application/problem+json}:
     * {@code {"type":"about:blank","title":"Content Too Large","status":413,"detail":"request body larger than ..."}}.
     * The Jersey container answers the transport's refusals with it unless the application chose a renderer.
     */
    ErrorRenderer PROBLEM_JSON = (status, reason) -> new Body("application/problem+json",
            ("{\"type\":\"about:blank\",\"title\":\"" + title(status) + "\",\"status\":" + status
                    + ",\"detail\":\"" + jsonEscaped(reason) + "\"}").getBytes(StandardCharsets.UTF_8));

    /** The standard reason phrase of a status the transport answers by itself (RFC 9110 15). */
    private static String title(int status) {
        return switch (status) {
            case 400 -> "Bad Request";
            case 404 -> "Not Found";
            case 405 -> "Method Not Allowed";
            case 408 -> "Request Timeout";
            case 413 -> "Content Too Large";
            case 414 -> "URI Too Long";
            case 416 -> "Range Not Satisfiable";
            case 417 -> "Expectation Failed";
            case 431 -> "Request Header Fields Too Large";
            case 500 -> "Internal Server Error";
            case 501 -> "Not Implemented";
            case 503 -> "Service Unavailable";
            case 505 -> "HTTP Version Not Supported";
            default -> status < 500 ? "Client Error" : "Server Error";
        };
    }

    /** {@code text} as the inside of a JSON string: quotes, backslashes and control characters escaped. */
    private static String jsonEscaped(String text) {
        StringBuilder out = new StringBuilder(text.length() + 8);
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            if (c == '"' || c == '\\') {
                out.append('\\').append(c);
            } else if (c < 0x20) {
                out.append(String.format("\\u%04x", (int) c));
            } else {
                out.append(c);
            }
        }
        return out.toString();
    }

    /**
     * The body for an error answered with {@code status}; {@code reason} is a short ASCII text that is safe to
     * echo (it never contains request bytes).
     */
    Body render(int status, String reason);

    /** A rendered error body and its media type. */
    record Body(String contentType, byte[] bytes) {
        public Body {
            Objects.requireNonNull(contentType, "contentType");
            Objects.requireNonNull(bytes, "bytes");
        }
    }
}
