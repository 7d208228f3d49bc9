package dev.fleche.transport.internal.http2;

import dev.fleche.transport.internal.http2.Frames;

/**
 * The client's settings that the server acts on (RFC 9113 6.5.2), taken a SETTINGS frame at a time: each entry is only
 * recorded, the last value of a parameter in the frame winning, and the frame is applied once, at its end — so a
 * frame of 2,730 entries costs what a frame of one does, and a change of {@code SETTINGS_INITIAL_WINDOW_SIZE}
 * reaches the open streams once per frame, not once per entry. {@link #end} hands the encoder's settings to the
 * {@link Http2Framer} and returns the change of the initial window, which the owner applies to its streams (RFC
 * 9113 6.9.2). The values are checked before they get here ({@code FrameReader.checkSetting}). Reactor thread only.
 */
final class PeerSettings {
    private static final long UNSET = -1;

    /** The client's current {@code SETTINGS_INITIAL_WINDOW_SIZE}: the send window a new stream starts with. */
    private long initialWindow = Frames.DEFAULT_WINDOW;
    // this frame's last values, UNSET when it has none
    private long frameWindow = UNSET;
    private long frameMaxFrame = UNSET;
    private long frameTableSize = UNSET;

    /** One entry of the frame being read. */
    void entry(int identifier, long value) {
        switch (identifier) {
            case Frames.SETTINGS_INITIAL_WINDOW_SIZE -> frameWindow = value;
            case Frames.SETTINGS_MAX_FRAME_SIZE -> frameMaxFrame = value;
            case Frames.SETTINGS_HEADER_TABLE_SIZE -> frameTableSize = value;
            default -> { } // ENABLE_PUSH (we never push), MAX_CONCURRENT_STREAMS (we open none), unknown ones
        }
    }

    /**
     * The frame ended: its values become the client's settings, those of the encoder go to {@code framer}; returns
     * how much every open stream's send window changes (0: none).
     */
    long end(Http2Framer framer) {
        if (frameMaxFrame != UNSET) {
            framer.peerMaxFrame((int) frameMaxFrame);
        }
        if (frameTableSize != UNSET) {
            framer.peerTableSize((int) Math.min(frameTableSize, 1 << 16));
        }
        long delta = frameWindow == UNSET ? 0 : frameWindow - initialWindow;
        if (frameWindow != UNSET) {
            initialWindow = frameWindow;
        }
        frameWindow = UNSET;
        frameMaxFrame = UNSET;
        frameTableSize = UNSET;
        return delta;
    }

    /** The send window a new stream starts with. */
    long initialWindow() {
        return initialWindow;
    }
}
