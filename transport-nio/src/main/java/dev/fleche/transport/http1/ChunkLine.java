package dev.fleche.transport.http1;

/**
 * Parses a chunk-size line (RFC 9112 7.1): {@code chunk-size [chunk-ext]}, where chunk-size is 1 to 16 hex
 * digits fitting a long and each extension is {@code BWS ";" BWS name [BWS "=" BWS (token / quoted-string)]}.
 * Extensions are checked and ignored. Whitespace is allowed only where BWS is, so {@code "5 "} is refused.
 */
final class ChunkLine {

    static final int MAX_SIZE_DIGITS = 16;

    private ChunkLine() {
    }

    /** Returns the chunk size of the line {@code b[start, end)} (CRLF excluded). */
    static long parse(byte[] b, int start, int end) throws RequestException {
        long size = 0;
        int i = start;
        int digit;
        while (i < end && (digit = HttpChars.hexValue(b[i])) >= 0) {
            if (i - start == MAX_SIZE_DIGITS || size > (Long.MAX_VALUE >>> 4)) {
                throw new RequestException(ProtocolRule.CHUNK_SIZE_INVALID);
            }
            size = (size << 4) | digit;
            i++;
        }
        if (i == start || (i < end && b[i] != ';' && !HttpChars.isWhitespace(b[i]))) {
            throw new RequestException(ProtocolRule.CHUNK_SIZE_INVALID);
        }
        checkExtensions(b, i, end);
        return size;
    }

    private static void checkExtensions(byte[] b, int from, int end) throws RequestException {
        int i = from;
        while (i < end) {
            i = HttpChars.skipWhitespace(b, i, end);
            if (i == end || b[i] != ';') {
                throw new RequestException(ProtocolRule.CHUNK_EXTENSION_INVALID);
            }
            i = HttpChars.skipWhitespace(b, i + 1, end);
            int nameEnd = HttpChars.scanToken(b, i, end);
            if (nameEnd == i) {
                throw new RequestException(ProtocolRule.CHUNK_EXTENSION_INVALID);
            }
            i = HttpChars.skipWhitespace(b, nameEnd, end);
            if (i < end && b[i] == '=') {
                i = extensionValueEnd(b, HttpChars.skipWhitespace(b, i + 1, end), end);
            } else if (i == end && i > nameEnd) {
                throw new RequestException(ProtocolRule.CHUNK_EXTENSION_INVALID);
            }
        }
    }

    /** The index past a token or quoted-string starting at {@code i}. */
    private static int extensionValueEnd(byte[] b, int i, int end) throws RequestException {
        if (i < end && b[i] == '"') {
            return quotedStringEnd(b, i + 1, end);
        }
        int tokenEnd = HttpChars.scanToken(b, i, end);
        if (tokenEnd == i) {
            throw new RequestException(ProtocolRule.CHUNK_EXTENSION_INVALID);
        }
        return tokenEnd;
    }

    /** The index past the closing quote; {@code i} is just past the opening one (RFC 9110 5.6.4). */
    private static int quotedStringEnd(byte[] b, int i, int end) throws RequestException {
        while (i < end) {
            int c = b[i] & 0xFF;
            if (c == '"') {
                return i + 1;
            }
            if (c == '\\') {
                i++;
                if (i == end || !HttpChars.isFieldValueByte(b[i] & 0xFF)) {
                    throw new RequestException(ProtocolRule.CHUNK_EXTENSION_INVALID);
                }
            } else if (!HttpChars.isFieldValueByte(c)) {
                throw new RequestException(ProtocolRule.CHUNK_EXTENSION_INVALID);
            }
            i++;
        }
        throw new RequestException(ProtocolRule.CHUNK_EXTENSION_INVALID);
    }
}
