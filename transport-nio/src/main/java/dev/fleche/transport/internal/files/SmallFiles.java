package dev.fleche.transport.internal.files;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.locks.ReentrantLock;

/**
 * The contents of a directory's files up to {@code maxCachedFileBytes}, read once off the reactor into direct memory
 * and then answered from there on the reactor, on every protocol: no read, no hand-off to a reader thread, and the
 * bytes go to the socket (or to TLS, or into HTTP/2's frames) from where they are, with no copy into the heap. Each
 * answer sends its own view of it (the exchange takes a duplicate); a range is a slice. An entry is valid only for
 * the entity tag it was read under — the modification time in nanoseconds and the size, which the lookup of every
 * request reads anyway — so a changed file is read again. Bounded by {@code maxCacheBytes} and
 * {@code maxCachedNames}, least recently used first out; the memory of an entry let go returns when its last answer
 * is written.
 */
final class SmallFiles {
    private record Entry(String etag, ByteBuffer content) {
    }

    private final int maxFileBytes;
    private final long maxBytes;
    private final int maxNames;
    private final ReentrantLock lock = new ReentrantLock();
    private final LinkedHashMap<Path, Entry> cache = new LinkedHashMap<>(64, 0.75f, true);
    private long bytes;

    SmallFiles(int maxFileBytes, long maxBytes, int maxNames) {
        this.maxFileBytes = maxFileBytes;
        this.maxBytes = maxBytes;
        this.maxNames = maxNames;
    }

    /** Whether a file of {@code size} bytes is kept in memory. */
    boolean takes(long size) {
        return size <= maxFileBytes;
    }

    /**
     * The content of {@code file} read under {@code etag} (read-only, shared: slice it, never move its position), or
     * null (not read yet, or changed).
     */
    ByteBuffer get(Path file, String etag) {
        lock.lock();
        try {
            Entry entry = cache.get(file);
            return entry != null && entry.etag.equals(etag) ? entry.content : null;
        } finally {
            lock.unlock();
        }
    }

    /**
     * Reads {@code file}, expected to be {@code size} bytes under {@code etag}, keeps it and returns it (as
     * {@link #get}); null when it is not that size any more (it changed: the response is cut). Blocks: never on a
     * reactor.
     */
    ByteBuffer load(Path file, String etag, long size) throws IOException {
        ByteBuffer content = ByteBuffer.allocateDirect((int) size + 1); // one more: a file that grew is seen
        try (FileChannel channel = FileChannel.open(file, StandardOpenOption.READ)) {
            while (content.hasRemaining() && channel.read(content) >= 0) {
                // until the end of the file, or a byte past the size it should have
            }
        }
        if (content.position() != size) {
            return null;
        }
        content.flip();
        ByteBuffer kept = content.slice().asReadOnlyBuffer();
        lock.lock();
        try {
            Entry old = cache.put(file, new Entry(etag, kept));
            bytes += size - (old == null ? 0 : old.content.capacity());
            Iterator<Map.Entry<Path, Entry>> eldest = cache.entrySet().iterator();
            while ((bytes > maxBytes || cache.size() > maxNames) && eldest.hasNext()) {
                Map.Entry<Path, Entry> out = eldest.next();
                if (!out.getKey().equals(file)) {
                    bytes -= out.getValue().content.capacity();
                    eldest.remove();
                }
            }
        } finally {
            lock.unlock();
        }
        return kept;
    }
}
