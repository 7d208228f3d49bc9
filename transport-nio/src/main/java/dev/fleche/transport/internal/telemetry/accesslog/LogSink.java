package dev.fleche.transport.internal.telemetry.accesslog;

import java.io.IOException;

/** Where formatted lines go: a rotating file or a {@code System.Logger}. Used by the writer thread only. */
interface LogSink {
    /** Writes one line ({@code line} has no line end). */
    void write(CharSequence line) throws IOException;

    /** Makes what was written visible (the queue is empty for now). */
    void flush() throws IOException;

    /** Flushes and releases the destination. */
    void close() throws IOException;
}
