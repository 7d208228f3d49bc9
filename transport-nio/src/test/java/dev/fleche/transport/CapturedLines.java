package dev.fleche.transport;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.logging.Handler;
import java.util.logging.Level;
import java.util.logging.LogRecord;
import java.util.logging.Logger;

/**
 * The lines of an access log written to a {@code System.Logger} (java.util.logging in tests), collected in order.
 * Each instance uses a logger name of its own. {@link #block()} makes the log's writer thread wait inside the next
 * line it writes until {@link #release()}: a full queue on demand.
 */
final class CapturedLines extends Handler implements AutoCloseable {
    private static int instances;

    private final String name;
    private final Logger logger;
    private final List<String> lines = new CopyOnWriteArrayList<>();
    private volatile CountDownLatch gate;
    private final CountDownLatch entered = new CountDownLatch(1);

    CapturedLines() {
        synchronized (CapturedLines.class) {
            name = "test.access." + (++instances);
        }
        logger = Logger.getLogger(name);
        logger.setUseParentHandlers(false);
        logger.setLevel(Level.INFO);
        logger.addHandler(this);
    }

    /** The logger name to give {@code AccessLog.Builder#logger}. */
    String name() {
        return name;
    }

    /** The lines so far, live. */
    List<String> lines() {
        return lines;
    }

    /** Waits until {@code n} lines were written; returns them. */
    List<String> await(int n) {
        Await.until(n + " access-log lines, have " + lines, () -> lines.size() >= n);
        return lines;
    }

    /** From now on the writer waits in its next line until {@link #release()}. */
    void block() {
        gate = new CountDownLatch(1);
    }

    /** Waits until the writer is held by {@link #block()}. */
    void awaitBlocked() throws InterruptedException {
        if (!entered.await(10, TimeUnit.SECONDS)) {
            throw new AssertionError("the access-log writer never reached the blocked line");
        }
    }

    void release() {
        CountDownLatch held = gate;
        gate = null;
        if (held != null) {
            held.countDown();
        }
    }

    @Override
    public void publish(LogRecord record) {
        CountDownLatch held = gate;
        if (held != null) {
            entered.countDown();
            try {
                held.await(30, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
        lines.add(record.getMessage());
    }

    @Override
    public void flush() {
    }

    @Override
    public void close() {
        release();
        logger.removeHandler(this);
    }
}
