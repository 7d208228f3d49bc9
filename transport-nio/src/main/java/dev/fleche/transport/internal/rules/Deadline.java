package dev.fleche.transport.internal.rules;

import dev.fleche.transport.MinDataRate;
import dev.fleche.transport.ServerOptions;

/**
 * Every timer of a connection, named once with what it ends: the {@code phase} its {@code timeout} event and close
 * reason carry, the {@link Refusal} it answers when nothing else is being written (else the connection just
 * closes), and the setting (or constant) that sets it. The connection's {@code Deadlines} decides which one is due; the connection
 * acts on it. Each connection has one timer, on its reactor's wheel, at the earliest deadline that applies.
 */
public enum Deadline {
    /** TLS: the first handshake not done within {@code TlsOptions.handshakeTimeout}. */
    HANDSHAKE("handshake", null, true),
    /** A keep-alive connection with no request for {@code idleTimeout}. */
    IDLE("idle", null, true),
    /** A request head not complete within {@code headerTimeout} (slowloris): 408. */
    HEADER("header", Refusal.HEADER_TIMEOUT, true),
    /** No request body bytes for {@code bodyTimeout} while the body is expected: 408. */
    BODY("body", Refusal.BODY_TIMEOUT, true),
    /** A request body arriving slower than {@code minRequestBodyRate} over a window: 408. */
    BODY_RATE("request-rate", Refusal.BODY_TOO_SLOW, true),
    /** Response bytes waiting on a full socket with no progress for {@code writeStallTimeout}. */
    WRITE_STALL("write-stall", null, true),
    /** A blocked response taken slower than {@code minResponseRate} over a window. */
    RESPONSE_RATE("response-rate", null, true),
    /**
     * Graceful stop: an idle connection closes {@link #DRAIN_IDLE_NANOS} after it became idle or the stop
     * began, whichever is later, giving a request already on its way time to arrive. Not a timeout: the stop.
     */
    DRAIN_IDLE("drain-idle", null, false),
    /** Lingering close (RFC 9112 9.6): the client's input is dropped for {@link #LINGER_NANOS} at most. */
    LINGER("linger", null, false);

    /**
     * Graceful stop: how long a connection with no request in flight stays open for a request already on its way
     * (answered with {@code Connection: close}) before it closes. Closing at once would lose a request the client
     * sent just before it saw the close (RFC 9112 9.6); the stop's grace bounds it.
     */
    static final long DRAIN_IDLE_NANOS = 1_000_000_000L;
    /** Lingering close (RFC 9112 9.6): how long unread input is discarded after the last response. */
    static final long LINGER_NANOS = 2_000_000_000L;

    private final String phase;
    private final Refusal refusal;
    private final boolean timeout;

    Deadline(String phase, Refusal refusal, boolean timeout) {
        this.phase = phase;
        this.refusal = refusal;
        this.timeout = timeout;
    }

    /** The name in the {@code timeout phase=...} event and the close reason. */
    public String phase() {
        return phase;
    }

    /** What is answered when it fires with nothing else being written, or null: the connection just closes. */
    public Refusal refusal() {
        return refusal;
    }

    /** Whether it is the client's timeout (counted, with a {@code timeout} event), rather than the server's close. */
    public boolean isTimeout() {
        return timeout;
    }

    /** The reason the connection closes with when it fires. */
    public String closeReason() {
        return switch (this) {
            case DRAIN_IDLE -> "stop";
            default -> phase + "-timeout";
        };
    }

    /** Its length under {@code options}, in nanoseconds (a rate's: the length of one window; 0 when off). */
    public long nanos(ServerOptions options) {
        return switch (this) {
            case HANDSHAKE -> options.tls() == null ? 0 : options.tls().handshakeTimeout().toNanos();
            case IDLE -> options.idleTimeout().toNanos();
            case HEADER -> options.headerTimeout().toNanos();
            case BODY -> options.bodyTimeout().toNanos();
            case BODY_RATE -> window(options.minRequestBodyRate());
            case WRITE_STALL -> options.writeStallTimeout().toNanos();
            case RESPONSE_RATE -> window(options.minResponseRate());
            case DRAIN_IDLE -> DRAIN_IDLE_NANOS;
            case LINGER -> LINGER_NANOS;
        };
    }

    private static long window(MinDataRate rate) {
        return rate == null ? 0 : rate.gracePeriod().toNanos();
    }
}
