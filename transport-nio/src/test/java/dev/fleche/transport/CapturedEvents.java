package dev.fleche.transport;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.logging.Handler;
import java.util.logging.Level;
import java.util.logging.LogRecord;
import java.util.logging.Logger;

/**
 * The transport's structured events ({@code System.Logger} "dev.fleche.transport", backed by java.util.logging in
 * tests) collected in order while open: {@link #start()} turns DEBUG on and attaches, {@link #close()} restores.
 */
final class CapturedEvents extends Handler implements AutoCloseable {
    private final Logger logger = Logger.getLogger("dev.fleche.transport");
    private final List<String> events = new CopyOnWriteArrayList<>();
    private Level previous;

    /** Starts collecting; returns {@code this}. */
    CapturedEvents start() {
        previous = logger.getLevel();
        logger.setLevel(Level.FINE); // System.Logger DEBUG
        logger.addHandler(this);
        return this;
    }

    /** The messages collected so far ({@code event=NAME conn=ID ...}), live. */
    List<String> events() {
        return events;
    }

    @Override
    public void publish(LogRecord record) {
        events.add(record.getMessage());
    }

    @Override
    public void flush() {
    }

    @Override
    public void close() {
        logger.removeHandler(this);
        logger.setLevel(previous);
    }
}
