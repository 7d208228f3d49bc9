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

    // ---------------------------------------------------------------- lent in read mode (TlsChannel's buffers)

    /** {@code buffer}, or a pooled one of at least {@code minBytes}, empty and in read mode. */
    ByteBuffer ready(ByteBuffer buffer, int minBytes) {
        if (buffer != null) {
            return buffer;
        }
        ByteBuffer taken = take(minBytes);
        taken.limit(0);
        return taken;
    }

    /** A larger buffer (in read mode) holding the bytes of {@code buffer}, which goes back to the pool. */
    ByteBuffer grow(ByteBuffer buffer, int minBytes) {
        ByteBuffer larger = ByteBuffer.allocate(Math.max(minBytes, buffer.capacity() + 1024));
        larger.put(buffer).flip();
        give(buffer);
        return larger;
    }

    /** {@code buffer}, or null once it is empty (then given back). */
    ByteBuffer releaseIfEmpty(ByteBuffer buffer) {
        return buffer == null || buffer.hasRemaining() ? buffer : release(buffer);
    }

    /** Gives {@code buffer} back when it is not null; returns null (for {@code field = pool.release(field)}). */
    ByteBuffer release(ByteBuffer buffer) {
        if (buffer != null) {
            give(buffer);
        }
        return null;
    }

    /** Puts {@code buffer} (in read mode) in write mode behind its bytes; moves them to its start only when needed. */
    static void toAppend(ByteBuffer buffer) {
        if (buffer.position() == 0) {
            buffer.position(buffer.limit()).limit(buffer.capacity());
        } else {
            buffer.compact();
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
