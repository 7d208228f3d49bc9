package dev.fleche.transport.internal.exchange;

import dev.fleche.transport.HttpFields;
import dev.fleche.transport.ProxyInfo;
import dev.fleche.transport.ServerOptions;
import dev.fleche.transport.Timeout;
import dev.fleche.transport.TlsInfo;
import dev.fleche.transport.internal.channel.ConnectionChannel;
import dev.fleche.transport.internal.channel.FileRegion;
import dev.fleche.transport.internal.channel.Origin;
import dev.fleche.transport.internal.loop.Reactor;
import dev.fleche.transport.internal.loop.ScheduledTask;
import dev.fleche.transport.internal.rules.StaticRule;
import dev.fleche.transport.internal.telemetry.Telemetry;

import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The one way up from an exchange (and its response and body streams) to the connection that carries it, the same
 * object for both protocols: a connection makes one and hands it to its exchanges. Every method but
 * {@link #departureWatched} (called from a task already on the loop) may be called from any thread: the door owns
 * the hop onto the connection's loop, written once here, so nothing behind it checks which thread it is on. A call
 * from the loop that answers (a response, a part of one, a file) runs at once — no task object: a reactor-answered
 * GET allocates none —; from another thread it is queued to the loop; what the handler asks of the body or the
 * exchange ({@link #sendContinue}, {@link #readerCaughtUp}, {@link #limitBody}, {@link #refuseClaimed},
 * {@link #abort}) is always queued, never run at once. Once on the loop the connection decides ({@link Behind}).
 *
 * <p>An exchange is named by its {@code stream}, its number on the connection (HTTP/1.1: the requests in order;
 * HTTP/2: the stream id): the connection ignores what a finished stream asks. What the connection does with a
 * request is its own — HTTP/1.1 framing, keep-alive and pipelining, HTTP/2 streams and windows are behind this door
 * — so an exchange is the same on either protocol.
 */
public final class ConnectionDoor {
    /** What a connection does behind its door, on its loop (but {@link #queuedBytes}, {@link #closeReason}). */
    public interface Behind {
        /** The whole response of {@code stream}, unless the stream is over. */
        void respondOnLoop(int stream, int status, String reason, HttpFields fields, byte[] body);

        /** A part of the streamed response of {@code stream} ({@code head} with the first part), unless it is over. */
        void streamPartOnLoop(int stream, ResponseHead head, byte[] data, int length, boolean last);

        /**
         * Whether a response may be a {@link FileRegion} (HTTP/1.x on a plain socket); any thread. By default not:
         * the connection frames every body itself (HTTP/2).
         */
        default boolean takesFileRegions() {
            return false;
        }

        /**
         * The whole response of {@code stream}, its body {@code region} of a file; closes the region if not sent.
         * Asked only when {@link #takesFileRegions()}; by default the region is closed.
         */
        default void respondFileOnLoop(int stream, int status, HttpFields fields, FileRegion region) {
            region.close();
        }

        /**
         * The whole response of {@code stream}, its body the bytes {@code body} has remaining (a buffer that never
         * changes and may be direct: sent from where it is, without a copy into the heap), unless the stream is over.
         */
        void respondBufferOnLoop(int stream, int status, HttpFields fields, ByteBuffer body);

        /** The handler first reads the body of {@code stream}: {@code 100 Continue}, if the client waits for it. */
        void sendContinueOnLoop(int stream);

        /** The handler took the body bytes of {@code stream} that filled its window: reading may go on. */
        void readerCaughtUpOnLoop(int stream);

        /** The handler of {@code stream} buffers its body: it gets the tighter {@code limit}. */
        void limitBodyOnLoop(int stream, long limit);

        /** The body of {@code stream} is over {@code limit}; its response was claimed for the transport's 413. */
        void refuseClaimedOnLoop(int stream, long limit);

        /** The handler of {@code stream} gave up. */
        void abortOnLoop(int stream);

        /** {@code stream} began to watch for the client's departure. */
        void departureWatched(int stream);

        /** Response bytes of {@code stream} queued and not yet written; any thread. */
        long queuedBytes(int stream);

        /** Why the connection closed, or null while open; any thread. */
        String closeReason();
    }

    private final Reactor reactor;
    private final long id;
    private final ConnectionChannel channel;
    private final Origin origin;
    private final Telemetry telemetry;
    private final Behind behind;

    public ConnectionDoor(Reactor reactor, long id, ConnectionChannel channel, Origin origin, Telemetry telemetry,
            Behind behind) {
        this.reactor = reactor;
        this.id = id;
        this.channel = channel;
        this.origin = origin;
        this.telemetry = telemetry;
        this.behind = behind;
    }

    // ---------------------------------------------------------------- what the exchange may read, any thread

    public long connectionId() {
        return id;
    }

    public ServerOptions options() {
        return reactor.options;
    }

    /** The TLS session's settlement, or null on a plain connection; settled before any exchange. */
    public TlsInfo tls() {
        return channel.tlsInfo();
    }

    public InetSocketAddress remoteAddress() {
        return origin.remote();
    }

    public InetSocketAddress localAddress() {
        return origin.local();
    }

    /** What the connection's PROXY protocol header said, or null on a listener that takes none. */
    public ProxyInfo proxy() {
        return origin.proxy();
    }

    /** Why the connection closed, or null while open. */
    public String closeReason() {
        return behind.closeReason();
    }

    /**
     * Response bytes of {@code stream} queued and not yet written (its writer waits on it): HTTP/1.1 counts the
     * connection's queue; HTTP/2 adds what the stream holds back for its flow-control windows.
     */
    public long queuedBytes(int stream) {
        return behind.queuedBytes(stream);
    }

    /** Whether {@link #respondFile} may be used: HTTP/1.x on a plain socket. */
    public boolean takesFileRegions() {
        return behind.takesFileRegions();
    }

    // ---------------------------------------------------------------- the loop

    /** Whether the caller is on the connection's loop thread (where nothing may block). */
    public boolean inLoop() {
        return reactor.inLoop();
    }

    /** Runs {@code task} on the loop, after what is queued (never at once, even from the loop). */
    public void execute(Runnable task) {
        reactor.execute(task);
    }

    /** Runs {@code task} on the loop after {@code delayNanos}. */
    public Timeout schedule(Runnable task, long delayNanos) {
        ScheduledTask scheduled = new ScheduledTask(reactor, task);
        if (reactor.inLoop()) {
            scheduled.arm(reactor.now + delayNanos);
        } else {
            long at = reactor.options.nanoClock().getAsLong() + delayNanos;
            reactor.execute(() -> scheduled.arm(at));
        }
        return scheduled;
    }

    // ---------------------------------------------------------------- what the exchange asks of its connection

    /** The whole response of {@code stream}; at once on the loop, else queued to it. */
    public void respond(int stream, int status, String reason, HttpFields fields, byte[] body) {
        if (reactor.inLoop()) {
            behind.respondOnLoop(stream, status, reason, fields, body);
        } else {
            reactor.execute(() -> behind.respondOnLoop(stream, status, reason, fields, body));
        }
    }

    /**
     * A part of the streamed response of {@code stream} ({@code head} with the first part, else null); at once on
     * the loop, else queued to it. {@code handedOver} counts the bytes given to the loop and not yet taken: the loop
     * subtracts {@code length} from it when it takes the part.
     */
    public void streamPart(int stream, ResponseHead head, byte[] data, int length, boolean last,
            AtomicLong handedOver) {
        if (reactor.inLoop()) {
            handedOver.addAndGet(-length);
            behind.streamPartOnLoop(stream, head, data, length, last);
        } else {
            reactor.execute(() -> {
                handedOver.addAndGet(-length);
                behind.streamPartOnLoop(stream, head, data, length, last);
            });
        }
    }

    /**
     * The whole response of {@code stream}, its body {@code region} of a file, which goes from the file to the socket;
     * at once on the loop, else queued to it. The region is closed when the stream is over.
     */
    public void respondFile(int stream, int status, HttpFields fields, FileRegion region) {
        if (reactor.inLoop()) {
            behind.respondFileOnLoop(stream, status, fields, region);
        } else {
            reactor.execute(() -> behind.respondFileOnLoop(stream, status, fields, region));
        }
    }

    /**
     * The whole response of {@code stream}, its body the remaining bytes of {@code body}, a buffer that never changes
     * (it is sent as it is, from a direct buffer without a copy into the heap); at once on the loop, else queued to it.
     */
    public void respondBuffer(int stream, int status, HttpFields fields, ByteBuffer body) {
        if (reactor.inLoop()) {
            behind.respondBufferOnLoop(stream, status, fields, body);
        } else {
            reactor.execute(() -> behind.respondBufferOnLoop(stream, status, fields, body));
        }
    }

    /** The handler first reads the body of {@code stream}: {@code 100 Continue}, if the client waits for it. */
    public void sendContinue(int stream) {
        reactor.execute(() -> behind.sendContinueOnLoop(stream));
    }

    /** The handler took the body bytes of {@code stream} that filled its window: reading may go on. */
    public void readerCaughtUp(int stream) {
        reactor.execute(() -> behind.readerCaughtUpOnLoop(stream));
    }

    /** The handler of {@code stream} buffers its body: it gets the tighter {@code limit}. */
    public void limitBody(int stream, long limit) {
        reactor.execute(() -> behind.limitBodyOnLoop(stream, limit));
    }

    /** The body of {@code stream} is over {@code limit}; its response was claimed for the transport's 413. */
    public void refuseClaimed(int stream, long limit) {
        reactor.execute(() -> behind.refuseClaimedOnLoop(stream, limit));
    }

    /** The handler of {@code stream} gave up: the connection closes (HTTP/2: resets it) unless its response is out. */
    public void abort(int stream) {
        reactor.execute(() -> behind.abortOnLoop(stream));
    }

    /** On the loop: {@code stream} began to watch for the client's departure. */
    public void departureWatched(int stream) {
        behind.departureWatched(stream);
    }

    /**
     * On the loop, before the exchange is answered: static content refuses it by {@code rule} — counted
     * ({@code ServerMetrics.refusals}) and told as a {@code reject} event.
     */
    public void refused(StaticRule rule) {
        telemetry.refused(rule);
    }
}
