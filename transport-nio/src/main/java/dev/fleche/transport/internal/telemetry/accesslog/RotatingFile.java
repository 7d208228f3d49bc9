package dev.fleche.transport.internal.telemetry.accesslog;

import java.io.BufferedOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;

/**
 * Lines to a file rotated by size: before a line that would take the file beyond {@code maxBytes}, {@code name}
 * becomes {@code name.1} (and {@code name.1} becomes {@code name.2}, up to {@code name.<kept>}, the oldest being
 * replaced), and a new {@code name} is started. With {@code kept = 0} the full file is started again empty. A line
 * longer than {@code maxBytes} is written whole into a fresh file. Lines are ASCII (everything is escaped before),
 * each ended by LF.
 */
final class RotatingFile implements LogSink {
    private static final int BUFFER_BYTES = 64 * 1024;

    private final Path path;
    private final long maxBytes;
    private final int kept;
    private OutputStream out;
    private long size;
    private byte[] bytes = new byte[1024];

    RotatingFile(Path path, long maxBytes, int kept) throws IOException {
        this.path = path;
        this.maxBytes = maxBytes;
        this.kept = kept;
        Path parent = path.toAbsolutePath().getParent();
        if (parent != null) {
            Files.createDirectories(parent);
        }
        open();
    }

    private void open() throws IOException {
        out = new BufferedOutputStream(Files.newOutputStream(path, StandardOpenOption.CREATE,
                StandardOpenOption.APPEND, StandardOpenOption.WRITE), BUFFER_BYTES);
        size = Files.size(path);
    }

    @Override
    public void write(CharSequence line) throws IOException {
        int length = line.length() + 1;
        if (bytes.length < length) {
            bytes = new byte[Math.max(length, bytes.length * 2)];
        }
        for (int i = 0; i < length - 1; i++) {
            bytes[i] = (byte) line.charAt(i); // ASCII: LogText escaped everything else
        }
        bytes[length - 1] = '\n';
        if (size > 0 && size + length > maxBytes) {
            rotate();
        }
        out.write(bytes, 0, length);
        size += length;
    }

    private void rotate() throws IOException {
        out.close();
        if (kept == 0) {
            Files.delete(path);
        } else {
            for (int i = kept - 1; i >= 1; i--) {
                Path older = rotated(i);
                if (Files.exists(older)) {
                    Files.move(older, rotated(i + 1), StandardCopyOption.REPLACE_EXISTING);
                }
            }
            Files.move(path, rotated(1), StandardCopyOption.REPLACE_EXISTING);
        }
        open();
    }

    private Path rotated(int n) {
        return path.resolveSibling(path.getFileName() + "." + n);
    }

    @Override
    public void flush() throws IOException {
        out.flush();
    }

    @Override
    public void close() throws IOException {
        out.close();
    }
}
