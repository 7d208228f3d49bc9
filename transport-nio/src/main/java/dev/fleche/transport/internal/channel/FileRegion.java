package dev.fleche.transport.internal.channel;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.channels.WritableByteChannel;

/**
 * A part of a file that an HTTP/1.1 response sends as its body, from the file to the socket without passing
 * through the heap ({@link FileChannel#transferTo}: {@code sendfile} on Linux). Queued by {@link Outbound} in its
 * turn behind the head and before what a later response stages; written as far as the socket takes it, then again
 * when it is writable. The file must keep the size it had when the head was framed with its
 * {@code Content-Length}: that is checked before every transfer, and a file that shrank or grew fails the write
 * with {@link Changed}, so the connection closes and the client sees a response cut short rather than a body with
 * a wrong length. (A change during the very last transfer is not seen: the body is then whole by its length.)
 * Owns the channel: closed once sent, or when the connection drops it. Reactor thread only.
 */
public final class FileRegion {
    /** The file no longer has the size its response announced: the response must be cut. */
    public static final class Changed extends IOException {
        Changed(String message) {
            super(message);
        }
    }

    private final FileChannel file;
    private final long expectedSize;
    private long position;
    private long remaining;

    /** {@code count} bytes of {@code file} from {@code position}; the file must stay {@code expectedSize} long. */
    public FileRegion(FileChannel file, long position, long count, long expectedSize) {
        this.file = file;
        this.position = position;
        this.remaining = count;
        this.expectedSize = expectedSize;
    }

    /** Bytes not yet sent. */
    public long remaining() {
        return remaining;
    }

    public boolean done() {
        return remaining == 0;
    }

    /**
     * Sends as much as {@code socket} takes now; returns the bytes sent (0 when the socket is full).
     *
     * @throws Changed when the file no longer has its size
     */
    public long transferTo(WritableByteChannel socket) throws IOException {
        if (remaining == 0) {
            return 0;
        }
        long size = file.size();
        if (size != expectedSize) {
            throw new Changed("file changed size while sent: " + expectedSize + " -> " + size + " bytes");
        }
        long sent = file.transferTo(position, remaining, socket);
        position += sent;
        remaining -= sent;
        return sent;
    }

    public void close() {
        try {
            file.close();
        } catch (IOException ignored) {
            // read-only: nothing is lost
        }
    }
}
