package dev.fleche.transport.http1;

import dev.fleche.transport.HttpFields;

/**
 * Derives a {@link RequestHead} from a request line and its checked header fields: Host (RFC 9112 3.2),
 * message body framing (RFC 9112 6), persistence (RFC 9112 9.3) and expectations (RFC 9110 10.1.1).
 *
 * <p>Framing is strict: Content-Length and Transfer-Encoding together, differing Content-Length values, or a
 * Transfer-Encoding whose final coding is not chunked are refused rather than guessed at, since two parsers that
 * guess differently are what request smuggling exploits.
 */
final class HeadInterpreter {

    private static final String HOST = "Host";
    private static final String CONTENT_LENGTH = "Content-Length";
    private static final String TRANSFER_ENCODING = "Transfer-Encoding";

    private HeadInterpreter() {
    }

    static RequestHead interpret(RequestLine line, HttpFields fields) throws RequestException {
        String host = host(line, fields);
        boolean transferEncoding = fields.contains(TRANSFER_ENCODING);
        boolean contentLength = fields.contains(CONTENT_LENGTH);
        if (transferEncoding) {
            if (line.minorVersion() == 0) {
                throw new RequestException(ProtocolRule.TRANSFER_ENCODING_IN_HTTP_1_0);
            }
            if (contentLength) {
                throw new RequestException(ProtocolRule.CONTENT_LENGTH_WITH_TRANSFER_ENCODING);
            }
            checkChunkedFinal(fields);
        }
        long length = contentLength ? contentLength(fields) : -1;
        return new RequestHead(line, fields, host, length, transferEncoding, keepAlive(line, fields),
                expectContinue(line, fields));
    }

    private static String host(RequestLine line, HttpFields fields) throws RequestException {
        String value = null;
        for (int i = 0; i < fields.size(); i++) {
            if (fields.name(i).equalsIgnoreCase(HOST)) {
                if (value != null) {
                    throw new RequestException(ProtocolRule.HOST_DUPLICATE);
                }
                value = fields.value(i);
            }
        }
        if (value == null && line.minorVersion() == 1) {
            throw new RequestException(ProtocolRule.HOST_MISSING);
        }
        if (value != null && !Authority.isValid(value, true, false)) {
            throw new RequestException(ProtocolRule.HOST_INVALID);
        }
        return line.authority() != null ? line.authority() : value;
    }

    /**
     * Checks the Transfer-Encoding list (all its fields combined): chunked must be present, final and once,
     * every coding a token; a coding before chunked is valid but not implemented. Empty elements are ignored
     * (RFC 9110 5.6.1).
     */
    private static void checkChunkedFinal(HttpFields fields) throws RequestException {
        int codings = 0;
        boolean lastChunked = false;
        for (int i = 0; i < fields.size(); i++) {
            if (!fields.name(i).equalsIgnoreCase(TRANSFER_ENCODING)) {
                continue;
            }
            String value = fields.value(i);
            for (int at = 0; at <= value.length(); ) {
                int end = HttpChars.elementEnd(value, at);
                int from = HttpChars.skipWhitespace(value, at, end);
                int to = HttpChars.trimWhitespace(value, from, end);
                at = end + 1;
                if (from == to) {
                    continue;
                }
                if (lastChunked || !HttpChars.isToken(value, from, to)) {
                    throw new RequestException(ProtocolRule.TRANSFER_ENCODING_INVALID);
                }
                lastChunked = HttpChars.equalsIgnoreCase(value, from, to, "chunked");
                codings++;
            }
        }
        if (!lastChunked) {
            throw new RequestException(ProtocolRule.TRANSFER_ENCODING_INVALID);
        }
        if (codings > 1) {
            throw new RequestException(ProtocolRule.TRANSFER_CODING_NOT_IMPLEMENTED);
        }
    }

    /** Every Content-Length value, and every element of a comma list, must be the same run of digits. */
    private static long contentLength(HttpFields fields) throws RequestException {
        long length = -1;
        for (int i = 0; i < fields.size(); i++) {
            if (!fields.name(i).equalsIgnoreCase(CONTENT_LENGTH)) {
                continue;
            }
            String value = fields.value(i);
            for (int at = 0; at <= value.length(); ) {
                int end = HttpChars.elementEnd(value, at);
                long element = digits(value, HttpChars.skipWhitespace(value, at, end),
                        HttpChars.trimWhitespace(value, at, end));
                if (length >= 0 && element != length) {
                    throw new RequestException(ProtocolRule.CONTENT_LENGTH_CONFLICT);
                }
                length = element;
                at = end + 1;
            }
        }
        return length;
    }

    private static long digits(String s, int from, int to) throws RequestException {
        if (from >= to) {
            throw new RequestException(ProtocolRule.CONTENT_LENGTH_INVALID);
        }
        long value = 0;
        for (int i = from; i < to; i++) {
            int digit = s.charAt(i) - '0';
            if (digit < 0 || digit > 9 || value > (Long.MAX_VALUE - digit) / 10) {
                throw new RequestException(ProtocolRule.CONTENT_LENGTH_INVALID);
            }
            value = value * 10 + digit;
        }
        return value;
    }

    private static boolean keepAlive(RequestLine line, HttpFields fields) {
        boolean close = false;
        boolean keepAlive = false;
        for (int i = 0; i < fields.size(); i++) {
            if (!fields.name(i).equalsIgnoreCase("Connection")) {
                continue;
            }
            String value = fields.value(i);
            for (int at = 0; at <= value.length(); ) {
                int end = HttpChars.elementEnd(value, at);
                int from = HttpChars.skipWhitespace(value, at, end);
                int to = HttpChars.trimWhitespace(value, from, end);
                close |= HttpChars.equalsIgnoreCase(value, from, to, "close");
                keepAlive |= HttpChars.equalsIgnoreCase(value, from, to, "keep-alive");
                at = end + 1;
            }
        }
        return !close && (line.minorVersion() == 1 || keepAlive);
    }

    /** On HTTP/1.1, every Expect element must be 100-continue; HTTP/1.0 expectations are ignored. */
    private static boolean expectContinue(RequestLine line, HttpFields fields) throws RequestException {
        if (line.minorVersion() == 0) {
            return false;
        }
        boolean expect = false;
        for (int i = 0; i < fields.size(); i++) {
            if (!fields.name(i).equalsIgnoreCase("Expect")) {
                continue;
            }
            String value = fields.value(i);
            for (int at = 0; at <= value.length(); ) {
                int end = HttpChars.elementEnd(value, at);
                int from = HttpChars.skipWhitespace(value, at, end);
                int to = HttpChars.trimWhitespace(value, from, end);
                if (from < to && !HttpChars.equalsIgnoreCase(value, from, to, "100-continue")) {
                    throw new RequestException(ProtocolRule.EXPECTATION_FAILED);
                }
                expect |= from < to;
                at = end + 1;
            }
        }
        return expect;
    }
}
