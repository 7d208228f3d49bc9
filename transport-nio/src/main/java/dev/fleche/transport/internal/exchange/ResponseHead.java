package dev.fleche.transport.internal.exchange;

import dev.fleche.transport.HttpFields;

/**
 * The head of a streamed response as the handler gave it, before any protocol frames it: status, reason phrase (or
 * null), fields, and the body's length ({@code -1}: not known, so HTTP/1.1 chunks it).
 */
public record ResponseHead(int status, String reason, HttpFields fields, long contentLength) {
    public boolean chunked() {
        return contentLength < 0;
    }
}
