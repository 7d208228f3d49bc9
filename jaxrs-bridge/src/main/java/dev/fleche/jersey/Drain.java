package dev.fleche.jersey;

import dev.fleche.transport.HttpServer;

import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.ReentrantLock;

/**
 * The stop sequence of a server behind a load balancer, run once:
 *
 * <pre>
 *  [SERVING] ──run()──▶ [DELAYING]  readiness 503 at once ({@link Health#drain()}); requests still served
 *                          │ after policy.delay (or {@link #skipDelay()})
 *                          ▼
 *                       [STOPPING]  suspended responses ended (long-polls time out now, SSE streams closed, later
 *                          │        suspends end at once); listener closed; keep-alive responses carry
 *                          │        Connection: close; requests in flight get policy.grace, then are closed
 *                          ▼
 *                       [STOPPED]   onShutdown ran; {@link Outcome} tells whether everything finished in time
 * </pre>
 *
 * {@link FlecheHttpServer#drainOnSigterm(DrainPolicy, Runnable)} runs it when the process gets SIGTERM (or
 * SIGINT) and then exits; tests and embedders call {@link #run()} themselves.
 */
public final class Drain {
    /** Where a drain is. */
    public enum Phase { SERVING, DELAYING, STOPPING, STOPPED }

    /**
     * What a drain did.
     *
     * @param clean          every exchange finished within the grace
     * @param suspendedEnded suspended responses ended when the delay was over
     * @param took           from {@link #run()} to stopped
     */
    public record Outcome(boolean clean, int suspendedEnded, Duration took) {
    }

    private static final System.Logger LOG = System.getLogger(Drain.class.getName());

    /** What the drain stops: the server's own stop with a grace (its transport's, then its container's). */
    interface Stop {
        boolean stop(Duration grace) throws InterruptedException;
    }

    private final HttpServer transport;
    private final FlecheContainer container;
    private final Stop stop;
    private final DrainPolicy policy;
    private final ReentrantLock lock = new ReentrantLock();
    private final CountDownLatch delayOver = new CountDownLatch(1);
    private volatile Phase phase = Phase.SERVING;
    private Outcome outcome;

    /** A drain of the server made of {@code transport} and {@code container}, which {@code stop} stops. */
    Drain(HttpServer transport, FlecheContainer container, Stop stop, DrainPolicy policy) {
        this.transport = transport;
        this.container = container;
        this.stop = stop;
        this.policy = policy;
    }

    /** The current phase. */
    public Phase phase() {
        return phase;
    }

    /** The policy. */
    public DrainPolicy policy() {
        return policy;
    }

    /** Ends the delay now (a second signal does this: the operator is in a hurry). */
    public void skipDelay() {
        delayOver.countDown();
    }

    /**
     * Runs the sequence in the calling thread and returns when the server has stopped; a second call waits for
     * the first and returns the same outcome.
     */
    public Outcome run() throws InterruptedException {
        lock.lock();
        try {
            if (outcome != null) {
                return outcome;
            }
            long started = System.nanoTime();
            phase = Phase.DELAYING;
            Health health = health();
            if (health != null) {
                health.drain();
            }
            LOG.log(System.Logger.Level.INFO, () -> "drain.delay " + policy.delay().toMillis() + " ms, readiness "
                    + (health == null ? "not registered" : "503"));
            delayOver.await(policy.delay().toNanos(), TimeUnit.NANOSECONDS);
            phase = Phase.STOPPING;
            transport.beginStop(); // answers from now on say Connection: close
            int ended = container.endSuspended();
            LOG.log(System.Logger.Level.INFO, () -> "drain.stop suspended ended=" + ended + ", grace "
                    + policy.grace().toMillis() + " ms");
            boolean clean = stop.stop(policy.grace());
            phase = Phase.STOPPED;
            outcome = new Outcome(clean, ended, Duration.ofNanos(System.nanoTime() - started));
            LOG.log(clean ? System.Logger.Level.INFO : System.Logger.Level.WARNING, () -> "drain.done " + outcome);
            return outcome;
        } finally {
            lock.unlock();
        }
    }

    /** The {@link Health} registered with the served application, if any. */
    private Health health() {
        for (Object instance : container.getConfiguration().getInstances()) {
            if (instance instanceof Health) {
                return (Health) instance;
            }
        }
        return null;
    }
}
