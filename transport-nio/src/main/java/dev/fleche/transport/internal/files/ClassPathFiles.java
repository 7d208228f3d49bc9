package dev.fleche.transport.internal.files;

import java.io.IOException;
import java.io.InputStream;
import java.net.JarURLConnection;
import java.net.URISyntaxException;
import java.net.URL;
import java.net.URLConnection;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.ReentrantLock;
import java.util.jar.JarEntry;

/**
 * The resources under a class-path prefix, in directories ({@code file:}) or jars ({@code jar:}); other kinds of
 * resource URL are not served. What a name is, is learnt once, off the reactor ({@link #load}), and kept: a missing
 * name or a directory as such, a small resource (up to {@code maxCachedFileBytes}) with its bytes and a content
 * hash as its entity tag, a larger one with its size and time (its bytes are read from the class path on every
 * request, off the reactor). The cache is bounded by {@code maxCacheBytes} of content and {@code maxCachedNames}
 * names, least recently used first out; a cached name is answered on the reactor. Class-path resources are taken not
 * to change while the server runs (a jar does not).
 */
final class ClassPathFiles {
    /** What a name is on the class path. */
    sealed interface Entry permits Missing, Folder, Resource {
    }

    record Missing() implements Entry {
    }

    record Folder() implements Entry {
    }

    /** A resource: its bytes when small (else null: read from {@code url} each time), size, time and tag. */
    record Resource(URL url, byte[] bytes, long size, long modifiedSeconds, String etag) implements Entry {
    }

    static final Entry MISSING = new Missing();
    static final Entry FOLDER = new Folder();

    private final String base;
    private final ClassLoader loader;
    private final int maxCachedFileBytes;
    private final long maxCacheBytes;
    /** Most names kept (missing ones included), whatever their size. */
    private final int maxNames;
    private final ReentrantLock lock = new ReentrantLock();
    /** In access order: the eldest is the least recently used. */
    private final LinkedHashMap<String, Entry> cache = new LinkedHashMap<>(64, 0.75f, true);
    private long cachedBytes;

    ClassPathFiles(String base, ClassLoader loader, int maxCachedFileBytes, long maxCacheBytes, int maxNames) {
        this.maxNames = maxNames;
        this.base = base;
        this.loader = loader;
        this.maxCachedFileBytes = maxCachedFileBytes;
        this.maxCacheBytes = maxCacheBytes;
    }

    /** The resource name of {@code path} (names joined by {@code /}) under the base. */
    String name(String path) {
        return path.isEmpty() ? base : base + "/" + path;
    }

    /** What {@code name} is, when known; null when it must be {@link #load}ed first. Any thread. */
    Entry cached(String name) {
        lock.lock();
        try {
            return cache.get(name);
        } finally {
            lock.unlock();
        }
    }

    /** Learns what {@code name} is (reading a small resource whole) and keeps it; blocks: never on a reactor. */
    Entry load(String name) {
        Entry entry;
        try {
            entry = find(name);
        } catch (IOException | RuntimeException e) {
            entry = MISSING; // unreadable: as missing (nothing of the reason reaches the client)
        }
        keep(name, entry);
        return entry;
    }

    private Entry find(String name) throws IOException {
        URL url = loader.getResource(name);
        if (url == null) {
            return MISSING;
        }
        switch (url.getProtocol()) {
            case "file" -> {
                Path path;
                try {
                    path = Path.of(url.toURI());
                } catch (URISyntaxException | IllegalArgumentException e) {
                    return MISSING;
                }
                if (!underItsRoot(path, name)) {
                    return MISSING; // a symbolic link below the class-path directory leads out of it
                }
                BasicFileAttributes attributes = Files.readAttributes(path, BasicFileAttributes.class);
                if (attributes.isDirectory()) {
                    return FOLDER;
                }
                if (!attributes.isRegularFile()) {
                    return MISSING;
                }
                return resource(url, attributes.size(), attributes.lastModifiedTime().to(TimeUnit.MILLISECONDS));
            }
            case "jar" -> {
                URLConnection connection = url.openConnection();
                JarEntry jarEntry = ((JarURLConnection) connection).getJarEntry();
                if (jarEntry == null) {
                    return MISSING;
                }
                if (jarEntry.isDirectory()) {
                    return FOLDER;
                }
                return resource(url, jarEntry.getSize(), jarEntry.getTime());
            }
            default -> {
                return MISSING; // jrt:, custom loaders: not served (no way to tell a directory from a file)
            }
        }
    }

    /**
     * Whether the file of resource {@code name} at {@code path} is really under the directory of the base, and every
     * directory on the way too (links resolved): a link below the base may not lead out of it, even to come back.
     */
    private boolean underItsRoot(Path path, String name) throws IOException {
        if (name.length() == base.length()) {
            return true;
        }
        String[] below = name.substring(base.length() + 1).split("/");
        Path root = path;
        for (int i = below.length; i > 0 && root != null; i--) {
            root = root.getParent();
        }
        if (root == null) {
            return false;
        }
        Path real = root.toRealPath();
        Path step = root;
        for (String segment : below) {
            step = step.resolve(segment);
            if (!step.toRealPath().startsWith(real)) {
                return false;
            }
        }
        return true;
    }

    private Resource resource(URL url, long size, long modifiedMillis) throws IOException {
        long seconds = modifiedMillis <= 0 ? -1 : modifiedMillis / 1000;
        if (size < 0 || size > maxCachedFileBytes) {
            long length = size >= 0 ? size : count(url);
            return new Resource(url, null, length, seconds,
                    Representation.etag(Math.max(0, modifiedMillis) * 1_000_000L, length, null));
        }
        byte[] bytes;
        try (InputStream in = url.openStream()) {
            bytes = in.readNBytes(maxCachedFileBytes + 1);
        }
        if (bytes.length > maxCachedFileBytes) {
            return new Resource(url, null, count(url), seconds,
                    Representation.etag(Math.max(0, modifiedMillis) * 1_000_000L, count(url), null));
        }
        return new Resource(url, bytes, bytes.length, seconds, "\"" + hash(bytes) + "\"");
    }

    /** The length of a resource whose size is not recorded: read once. */
    private static long count(URL url) throws IOException {
        try (InputStream in = url.openStream()) {
            return in.transferTo(java.io.OutputStream.nullOutputStream());
        }
    }

    private static String hash(byte[] bytes) {
        try {
            byte[] digest = MessageDigest.getInstance("SHA-256").digest(bytes);
            return HexFormat.of().formatHex(digest, 0, 12);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is part of every JDK", e);
        }
    }

    private void keep(String name, Entry entry) {
        long size = entry instanceof Resource resource && resource.bytes() != null ? resource.bytes().length : 0;
        lock.lock();
        try {
            Entry previous = cache.put(name, entry);
            if (previous instanceof Resource old && old.bytes() != null) {
                cachedBytes -= old.bytes().length;
            }
            cachedBytes += size;
            Iterator<Map.Entry<String, Entry>> eldest = cache.entrySet().iterator();
            while ((cachedBytes > maxCacheBytes || cache.size() > maxNames) && eldest.hasNext()) {
                Map.Entry<String, Entry> out = eldest.next();
                if (out.getKey().equals(name)) {
                    continue; // keep what was just learnt: the request that asked uses it
                }
                if (out.getValue() instanceof Resource old && old.bytes() != null) {
                    cachedBytes -= old.bytes().length;
                }
                eldest.remove();
            }
        } finally {
            lock.unlock();
        }
    }

    /** Bytes of content kept now (tests). */
    long cachedBytes() {
        lock.lock();
        try {
            return cachedBytes;
        } finally {
            lock.unlock();
        }
    }
}
