package dev.fleche.transport.internal.channel;

import java.nio.ByteBuffer;
import java.util.ArrayDeque;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLEngine;
import javax.net.ssl.SSLSession;

/**
 * The TLS record buffers of one reactor's connections. A {@link TlsChannel} borrows a buffer only while bytes are in
 * flight (a partial record received, records not yet taken by the socket, plaintext not yet read) and gives it back
 * as soon as it is empty, so an idle TLS connection holds none. Two sizes: a buffer of one record, and a wide one of
 * {@value #WIDE_RECORDS} records, borrowed to write a large body's records to the socket {@value #WIDE_RECORDS} at a
 * time. At most {@code maxRetained} free buffers of one record and a quarter as many wide ones are kept; beyond that
 * a returned buffer is left to the garbage collector. Used only on its reactor thread: not thread-safe.
 */
public final class PacketBufferPool {
    /** The records a wide buffer holds. */
    static final int WIDE_RECORDS = 4;

    private final int bufferBytes;
    private final int maxRetained;
    private final ArrayDeque<ByteBuffer> free = new ArrayDeque<>();
    private final ArrayDeque<ByteBuffer> freeWide = new ArrayDeque<>();

    /**
     * @param bufferBytes the size of every pooled buffer: at least one TLS record ({@link #recordBytes})
     * @param maxRetained how many free buffers the pool keeps at most
     */
    public PacketBufferPool(int bufferBytes, int maxRetained) {
        if (bufferBytes < 1024 || maxRetained < 0) {
            throw new IllegalArgumentException("bufferBytes " + bufferBytes + ", maxRetained " + maxRetained);
        }
        this.bufferBytes = bufferBytes;
        this.maxRetained = maxRetained;
    }

    /** The larger of the packet and application buffer sizes the context's engines start with (about 16.7 KiB). */
    public static int recordBytes(SSLContext context) {
        SSLEngine engine = context.createSSLEngine();
        SSLSession session = engine.getSession();
        return Math.max(session.getPacketBufferSize(), session.getApplicationBufferSize());
    }

    /** A cleared buffer of at least {@code minBytes}: pooled when it fits the pool's size, a new one otherwise. */
    ByteBuffer take(int minBytes) {
        if (minBytes > bufferBytes) {
            return ByteBuffer.allocate(minBytes);
        }
        ByteBuffer buffer = free.pollFirst();
        return buffer == null ? ByteBuffer.allocate(bufferBytes) : buffer.clear();
    }

    /** A cleared buffer of {@value #WIDE_RECORDS} records. */
    ByteBuffer takeWide() {
        ByteBuffer buffer = freeWide.pollFirst();
        return buffer == null ? ByteBuffer.allocate(WIDE_RECORDS * bufferBytes) : buffer.clear();
    }

    /** Gives {@code buffer} back; one of another size (grown past the pool's, or foreign) is dropped. */
    void give(ByteBuffer buffer) {
        if (buffer.capacity() == bufferBytes && free.size() < maxRetained) {
            free.addFirst(buffer);
        } else if (buffer.capacity() == WIDE_RECORDS * bufferBytes && freeWide.size() < maxRetained / 4) {
            freeWide.addFirst(buffer);
        }
    }

    /** The size of a pooled buffer. */
    int bufferBytes() {
        return bufferBytes;
    }

    /** Free buffers held now, of both sizes (for tests). */
    int retained() {
        return free.size() + freeWide.size();
    }

    /** Free wide buffers held now (for tests). */
    int retainedWide() {
        return freeWide.size();
    }
}
