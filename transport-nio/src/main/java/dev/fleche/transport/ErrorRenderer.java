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
