package dev.fleche.transport.internal.http2;

import dev.fleche.transport.internal.loop.WriteQueue;
import dev.fleche.transport.internal.rules.Deadlines;
import dev.fleche.transport.internal.rules.RateWindow;

/**
 * What an HTTP/2 connection's {@link Deadlines} read of it: whether output waits (bytes queued for the socket, or a
 * stream whose response a window holds back) and when it last moved. The connection-wide minimum rates of HTTP/1.1
 * have no place here (each stream has its own, {@link StreamTimers}), and reading never pauses for a handler (each
 * stream's window does that). It reads the parts it is given and keeps no state of its own. Never names the
 * connection; reactor thread only.
 */
final class OutputProgress implements Deadlines.Input {
    private final WriteQueue outbound;
    private final StreamTable streams;
    private final FlowControl flow;

    OutputProgress(WriteQueue outbound, StreamTable streams, FlowControl flow) {
        this.outbound = outbound;
        this.streams = streams;
        this.flow = flow;
    }

    @Override
    public boolean readPaused() {
        return false;
    }

    @Override
    public boolean outputWaiting() {
        if (outbound.queued()) {
            return true;
        }
        for (H2Stream s : streams.all()) {
            if (s.blocked()) {
                return true;
            }
        }
        return false;
    }

    /**
     * When waiting output last moved: the queue's last write while bytes are queued; else the later of the last
     * write and the last move of a window-blocked stream (a socket that took the queue just now is progress for the
     * streams that waited for the budget).
     */
    @Override
    public long lastWriteProgress() {
        long written = outbound.lastWriteProgress();
        if (outbound.queued()) {
            return written;
        }
        long moved = flow.progress();
        return written - moved > 0 ? written : moved;
    }

    @Override
    public RateWindow responseRate() {
        return null;
    }

    @Override
    public RateWindow requestRate() {
        return null;
    }
}
