package dev.fleche.transport.internal.rules;

import dev.fleche.transport.MinDataRate;

/**
 * One direction's minimum data rate on a connection ({@link MinDataRate}): while it runs, the bytes moved in the
 * current window, which must reach the rate's share of the window by its end; a window that did reach it starts
 * the next. It runs only while the client is the one holding things up — the connection starts it when it begins
 * to wait for the client (body bytes owed, response bytes blocked) and stops it when it stops. Holding no timer of
 * its own, it tells the connection when its window ends ({@link #due()}), and the connection's one timer checks it.
 * Reactor thread only.
 *
 * <pre>
 *   STOPPED ─start()─▶ RUNNING ─window end, enough bytes─▶ RUNNING (next window)
 *      ▲                  │ └───window end, too few bytes ─▶ (the connection times out)
 *      └──── stop() ──────┘
 * </pre>
 */
public final class RateWindow {
    /** Null when the rate is off: then it never runs. */
    private final MinDataRate rate;
    private boolean running;
    private long start;
    private long bytes;

    RateWindow(MinDataRate rate) {
        this.rate = rate;
    }

    /** A window for {@code rate}, or null when the rate is off. */
    public static RateWindow of(MinDataRate rate) {
        return rate == null ? null : new RateWindow(rate);
    }

    /** Counts {@code n} bytes in {@code window}, if there is one (its owner made none yet, or the rate is off). */
    public static void add(RateWindow window, long n) {
        if (window != null) {
            window.add(n);
        }
    }

    /** Stops {@code window}, if there is one. */
    public static void stop(RateWindow window) {
        if (window != null) {
            window.stop();
        }
    }

    /** Starts a window at {@code now} (again, if running). */
    public void start(long now) {
        if (rate != null) {
            running = true;
            start = now;
            bytes = 0;
        }
    }

    /** Starts a window unless one runs. */
    public void startIfStopped(long now) {
        if (!running) {
            start(now);
        }
    }

    public void stop() {
        running = false;
    }

    public boolean running() {
        return running;
    }

    /** Bytes moved; counted while running. */
    public void add(long n) {
        if (running) {
            bytes += n;
        }
    }

    /** When the current window ends (only while running). */
    public long due() {
        return start + rate.gracePeriod().toNanos();
    }

    /** At or after {@link #due()}: whether the window fell short; if not, the next window starts at {@code now}. */
    public boolean fellShort(long now) {
        if (bytes < rate.bytesPerWindow()) {
            return true;
        }
        start = now;
        bytes = 0;
        return false;
    }
}
