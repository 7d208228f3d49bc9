package dev.fleche.transport.internal.files;

import dev.fleche.transport.internal.exchange.PacedBody;

import java.io.IOException;
import java.io.InputStream;
import java.net.URL;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/** The bodies static content reads off the reactor: a part of a file, a part of a class-path resource. */
final class Sources {
    private Sources() {
    }

    /** {@code path} from {@code position}; the file must stay {@code size} bytes long. Opened on the first read. */
    static PacedBody.Source file(Path path, long position, long size) {
        return new PacedBody.Source() {
            private FileChannel channel;
            private long at = position;

            @Override
            public int read(byte[] bytes, int offset, int length) throws IOException {
                if (channel == null) {
                    channel = FileChannel.open(path, StandardOpenOption.READ);
                }
                int n = channel.read(ByteBuffer.wrap(bytes, offset, length), at);
                if (n > 0) {
                    at += n;
                }
                return n;
            }

            @Override
            public boolean unchanged() throws IOException {
                return channel.size() == size;
            }

            @Override
            public void close() {
                if (channel != null) {
                    try {
                        channel.close();
                    } catch (IOException ignored) {
                        // read-only
                    }
                }
            }
        };
    }

    /** The resource at {@code url} from byte {@code position} (those before it are read and dropped). */
    static PacedBody.Source resource(URL url, long position) {
        return new PacedBody.Source() {
            private InputStream in;

            @Override
            public int read(byte[] bytes, int offset, int length) throws IOException {
                if (in == null) {
                    in = url.openStream();
                    in.skipNBytes(position);
                }
                return in.read(bytes, offset, length);
            }

            @Override
            public boolean unchanged() {
                return true; // a class-path resource does not change while the server runs
            }

            @Override
            public void close() {
                if (in != null) {
                    try {
                        in.close();
                    } catch (IOException ignored) {
                        // read-only
                    }
                }
            }
        };
    }
}
