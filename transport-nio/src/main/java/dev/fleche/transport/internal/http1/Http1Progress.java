package dev.fleche.transport.internal.http1;

import dev.fleche.transport.internal.rules.Deadlines;
import dev.fleche.transport.internal.rules.RateWindow;

/**
 * What an HTTP/1.1 connection's {@link Deadlines} read of it: whether reading is paused for the handler (then the
 * body's timers wait), whether response bytes wait for the client and when they last moved, and the two minimum rates'
 * windows — the response's on its {@link ResponseSide}, the request body's on its {@link Inbound}. The HTTP/2 twin is
 * {@code OutputProgress}. It reads the parts it is given and keeps no state of its own. Never names the connection;
 * reactor thread only.
 */
final class Http1Progress implements Deadlines.Input {
    private final Intake intake;
    private final ResponseSide response;
    private final Inbound inbound;

    Http1Progress(Intake intake, ResponseSide response, Inbound inbound) {
        this.intake = intake;
        this.response = response;
        this.inbound = inbound;
    }

    @Override
    public boolean readPaused() {
        return intake.paused();
    }

    @Override
    public boolean outputWaiting() {
        return response.queued();
    }

    @Override
    public long lastWriteProgress() {
        return response.held().lastWriteProgress();
    }

    @Override
    public RateWindow responseRate() {
        return response.rate();
    }

    @Override
    public RateWindow requestRate() {
        return inbound.bodyRate();
    }
}
