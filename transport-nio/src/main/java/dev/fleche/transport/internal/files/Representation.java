package dev.fleche.transport.internal.files;

import java.nio.file.Path;

/**
 * One file as static content serves it: where its bytes are (a file, bytes kept in memory, or a class-path
 * resource read each time), its size and validators. Immutable.
 *
 * @param name            the file name the request asked for (its media type and whether it is fingerprinted)
 * @param encoding        the {@code Content-Encoding} of a precompressed sibling ({@code br}, {@code gzip}), or null
 * @param size            the bytes of the representation
 * @param modifiedSeconds its last modification (seconds since the epoch), or -1 when not known
 * @param etag            its strong entity tag, quoted
 * @param file            the file, or null
 * @param bytes           the content kept in memory, or null
 * @param resource        the class-path resource read each time, or null
 */
record Representation(String name, String encoding, long size, long modifiedSeconds, String etag, Path file,
                      byte[] bytes, java.net.URL resource) {

    /** A strong entity tag from a modification time and a size, with the coding when it is a sibling. */
    static String etag(long modifiedNanos, long size, String encoding) {
        StringBuilder tag = new StringBuilder(40).append('"').append(Long.toHexString(modifiedNanos)).append('-')
                .append(Long.toHexString(size));
        if (encoding != null) {
            tag.append('-').append(encoding);
        }
        return tag.append('"').toString();
    }
}
