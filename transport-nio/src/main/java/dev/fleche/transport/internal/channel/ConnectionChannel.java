package dev.fleche.transport.internal.channel;

import java.io.IOException;
import java.nio.ByteBuffer;
import dev.fleche.transport.TlsInfo;

import javax.net.ssl.SSLSession;

/**
 * The byte stream under a connection: what it reads requests from and writes responses to. The plain socket is
 * one implementation; TLS over {@code SSLEngine} is the other. The connection never sees records, handshakes or
 * {@code close_notify}: it reads and writes application bytes and asks which selector interest the channel needs.
 * Every method runs on the owning reactor thread.
 *
 * <p>A channel that must do work of its own outside a read or write (a TLS delegated task finishing off the reactor)
 * calls the {@link Listener} it was built with, on the reactor, so the connection tries reading and writing again.
 */
public interface ConnectionChannel {

    /** What a channel tells its connection. */
    interface Listener {
        /** On the reactor: the channel can make progress again (e.g. a handshake task finished): retry read and write. */
        void channelReady();

        /**
         * On the reactor, during a read or a write: the first TLS handshake is done ({@link #tlsInfo()} is settled);
         * application bytes may follow. Never told on a plain channel (it has no handshake).
         */
        default void handshakeDone() {
        }
    }

    /**
     * Reads application bytes into {@code dst}.
     *
     * @return the number of bytes read; {@code 0} when none are available now (no data on the socket, a partial TLS
     *         record, a handshake message consumed); {@code -1} when the peer ended its stream (TCP FIN, or TLS
     *         {@code close_notify})
     */
    int read(ByteBuffer dst) throws IOException;

    /**
     * Writes application bytes from {@code src}, as many as the channel takes now.
     *
     * @return the number of bytes taken from {@code src}; {@code 0} when the socket is full or the channel cannot
     *         send application data yet (TLS handshake in progress): the connection keeps them queued and tries again
     *         when the selector reports the interest {@link #interestOps} asked for
     */
    int write(ByteBuffer src) throws IOException;

    /**
     * Writes application bytes from {@code srcs[offset, offset + length)}, in order, as many as the channel takes now
     * (a plain socket in one gathering write; TLS fills each record from as many of them as it holds).
     *
     * @return the number of bytes taken; {@code 0} as for {@link #write(ByteBuffer)}
     */
    default long write(ByteBuffer[] srcs, int offset, int length) throws IOException {
        long taken = 0;
        for (int i = offset; i < offset + length; i++) {
            taken += write(srcs[i]);
            if (srcs[i].hasRemaining()) {
                break;
            }
        }
        return taken;
    }

    /**
     * Writes bytes the channel produced by itself and still holds (TLS records, handshake messages,
     * {@code close_notify}).
     *
     * @return whether nothing is left to write
     */
    boolean flush() throws IOException;

    /**
     * The selector interest this channel needs, given the interest the connection wants ({@code OP_READ} and/or
     * {@code OP_WRITE}). A plain channel returns {@code wanted}; TLS adds {@code OP_READ} while a handshake waits for
     * the peer and {@code OP_WRITE} while it holds records the socket has not taken.
     */
    int interestOps(int wanted);

    /** Whether {@link #read} can return bytes without new readiness (TLS: plaintext already decrypted). */
    boolean hasBufferedInput();

    /** Ends our direction of the stream (TLS sends {@code close_notify} first); the peer's input can still be read. */
    void shutdownOutput() throws IOException;

    /** Closes the socket and releases the channel's buffers; idempotent. */
    void close();

    /** The TLS session once the handshake is done, or {@code null} on a plain channel (or before then). */
    SSLSession tlsSession();

    /**
     * Whether the channel's first TLS handshake is still in progress: no application bytes can be read or written
     * yet, and the connection's handshake timeout runs. Always {@code false} on a plain channel.
     */
    boolean isHandshaking();

    /** What the TLS handshake settled, or {@code null} on a plain channel (or before the handshake completed). */
    TlsInfo tlsInfo();
}
