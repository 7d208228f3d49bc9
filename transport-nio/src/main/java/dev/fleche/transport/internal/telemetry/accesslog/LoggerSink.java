package dev.fleche.transport.internal.telemetry.accesslog;

import java.lang.System.Logger;
import java.lang.System.Logger.Level;

/** Lines to a {@code System.Logger} at {@code INFO}, one message per line; the logging backend does the rest. */
final class LoggerSink implements LogSink {
    private final Logger logger;

    LoggerSink(String name) {
        this.logger = System.getLogger(name);
    }

    @Override
    public void write(CharSequence line) {
        logger.log(Level.INFO, line.toString());
    }

    @Override
    public void flush() {
        // the backend's business
    }

    @Override
    public void close() {
        // the backend's business
    }
}
