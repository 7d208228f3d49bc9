package dev.fleche.transport;

import java.time.Duration;
import java.util.Objects;

/**
 * A minimum data rate a client must keep while it owes the server bytes (a request body being read) or while the
 * server waits for it to take bytes (a response blocked on a full socket): at least {@code bytesPerSecond}, measured
 * over successive windows of {@code gracePeriod}, the first of which starts when the waiting starts. Time spent
 * waiting for the application (a suspended request, a stream with nothing to send, a handler not reading its body)
 * never counts. See {@link ServerOptions} ({@code minRequestBodyRate}, {@code minResponseRate}).
 *
 * @param bytesPerSecond the least average rate over a window, at least 1
 * @param gracePeriod    the length of each window, positive
 */
public record MinDataRate(long bytesPerSecond, Duration gracePeriod) {

    /** Kestrel's default, and Fleche's: 240 bytes/s, measured over 5-second windows. */
    public static final MinDataRate DEFAULT = new MinDataRate(240, Duration.ofSeconds(5));

    public MinDataRate {
        Objects.requireNonNull(gracePeriod, "gracePeriod");
        if (bytesPerSecond < 1) {
            throw new IllegalArgumentException("bytesPerSecond must be >= 1, was " + bytesPerSecond);
        }
        if (gracePeriod.isNegative() || gracePeriod.isZero()) {
            throw new IllegalArgumentException("gracePeriod must be positive, was " + gracePeriod);
        }
    }

    /** The bytes a window of {@link #gracePeriod} must see. */
    public long bytesPerWindow() {
        return Math.max(1, (long) (bytesPerSecond * (gracePeriod.toNanos() / 1e9)));
    }
}
