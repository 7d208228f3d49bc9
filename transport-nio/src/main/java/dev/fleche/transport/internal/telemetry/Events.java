package dev.fleche.transport.internal.telemetry;

import java.lang.System.Logger;
import java.lang.System.Logger.Level;

/**
 * Structured transport events through {@link System.Logger} {@code dev.fleche.transport}, at {@code DEBUG}
 * (connection life) and {@code WARNING} (handler failures). Each message reads {@code event=NAME conn=ID ...}
 * with stable names: {@code open}, {@code close}, {@code request}, {@code reject}, {@code timeout},
 * {@code tls-handshake}, {@code tls-error},
 * {@code disconnect}, {@code half-close}, {@code handler-error}. Zero cost when off: callers test {@link #on()} first, which is
 * decided once when the server starts.
 */
public final class Events {
    static final Logger LOG = System.getLogger("dev.fleche.transport");
    private final boolean debug;

    public Events() {
        debug = LOG.isLoggable(Level.DEBUG);
    }

    public boolean on() {
        return debug;
    }

    public void emit(String event, long conn, String detail) {
        LOG.log(Level.DEBUG, "event=" + event + " conn=" + conn + (detail == null ? "" : " " + detail));
    }

    public static void warn(String event, long conn, Throwable error) {
        LOG.log(Level.WARNING, "event=" + event + " conn=" + conn, error);
    }
}
