package dev.fleche.transport.internal.files;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.locks.ReentrantLock;

/**
 * The contents of a directory's small files (up to {@code maxCachedFileBytes}), read once off the reactor and then
 * answered from memory on it, on every protocol: no read, no hand-off to a reader thread, one write with the head.
 * An entry is valid only for the entity tag it was read under — the modification time in nanoseconds and the size,
 * which the lookup of every request reads anyway — so a changed file is read again. Bounded by
 * {@code maxCacheBytes} and {@code maxCachedNames}, least recently used first out.
 */
final class SmallFiles {
    private record Entry(String etag, byte[] bytes) {
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

    /** The content of {@code file} read under {@code etag}, or null (not read yet, or changed since). */
    byte[] get(Path file, String etag) {
        lock.lock();
        try {
            Entry entry = cache.get(file);
            return entry != null && entry.etag.equals(etag) ? entry.bytes : null;
        } finally {
            lock.unlock();
        }
    }

    /**
     * Reads {@code file}, expected to be {@code size} bytes under {@code etag}, and keeps it; null when it is not that
     * size any more (it changed: the response is cut). Blocks: never on a reactor.
     */
    byte[] load(Path file, String etag, long size) throws IOException {
        byte[] content;
        try (InputStream in = Files.newInputStream(file)) {
            content = in.readNBytes((int) size + 1);
        }
        if (content.length != size) {
            return null;
        }
        lock.lock();
        try {
            Entry old = cache.put(file, new Entry(etag, content));
            bytes += content.length - (old == null ? 0 : old.bytes.length);
            Iterator<Map.Entry<Path, Entry>> eldest = cache.entrySet().iterator();
            while ((bytes > maxBytes || cache.size() > maxNames) && eldest.hasNext()) {
                Map.Entry<Path, Entry> out = eldest.next();
                if (!out.getKey().equals(file)) {
                    bytes -= out.getValue().bytes.length;
                    eldest.remove();
                }
            }
        } finally {
            lock.unlock();
        }
        return content;
    }
}
