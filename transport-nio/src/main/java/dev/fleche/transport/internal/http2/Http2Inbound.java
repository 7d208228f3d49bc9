package dev.fleche.transport.internal.http2;

import java.nio.ByteBuffer;

/**
 * The inbound part of an HTTP/2 connection: how much of the client connection preface it has matched, and the bytes
 * it has read but cannot use yet — a frame split across reads, or the rest of a read while the connection holds its
 * reading (its output at the budget). It decides nothing: the connection asks it and acts on what it returns. Never
 * names the connection; reactor thread only.
 *
 * <pre>
 *   PARTIAL ─ the 24 bytes of the preface ─▶ SEEN        PARTIAL ─ a byte that differs ─▶ WRONG
 * </pre>
 */
final class Http2Inbound {
    /** How the bytes read so far compare with the client preface. */
    enum Preface { SEEN, PARTIAL, WRONG }

    /** Preface bytes matched so far ({@code Frames.PREFACE.length} once seen). */
    private int prefaceMatched;
    /** Bytes kept for the next read, exactly as long as they are; or null. */
    private byte[] leftover;

    /** Matches the client preface at the start of {@code in}, consuming what it matched, unless it is seen already. */
    Preface preface(ByteBuffer in) {
        while (prefaceMatched < Frames.PREFACE.length) {
            if (!in.hasRemaining()) {
                return Preface.PARTIAL;
            }
            if (in.get() != Frames.PREFACE[prefaceMatched]) {
                return Preface.WRONG;
            }
            prefaceMatched++;
        }
        return Preface.SEEN;
    }

    /** Puts the kept bytes at the start of {@code buffer} (forgetting them); returns whether there were any. */
    boolean restore(ByteBuffer buffer) {
        byte[] kept = leftover;
        leftover = null;
        if (kept == null) {
            return false;
        }
        buffer.put(kept);
        return true;
    }

    /** Keeps what {@code in} has left, for the next read. */
    void keep(ByteBuffer in) {
        leftover = new byte[in.remaining()];
        in.get(leftover);
    }

    boolean hasKept() {
        return leftover != null;
    }

    /** The connection is closing: what was kept is dropped. */
    void drop() {
        leftover = null;
    }
}
