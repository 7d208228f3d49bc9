package dev.fleche.conformance.h2.client;

/** A field block the client's decoder cannot decode (RFC 7541): the server's encoder broke a rule. */
public final class HpackException extends Exception {
    private static final long serialVersionUID = 1L;

    HpackException(String message) {
        super(message);
    }
}
