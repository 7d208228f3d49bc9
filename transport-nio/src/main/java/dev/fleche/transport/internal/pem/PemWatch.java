package dev.fleche.transport.internal.pem;

import java.lang.System.Logger.Level;
import java.time.Duration;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;

/**
 * Runs a reload check every interval on one daemon thread of its own, never on a reactor: reading three small files
 * and, when they changed, parsing a key and signing once takes a few milliseconds that no connection should wait for.
 * Polling rather than a file watch: Kubernetes updates a mounted Secret by swapping a {@code ..data} symbolic link,
 * an editor writes in place, a file may sit behind a link into another directory or on a network file system — a
 * read of the files' bytes sees all of them alike, and costs nothing measurable at one per interval.
 */
public final class PemWatch implements AutoCloseable {
    private final ScheduledExecutorService thread;

    private PemWatch(Runnable check, Duration interval, String name) {
        ScheduledThreadPoolExecutor executor = new ScheduledThreadPoolExecutor(1, task -> {
            Thread t = new Thread(task, name);
            t.setDaemon(true);
            return t;
        });
        executor.setRemoveOnCancelPolicy(true);
        executor.scheduleWithFixedDelay(() -> {
            try {
                check.run();
            } catch (RuntimeException | Error e) {
                // ours, not the files' (those are refused and logged by the check): keep watching
                System.getLogger("dev.fleche.transport").log(Level.WARNING, "event=tls-reload-error", e);
            }
        }, interval.toNanos(), interval.toNanos(), TimeUnit.NANOSECONDS);
        this.thread = executor;
    }

    /** Starts checking every {@code interval} on a daemon thread named {@code name}. */
    public static PemWatch start(Runnable check, Duration interval, String name) {
        return new PemWatch(check, interval, name);
    }

    /** Stops checking (a check under way finishes). */
    @Override
    public void close() {
        thread.shutdownNow();
    }
}
