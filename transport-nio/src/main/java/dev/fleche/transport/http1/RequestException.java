package dev.fleche.transport.http1;

/**
 * A request the server refuses, naming the {@link ProtocolRule} it breaks: the response status and a reason that is
 * safe to send back. The connection always closes after the answer: the request's framing can no longer be trusted.
 *
 * <p>Thrown on hostile input, so it carries no stack trace; its message is the reason. The reason is always fixed
 * ASCII text, never a piece of the request.
 */
public final class RequestException extends Exception {

    private static final long serialVersionUID = 1L;

    private final ProtocolRule rule;

    /** A violation of {@code rule}: its status and reason, and the connection closes. */
    public RequestException(ProtocolRule rule) {
        super(rule.reason(), null, false, false);
        this.rule = rule;
    }

    /** The response status. */
    public int status() {
        return rule.status();
    }

    /** The reason, safe to echo in a response. */
    public String reason() {
        return rule.reason();
    }

    /** Whether the connection closes after the answer: always, the request's framing can no longer be trusted. */
    public boolean closeConnection() {
        return true;
    }

    /** The rule that was violated. */
    public ProtocolRule rule() {
        return rule;
    }
}
