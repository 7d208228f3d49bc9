package dev.fleche.transport.internal.exchange;

import dev.fleche.transport.HttpFields;
import dev.fleche.transport.ProxyInfo;
import dev.fleche.transport.ServerOptions;
import dev.fleche.transport.Timeout;
import dev.fleche.transport.TlsInfo;

import java.net.InetSocketAddress;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The one way up from an exchange (and its response and body streams) to the connection that carries it. Every
 * method but {@link #departureWatched} (called from a task already on the loop) may be called from any thread: the
 * door owns the hop onto the connection's loop, so nothing below it checks which thread it is on to reach it. An exchange is named by its {@code stream}, its number on the connection (HTTP/1.1:
 * the requests in order; HTTP/2 would use the stream id): the connection ignores what a finished stream asks.
 *
 * <p>What the connection does with a request is its own: HTTP/1.1 framing, keep-alive and pipelining are behind this
 * door, so an exchange would be the same on a connection speaking another protocol.
 */
public interface ConnectionDoor {

    // ---------------------------------------------------------------- what the exchange may read, any thread

    long connectionId();

    ServerOptions options();

    /** The TLS session's settlement, or null on a plain connection; settled before any exchange. */
    TlsInfo tls();

    InetSocketAddress remoteAddress();

    InetSocketAddress localAddress();

    /** What the connection's PROXY protocol header said, or null on a listener that takes none. */
    ProxyInfo proxy();

    /** Why the connection closed, or null while open. */
    String closeReason();

    /**
     * Response bytes of {@code stream} queued and not yet written (its writer waits on it): HTTP/1.1 counts the
     * connection's queue; HTTP/2 adds what the stream holds back for its flow-control windows.
     */
    long queuedBytes(int stream);

    // ---------------------------------------------------------------- the loop

    /** Whether the caller is on the connection's loop thread (where nothing may block). */
    boolean inLoop();

    /** Runs {@code task} on the loop, after what is queued (never at once, even from the loop). */
    void execute(Runnable task);

    /** Runs {@code task} on the loop after {@code delayNanos}. */
    Timeout schedule(Runnable task, long delayNanos);

    // ---------------------------------------------------------------- what the exchange asks of its connection

    /** The whole response of {@code stream}; at once on the loop, else queued to it. */
    void respond(int stream, int status, String reason, HttpFields fields, byte[] body);

    /**
     * A part of the streamed response of {@code stream} ({@code head} with the first part, else null); at once on
     * the loop, else queued to it. {@code handedOver} counts the bytes given to the loop and not yet taken: the loop
     * subtracts {@code length} from it when it takes the part.
     */
    void streamPart(int stream, ResponseHead head, byte[] data, int length, boolean last, AtomicLong handedOver);

    /** The handler first reads the body of {@code stream}: {@code 100 Continue}, if the client waits for it. */
    void sendContinue(int stream);

    /** The handler took the body bytes of {@code stream} that filled its window: reading may go on. */
    void readerCaughtUp(int stream);

    /** The handler of {@code stream} buffers its body: it gets the tighter {@code limit}. */
    void limitBody(int stream, long limit);

    /** The body of {@code stream} is over {@code limit}; its response was claimed for the transport's 413. */
    void refuseClaimed(int stream, long limit);

    /** The handler of {@code stream} gave up: the connection closes unless its response is out. */
    void abort(int stream);

    /** On the loop: {@code stream} began to watch for the client's departure. */
    void departureWatched(int stream);
}
