package dev.fleche.transport.internal.files;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.NotDirectoryException;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * The files of a directory, found from a {@link RequestPath}'s names: each name is looked up without following
 * links ({@code lstat}), under the root's real path taken once; a symbolic link is resolved to its real path, which
 * must stay under the root unless links may lead out. So the lookup of {@code /static/a/b.css} costs one
 * {@code lstat} per name and never leaves the root, whatever the names (they are plain names already). The lookup
 * runs on the reactor: metadata calls, as nginx makes them; the bytes are never read here.
 *
 * <p>The check is made at lookup: a root that untrusted users can write to (and so swap a directory for a link
 * while a request is served) is not protected against that race.
 */
final class DirectoryFiles {
    /** What a lookup found. */
    sealed interface Lookup permits Found, Directory, Missing {
    }

    /** A regular file, at its real path. */
    record Found(Path path, BasicFileAttributes attributes) implements Lookup {
    }

    /** A directory, at its real path. */
    record Directory(Path path) implements Lookup {
    }

    /** Nothing to serve: no such file, not a regular file, or a link out of the root ({@code outside}). */
    record Missing(boolean outside) implements Lookup {
    }

    private static final Missing NONE = new Missing(false);
    private static final Missing OUTSIDE = new Missing(true);

    private final Path root;
    private final boolean linksOutside;

    /** {@code root} is resolved to its real path now: it must exist and be a directory. */
    DirectoryFiles(Path root, boolean linksOutside) {
        try {
            this.root = root.toRealPath();
        } catch (IOException e) {
            throw new IllegalArgumentException("static content root " + root + " cannot be read: " + e, e);
        }
        if (!Files.isDirectory(this.root)) {
            throw new IllegalArgumentException("static content root " + root + " is not a directory");
        }
        this.linksOutside = linksOutside;
    }

    Path root() {
        return root;
    }

    /** Looks {@code names} up under the root. */
    Lookup find(List<String> names) {
        Path current = root;
        for (int i = 0, n = names.size(); i < n; i++) {
            Path next = current.resolve(names.get(i));
            if (!current.equals(next.getParent())) {
                return NONE; // a name the file system reads as more than one (never from a RequestPath on Unix)
            }
            Lookup step = step(next);
            if (step instanceof Missing) {
                return step;
            }
            if (step instanceof Found found) {
                if (i < n - 1) {
                    return NONE; // a file in the middle of the path
                }
                return found;
            }
            current = ((Directory) step).path();
        }
        return new Directory(current);
    }

    /** The file {@code name} in {@code directory}, when it is a regular file: an index, a sibling. */
    Found file(Path directory, String name) {
        Path path = directory.resolve(name);
        return step(path) instanceof Found found ? found : null;
    }

    /** One name: its attributes without following a link; a link's real path, checked against the root. */
    private Lookup step(Path path) {
        try {
            BasicFileAttributes attributes = Files.readAttributes(path, BasicFileAttributes.class,
                    LinkOption.NOFOLLOW_LINKS);
            if (attributes.isSymbolicLink()) {
                Path real = path.toRealPath();
                if (!linksOutside && !real.startsWith(root)) {
                    return OUTSIDE;
                }
                path = real;
                attributes = Files.readAttributes(real, BasicFileAttributes.class);
            }
            if (attributes.isDirectory()) {
                return new Directory(path);
            }
            return attributes.isRegularFile() ? new Found(path, attributes) : NONE;
        } catch (NoSuchFileException | NotDirectoryException e) {
            return NONE;
        } catch (IOException | SecurityException e) {
            return NONE; // unreadable: as missing (nothing of the reason reaches the client)
        }
    }

    /** The representation of a found file: its size, time and entity tag. */
    static Representation representation(String name, Found found, String encoding) {
        BasicFileAttributes attributes = found.attributes();
        long nanos = attributes.lastModifiedTime().to(TimeUnit.NANOSECONDS);
        return new Representation(name, encoding, attributes.size(), Math.floorDiv(nanos, 1_000_000_000L),
                Representation.etag(nanos, attributes.size(), encoding), found.path(), null, null);
    }
}
