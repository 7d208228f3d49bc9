package dev.fleche.transport.internal.exchange;

import dev.fleche.transport.ErrorRenderer;
import dev.fleche.transport.internal.telemetry.Events;

/**
 * What every response is held to, whichever protocol frames it: a three-digit status, no body for {@code 1xx},
 * {@code 204} and {@code 304}, and the body of the transport's own error answers from the server's
 * {@link ErrorRenderer}. Stateless.
 */
public final class Responses {
    private Responses() {
    }

    /** Throws unless {@code status} has three digits (RFC 9110 15: 100..999; a client treats an unknown one by its class). */
    public static int checkStatus(int status) {
        if (status < 100 || status > 999) {
            throw new IllegalArgumentException("status must be 100..999, was " + status);
        }
        return status;
    }

    /** Whether a response with {@code status} may carry a body (and framing fields). */
    public static boolean bodyAllowed(int status) {
        return status >= 200 && status != 204 && status != 304;
    }

    /** The configured renderer's body, or plain text when it fails (an error page must never fail). */
    public static ErrorRenderer.Body renderError(ErrorRenderer renderer, int status, String reason) {
        try {
            return renderer.render(status, reason);
        } catch (RuntimeException e) {
            Events.warn("error-renderer-failed", -1, e);
            return ErrorRenderer.PLAIN_TEXT.render(status, reason);
        }
    }
}
