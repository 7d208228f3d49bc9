package dev.fleche.validation;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.logging.Handler;
import java.util.logging.LogRecord;
import java.util.logging.Logger;

/** Collects the records of the module's logger ({@code System.Logger} goes to java.util.logging here). */
final class LogCapture implements AutoCloseable {
    private final Logger logger = Logger.getLogger("dev.fleche.validation");
    final List<LogRecord> records = new CopyOnWriteArrayList<>();
    private final Handler handler = new Handler() {
        @Override
        public void publish(LogRecord record) {
            records.add(record);
        }

        @Override
        public void flush() {
        }

        @Override
        public void close() {
        }
    };

    LogCapture() {
        logger.addHandler(handler);
    }

    /** The record whose message mentions {@code text}, or null. */
    LogRecord find(String text) {
        for (LogRecord r : records) {
            if (r.getMessage() != null && r.getMessage().contains(text)) {
                return r;
            }
        }
        return null;
    }

    @Override
    public void close() {
        logger.removeHandler(handler);
    }
}
