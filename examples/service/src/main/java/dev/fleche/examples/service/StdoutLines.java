package dev.fleche.examples.service;

import java.io.PrintStream;
import java.util.concurrent.locks.ReentrantLock;
import java.util.logging.Handler;
import java.util.logging.Level;
import java.util.logging.LogRecord;
import java.util.logging.Logger;

/**
 * Routes one {@code System.Logger} (java.util.logging underneath, the JDK's default) to standard output, each
 * message as one line and nothing else — no timestamp or class prefix, so that JSON access-log lines stay JSON for
 * the log collector reading the container's output.
 */
final class StdoutLines extends Handler {
    /** Kept: java.util.logging holds its loggers weakly, and a collected one would lose this handler. */
    private static Logger routed;
    private static final ReentrantLock ROUTING = new ReentrantLock();

    private final PrintStream out;

    private StdoutLines(PrintStream out) {
        this.out = out;
    }

    /** Sends the messages of logger {@code name} (INFO and above) to {@code System.out} (as it is now) only. */
    static void route(String name) {
        ROUTING.lock(); // a lock, not a monitor: a virtual thread waiting here does not pin its carrier
        try {
            Logger logger = Logger.getLogger(name);
            for (Handler handler : logger.getHandlers()) {
                if (handler instanceof StdoutLines) {
                    logger.removeHandler(handler); // routed before (a restart in the same JVM): once is enough
                }
            }
            logger.setUseParentHandlers(false);
            logger.setLevel(Level.INFO);
            logger.addHandler(new StdoutLines(System.out));
            routed = logger;
        } finally {
            ROUTING.unlock();
        }
    }

    @Override
    public void publish(LogRecord record) {
        if (isLoggable(record)) {
            out.println(record.getMessage());
        }
    }

    @Override
    public void flush() {
        out.flush();
    }

    @Override
    public void close() {
        flush();
    }
}
