package dev.fleche.transport.http1;

/**
 * Receives decoded body bytes. The range points into the caller's buffer, which is only valid during the call:
 * copy what must outlive it.
 */
@FunctionalInterface
public interface BodySink {

    /** Body bytes {@code buf[offset, offset + length)}; {@code length} is at least 1. */
    void data(byte[] buf, int offset, int length);
}
