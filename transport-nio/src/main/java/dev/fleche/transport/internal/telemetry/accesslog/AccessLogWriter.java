package dev.fleche.transport.internal.telemetry.accesslog;

import dev.fleche.transport.AccessLog;

import java.io.IOException;
import java.lang.System.Logger.Level;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;

/**
 * The access log of one server: a bounded queue of {@link LogEntry} filled by the reactors and the acceptor, and
 * one writer thread (a platform daemon thread) that formats and writes them. {@link #offer} never waits: when the
 * queue is full the entry is dropped and counted. {@link #close} writes everything accepted before it, flushes and
 * closes the destination.
 *
 * <pre>
 *   reactors, acceptor ─ offer ─▶ [ bounded queue ] ─▶ writer thread: format ─▶ sink (file | System.Logger)
 *          full: dropped++                               queue empty: flush, linger 5 ms, then wait on the queue
 *                                                        STOP: flush, close, end
 * </pre>
 */
public final class AccessLogWriter {
    private static final System.Logger EVENTS = System.getLogger("dev.fleche.transport");
    private static final int BATCH = 256;
    /**
     * How long the writer waits, after emptying the queue, before it blocks on it. Under load the writer then wakes
     * once per linger and writes what came meanwhile, instead of being woken (a system call for the reactor that
     * offers) per line; lines reach the destination at most this much later.
     */
    private static final long LINGER_NANOS = TimeUnit.MILLISECONDS.toNanos(5);
    /** Put by {@link #close} behind every entry accepted before it. */
    private static final LogEntry STOP = new LogEntry();

    private final ArrayBlockingQueue<LogEntry> queue;
    private final AtomicLong dropped = new AtomicLong();
    private final LineFormat format;
    private final LogSink sink;
    private final Clock clock;
    private final Thread thread;
    private volatile boolean closed;
    private boolean failed;

    private AccessLogWriter(AccessLog options, LogSink sink, String threadName) {
        this.queue = new ArrayBlockingQueue<>(options.queueCapacity());
        this.format = new LineFormat(options.format());
        this.sink = sink;
        this.clock = options.clock();
        this.thread = new Thread(this::run, threadName);
        thread.setDaemon(true);
    }

    /** Opens the destination of {@code options} and starts the writer thread. */
    public static AccessLogWriter start(AccessLog options, String threadName) throws IOException {
        LogSink sink = options.file() != null
                ? new RotatingFile(options.file(), options.maxFileBytes(), options.keptFiles())
                : new LoggerSink(options.logger());
        AccessLogWriter writer = new AccessLogWriter(options, sink, threadName);
        writer.thread.start();
        return writer;
    }

    /** The wall clock of the log's times. */
    public Clock clock() {
        return clock;
    }

    /** Hands {@code entry} to the writer; drops and counts it when the queue is full or the log closed. Never waits. */
    public void offer(LogEntry entry) {
        if (closed || !queue.offer(entry)) {
            dropped.incrementAndGet();
        }
    }

    /** Entries dropped because the queue was full (or the log closed). */
    public long dropped() {
        return dropped.get();
    }

    /** Writes what was accepted, flushes, closes the destination, and ends the thread; idempotent. */
    public void close() throws InterruptedException {
        if (closed) {
            thread.join();
            return;
        }
        closed = true;
        queue.put(STOP); // waits, if the queue is full, until the writer has taken one entry
        thread.join();
    }

    private void run() {
        List<LogEntry> batch = new ArrayList<>(BATCH);
        StringBuilder line = new StringBuilder(512);
        boolean lingered = false;
        boolean unflushed = false;
        try {
            while (true) {
                if (queue.drainTo(batch, BATCH) == 0) {
                    if (unflushed) {
                        flush();
                        unflushed = false;
                    }
                    if (!lingered) {
                        // Not waiting on the queue: offers meanwhile do not wake this thread, one turn takes them all.
                        LockSupport.parkNanos(LINGER_NANOS);
                        lingered = true;
                        continue;
                    }
                    batch.add(queue.take()); // idle for a linger: the next offer wakes this thread
                }
                lingered = false;
                for (LogEntry entry : batch) {
                    if (entry == STOP) {
                        finish();
                        return;
                    }
                    line.setLength(0);
                    format.append(line, entry);
                    write(line);
                }
                batch.clear();
                unflushed = true;
            }
        } catch (InterruptedException e) {
            finish();
        } catch (RuntimeException | Error e) {
            EVENTS.log(Level.WARNING, "event=access-log-error conn=-1", e);
            finish();
        }
    }

    private void write(StringBuilder line) {
        try {
            sink.write(line);
            failed = false;
        } catch (IOException e) {
            dropped.incrementAndGet();
            failed(e);
        }
    }

    private void flush() {
        try {
            sink.flush();
        } catch (IOException e) {
            failed(e);
        }
    }

    private void finish() {
        try {
            sink.close();
        } catch (IOException e) {
            failed(e);
        }
    }

    /** Reports a failing destination once, until a write succeeds again. */
    private void failed(IOException e) {
        if (!failed) {
            failed = true;
            EVENTS.log(Level.WARNING, "event=access-log-error conn=-1", e);
        }
    }
}
