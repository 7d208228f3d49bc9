package dev.fleche.transport.internal.http2;

import dev.fleche.transport.internal.rules.Refusal;
import dev.fleche.transport.ServerOptions;
import dev.fleche.transport.internal.http2.Http2Exception;

/**
 * The budgets of one HTTP/2 connection that a client who does not play fair runs into, each named by the
 * {@link Refusal} it trips under (README, "HTTP/2 budgets"):
 * <ul>
 *   <li>streams reset either way — by the client, or by the server for the client's doing (a stream refused,
 *       malformed, too large or too slow, a request refused before it became a stream) — at most
 *       {@code http2MaxResets} in {@link ServerOptions#HTTP2_FLOOD_WINDOW} ({@link Refusal#HTTP2_RESETS});</li>
 *   <li>control frames (SETTINGS, PING, PRIORITY, unknown and empty frames), at most {@code http2MaxControlFrames}
 *       in the same window ({@link Refusal#HTTP2_CONTROL_FRAMES});</li>
 *   <li>output queued for the client (produced, not yet taken by the socket): at
 *       {@code http2MaxQueuedOutputBytes} the connection stops reading frames and frames DATA only into the room
 *       left ({@link #outputRoom}), and goes on once the client has taken it down to half ({@link #outputFull},
 *       {@link #outputDrained}); a client that takes
 *       nothing is closed by the write-stall timeout ({@link Refusal#HTTP2_OUTPUT_NOT_TAKEN}).</li>
 * </ul>
 * A count beyond its budget throws {@link Http2Exception#calm} with its rule, which the owner answers with
 * {@code GOAWAY ENHANCE_YOUR_CALM}. It holds its counts and the window they are counted in, and decides nothing
 * else; it never names the connection. Reactor thread only.
 *
 * <pre>
 *   counts: 0 ─ a reset, a control frame ─▶ n ─ beyond the budget ─▶ ENHANCE_YOUR_CALM
 *           └──────── 10 s after the window began: a new window, counts back to 0 ◀──┘
 *   output: below ─ queued ≥ budget ─▶ full (reading stops) ─ queued ≤ budget / 2 ─▶ below
 * </pre>
 */
final class Http2Budgets {
    private final int maxResets;
    private final int maxControlFrames;
    private final long maxQueuedOutput;
    private final long windowNanos;
    private long windowStart;
    private int resets;
    private int controlFrames;

    Http2Budgets(ServerOptions options, long now) {
        this.maxResets = options.http2MaxResets();
        this.maxControlFrames = options.http2MaxControlFrames();
        this.maxQueuedOutput = options.http2MaxQueuedOutputBytes();
        this.windowNanos = ServerOptions.HTTP2_FLOOD_WINDOW.toNanos();
        this.windowStart = now;
    }

    /**
     * Whether a RST_STREAM we send with {@code error} counts in the reset budget ({@link #reset}): every code but
     * {@code NO_ERROR} (a stream whose response is complete: stop sending its body), {@code INTERNAL_ERROR} (our fault)
     * and the {@code REFUSED_STREAM} of a graceful stop ({@code stopping}: our doing too) answers the client's doing,
     * so it counts in the same budget as the resets the client sends ("MadeYouReset", 2025).
     */
    static boolean countsSent(Http2Error error, boolean stopping) {
        return error != Http2Error.NO_ERROR && error != Http2Error.INTERNAL_ERROR
                && !(error == Http2Error.REFUSED_STREAM && stopping);
    }

    /** A stream was reset at {@code now}, by the client or by us for its doing ({@code what} says how). */
    void reset(long now, String what) throws Http2Exception {
        roll(now);
        if (++resets > maxResets) {
            throw Http2Exception.calm(Refusal.HTTP2_RESETS.name(), "more than " + maxResets + " streams reset or"
                    + " refused in " + ServerOptions.HTTP2_FLOOD_WINDOW.toSeconds() + " s (last: " + what + ")");
        }
    }

    /** A control frame ({@code what}) arrived at {@code now}. */
    void controlFrame(long now, String what) throws Http2Exception {
        roll(now);
        if (++controlFrames > maxControlFrames) {
            throw Http2Exception.calm(Refusal.HTTP2_CONTROL_FRAMES.name(), "more than " + maxControlFrames
                    + " control frames in " + ServerOptions.HTTP2_FLOOD_WINDOW.toSeconds() + " s (last: " + what + ")");
        }
    }

    private void roll(long now) {
        if (now - windowStart >= windowNanos) {
            windowStart = now;
            resets = 0;
            controlFrames = 0;
        }
    }

    /** Whether {@code queued} bytes of output reach the budget: reading stops, DATA waits. */
    boolean outputFull(long queued) {
        return queued >= maxQueuedOutput;
    }

    /** What the output budget leaves for more DATA when {@code queued} bytes wait (0 or less: none). */
    long outputRoom(long queued) {
        return maxQueuedOutput - queued;
    }

    /** Whether the client has taken the output down to {@code queued}, half the budget or less: reading goes on. */
    boolean outputDrained(long queued) {
        return queued <= maxQueuedOutput / 2;
    }
}
