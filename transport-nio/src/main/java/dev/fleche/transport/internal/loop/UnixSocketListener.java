package dev.fleche.transport.internal.loop;

import java.io.IOException;
import java.net.BindException;
import java.net.StandardProtocolFamily;
import java.net.UnixDomainSocketAddress;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.nio.file.attribute.PosixFilePermission;
import java.util.Set;

/**
 * The listening side of a Unix domain socket ({@code ServerOptions.unixSocket}), JDK 16+'s
 * {@code ServerSocketChannel.open(StandardProtocolFamily.UNIX)}: binds at a path, sets the socket file's
 * permissions, and deletes the file at stop (the JDK leaves it behind). A socket file already at the path is
 * replaced when nothing answers on it (a server that died without its stop); a live server there, or anything that is
 * not a socket, fails the bind with a message that says so.
 */
public final class UnixSocketListener {
    private UnixSocketListener() {
    }

    /** A server channel bound at {@code path}, its file's mode set to {@code permissions}. */
    public static ServerSocketChannel bind(Path path, Set<PosixFilePermission> permissions, int backlog)
            throws IOException {
        Path socket = path.toAbsolutePath();
        replaceStale(socket);
        ServerSocketChannel server = ServerSocketChannel.open(StandardProtocolFamily.UNIX);
        try {
            server.bind(UnixDomainSocketAddress.of(socket), backlog);
            Files.setPosixFilePermissions(socket, permissions);
            return server;
        } catch (IOException | RuntimeException e) {
            server.close();
            throw e;
        }
    }

    private static void replaceStale(Path socket) throws IOException {
        if (!Files.exists(socket, LinkOption.NOFOLLOW_LINKS)) {
            return;
        }
        BasicFileAttributes attributes = Files.readAttributes(socket, BasicFileAttributes.class,
                LinkOption.NOFOLLOW_LINKS);
        if (!attributes.isOther()) {
            throw new BindException(socket + " exists and is not a socket: not replaced");
        }
        try (SocketChannel probe = SocketChannel.open(UnixDomainSocketAddress.of(socket))) {
            throw new BindException("a server already listens on " + socket);
        } catch (BindException e) {
            throw e;
        } catch (IOException refused) {
            Files.deleteIfExists(socket); // nothing answers: the file of a server that ended without its stop
        }
    }

    /** Deletes the socket file at {@code path} (at stop); quietly, it may be gone already. */
    public static void remove(Path path) {
        try {
            Files.deleteIfExists(path.toAbsolutePath());
        } catch (IOException ignored) {
            // nothing more to do: a later bind replaces a stale file
        }
    }
}
