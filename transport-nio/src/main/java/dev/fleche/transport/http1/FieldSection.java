package dev.fleche.transport.http1;

import dev.fleche.transport.HttpFields;
import java.nio.charset.StandardCharsets;

/**
 * One header or trailer section being read: validates each field line (RFC 9112 5, RFC 9110 5) and caps the
 * section's size and field count. The section's size is the sum of its field lines, each counted with its CRLF;
 * the empty line that ends the section is not counted.
 */
final class FieldSection {

    /** Field names common enough to be shared constants when received in this exact case. */
    private static final String[] KNOWN_NAMES = {
        "Host", "Content-Length", "Transfer-Encoding", "Connection", "Content-Type", "Accept", "User-Agent",
        "Accept-Encoding", "Accept-Language", "Expect", "Cookie", "Authorization", "Cache-Control", "host",
        "content-length", "transfer-encoding", "connection", "content-type", "accept", "user-agent",
        "accept-encoding", "accept-language", "expect", "cookie", "authorization", "cache-control",
    };

    private final int maxBytes;
    private final int maxCount;
    private final ProtocolRule tooLarge;
    private final ProtocolRule tooMany;
    private HttpFields fields;
    private int bytes;

    FieldSection(int maxBytes, int maxCount, ProtocolRule tooLarge, ProtocolRule tooMany) {
        this.maxBytes = maxBytes;
        this.maxCount = maxCount;
        this.tooLarge = tooLarge;
        this.tooMany = tooMany;
    }

    /** The longest next field line (CRLF excluded) that still fits; the empty final line always fits. */
    int maxLineContent() {
        return Math.max(0, maxBytes - bytes - 2);
    }

    /** The rule a line longer than {@link #maxLineContent()} violates. */
    ProtocolRule tooLargeRule() {
        return tooLarge;
    }

    /** The number of fields read so far. */
    int count() {
        return fields == null ? 0 : fields.size();
    }

    /**
     * Takes one line of the section (content without CRLF).
     *
     * @return {@code true} when it was the empty line that ends the section
     */
    boolean accept(byte[] b, int start, int end) throws RequestException {
        if (start == end) {
            return true;
        }
        if ((long) bytes + (end - start) + 2 > maxBytes) {
            throw new RequestException(tooLarge);
        }
        bytes += end - start + 2;
        if (count() == maxCount) {
            throw new RequestException(tooMany);
        }
        if (fields == null) {
            fields = new HttpFields(8);
        }
        parseField(b, start, end, fields);
        return false;
    }

    /** Returns the fields read (an empty list when none) and starts a new section. */
    HttpFields take() {
        HttpFields taken = fields == null ? new HttpFields() : fields;
        reset();
        return taken;
    }

    void reset() {
        fields = null;
        bytes = 0;
    }

    /** Parses {@code field-name ":" OWS field-value OWS} from a non-empty line. */
    static void parseField(byte[] b, int start, int end, HttpFields into) throws RequestException {
        if (HttpChars.isWhitespace(b[start])) {
            throw new RequestException(ProtocolRule.OBS_FOLD);
        }
        int colon = HttpChars.scanToken(b, start, end);
        int afterSpace = HttpChars.skipWhitespace(b, colon, end);
        if (afterSpace > colon && afterSpace < end && b[afterSpace] == ':') {
            throw new RequestException(ProtocolRule.FIELD_NAME_WHITESPACE);
        }
        if (colon == start || colon == end || b[colon] != ':') {
            throw new RequestException(ProtocolRule.FIELD_NAME_INVALID);
        }
        int valueStart = HttpChars.skipWhitespace(b, colon + 1, end);
        int valueEnd = HttpChars.trimWhitespace(b, valueStart, end);
        for (int i = valueStart; i < valueEnd; i++) {
            if (!HttpChars.isFieldValueByte(b[i] & 0xFF)) {
                throw new RequestException(ProtocolRule.FIELD_VALUE_INVALID);
            }
        }
        into.add(name(b, start, colon),
                new String(b, valueStart, valueEnd - valueStart, StandardCharsets.ISO_8859_1));
    }

    private static String name(byte[] b, int start, int end) {
        String known = HttpChars.lookup(KNOWN_NAMES, b, start, end);
        return known != null ? known : new String(b, start, end - start, StandardCharsets.US_ASCII);
    }
}
