package dev.fleche.transport.http1;

/**
 * A request the server refuses: the response status, a reason that is safe to send back, and whether the
 * connection must close because the request's framing can no longer be trusted.
 *
 * <p>Thrown on hostile input, so it carries no stack trace; its message is the reason. The reason is always fixed
 * ASCII text, never a piece of the request. Every exception raised by the parsers in this package names the
 * {@link ProtocolRule} it enforces and closes the connection.
 */
public final class RequestException extends Exception {

    private static final long serialVersionUID = 1L;

    private final int status;
    private final String reason;
    private final boolean closeConnection;
    private final ProtocolRule rule;

    /** A violation of {@code rule}: its status and reason, and the connection closes. */
    public RequestException(ProtocolRule rule) {
        this(rule, rule.status(), rule.reason(), true);
    }

    /**
     * A refusal that no {@link ProtocolRule} names (a body too large, for instance).
     *
     * @param status a 4xx or 5xx status
     * @param reason fixed printable ASCII text, never taken from the request
     * @param closeConnection whether the connection must close after the response
     */
    public RequestException(int status, String reason, boolean closeConnection) {
        this(null, checkStatus(status), checkReason(reason), closeConnection);
    }

    private RequestException(ProtocolRule rule, int status, String reason, boolean closeConnection) {
        super(reason, null, false, false);
        this.rule = rule;
        this.status = status;
        this.reason = reason;
        this.closeConnection = closeConnection;
    }

    /** The response status. */
    public int status() {
        return status;
    }

    /** The reason, safe to echo in a response. */
    public String reason() {
        return reason;
    }

    /** Whether the connection must close after the error response. */
    public boolean closeConnection() {
        return closeConnection;
    }

    /** The rule that was violated, or {@code null} for a refusal built from a status and reason. */
    public ProtocolRule rule() {
        return rule;
    }

    private static int checkStatus(int status) {
        if (status < 400 || status > 599) {
            throw new IllegalArgumentException("status must be 4xx or 5xx: " + status);
        }
        return status;
    }

    private static String checkReason(String reason) {
        if (reason.isEmpty()) {
            throw new IllegalArgumentException("empty reason");
        }
        for (int i = 0; i < reason.length(); i++) {
            char c = reason.charAt(i);
            if (c < 0x20 || c > 0x7E) {
                throw new IllegalArgumentException("reason must be printable ASCII");
            }
        }
        return reason;
    }
}
