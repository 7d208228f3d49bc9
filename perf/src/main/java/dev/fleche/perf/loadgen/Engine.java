package dev.fleche.perf.loadgen;

import dev.fleche.perf.loadgen.LoadSpec.Mode;
import org.HdrHistogram.Histogram;

import java.io.IOException;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.LongSupplier;

/**
 * Runs one {@link LoadSpec}: splits the connections among {@link Worker} threads, steers them through the phases
 * of the mode (asking the server under test through {@link ServerControl} where a phase needs it), has the
 * {@link IntervalLog} written, and merges what the workers counted into a {@link LoadReport}.
 *
 * <pre>
 *   CLOSED/OPEN  start --warm-up--> recording (log an interval every second) --duration--> stop
 *   IDLE         start --all opened, one response each--> ready hook --hold--> stop
 *   LONG_POLL    clear stale waiters --> start (all send the poll) --server reports all waiting--> ready hook
 *                --broadcast--> all resumed (or timeout) --> [next cycle: all poll again] --> stop
 *   SSE          read PATH/subscribers --> start (all subscribe) --the server counts them all (or all heads
 *                arrived)--> ready hook --> warm-up broadcasts --> recording hook --> measured broadcasts (one
 *                POST PATH/broadcast per interval) --every event arrived (or timeout)--> recorded hook --> stop
 * </pre>
 */
public final class Engine {
    /** The control paths of the long-poll mode, beside the poll path. */
    public static final String WAITING_PATH = "/waiting";
    public static final String BROADCAST_PATH = "/broadcast";
    /** The control paths of the SSE mode, below the stream's path. */
    public static final String SUBSCRIBERS_SUFFIX = "/subscribers";
    public static final String BROADCAST_SUFFIX = "/broadcast";

    /** Called by the engine on the caller's thread. */
    public interface Hooks {
        /**
         * IDLE: every connection opened; LONG_POLL: every client waits (before each broadcast); SSE: every stream
         * subscribed (before the first broadcast). May block.
         */
        default void ready(int cycle, int connections) {
        }

        /** LONG_POLL: every poll of {@code cycle} was answered (or timed out), the last {@code millis} after its broadcast. */
        default void resumed(int cycle, double millis) {
        }

        /** CLOSED/OPEN/SSE: the warm-up is over and recording starts now. */
        default void recording() {
        }

        /** SSE: the measured window ended (its last event arrived, or the wait for it ran out); streams still open. */
        default void recorded() {
        }

        /** CLOSED/OPEN: once a second while recording, with the responses of that second. */
        default void tick(int second, long responses) {
        }
    }

    private final LoadSpec spec;
    private final Hooks hooks;
    private final ServerControl server;
    private final TlsClient tlsClient;
    private final List<Worker> workers = new ArrayList<>();
    private volatile boolean stopped;
    private volatile boolean sending = true;
    private volatile boolean recording;
    private volatile long broadcastNanos;
    private volatile int cycle = 1;
    private volatile Throwable workerFailure;
    /** IDLE: connections answered or given up; SSE: streams gone (given up, or ended by the server). */
    private final AtomicInteger finished = new AtomicInteger();
    private final AtomicInteger failedConnections = new AtomicInteger();
    private final AtomicLong answered = new AtomicLong();
    private final AtomicInteger subscribed = new AtomicInteger();
    private final AtomicLong delivered = new AtomicLong();

    private Engine(LoadSpec spec, Hooks hooks) {
        this.spec = spec;
        this.hooks = hooks;
        this.server = new ServerControl(spec);
        this.tlsClient = spec.tls() == LoadSpec.Tls.NONE ? null
                : new TlsClient(spec.tls(), spec.port(), spec.connections());
    }

    /** Runs {@code spec} to its end. */
    public static LoadReport run(LoadSpec spec) throws IOException, InterruptedException {
        return run(spec, new Hooks() { });
    }

    /** Runs {@code spec} to its end, calling {@code hooks} on the way. */
    public static LoadReport run(LoadSpec spec, Hooks hooks) throws IOException, InterruptedException {
        return new Engine(spec, hooks).execute();
    }

    LoadSpec spec() { return spec; }
    /** The run's TLS client side, null for plain HTTP. */
    TlsClient tlsClient() { return tlsClient; }
    boolean stopped() { return stopped; }
    boolean sending() { return sending; }
    boolean recording() { return recording; }
    long broadcastNanos() { return broadcastNanos; }
    int cycle() { return cycle; }
    void finished(int n) { finished.addAndGet(n); }
    void answered(int n) { answered.addAndGet(n); }
    void subscribed() { subscribed.incrementAndGet(); }
    void delivered(int events) { delivered.addAndGet(events); }
    void connectionFailed() { failedConnections.incrementAndGet(); }
    void workerFailed(Throwable t) { workerFailure = t; }

    private LoadReport execute() throws IOException, InterruptedException {
        if (spec.mode() == Mode.LONG_POLL) {
            server.resumePolls(); // resume polls left over from an earlier run, so the waiting count is ours
        }
        long subscribersBefore = spec.mode() == Mode.SSE ? server.subscribers() : 0; // streams left over count too
        startWorkers();
        Histogram latency = new Histogram(3);
        Histogram service = new Histogram(3);
        long resumed = 0;
        double resumeAll = 0;
        long started = System.nanoTime();
        double seconds;
        try (IntervalLog log = new IntervalLog(spec)) {
            switch (spec.mode()) {
                case CLOSED, OPEN -> seconds = loop(log, latency, service);
                case IDLE -> {
                    awaitCount(finished::get, spec.connections(), openDeadline());
                    hooks.ready(1, spec.connections() - failedConnections.get());
                    sleep(spec.hold());
                    seconds = (System.nanoTime() - started) / 1e9;
                }
                case LONG_POLL -> {
                    for (int cycle = 1; cycle <= spec.cycles(); cycle++) {
                        long[] r = pollCycle(cycle, latency, service);
                        resumed += r[0];
                        resumeAll = Math.max(resumeAll, r[1] / 1e6);
                        hooks.resumed(cycle, r[1] / 1e6);
                    }
                    seconds = (System.nanoTime() - started) / 1e9;
                }
                case SSE -> seconds = broadcasts(subscribersBefore);
                default -> throw new IllegalStateException(spec.mode().name());
            }
            sending = false;
            recording = false;
            if (spec.mode() != Mode.CLOSED && spec.mode() != Mode.OPEN) {
                drain(latency, service);
                log.interval(latency, service, started);
            }
        } finally {
            stopped = true;
            for (Worker w : workers) {
                w.join(TimeUnit.SECONDS.toMillis(10));
            }
        }
        if (workerFailure != null) {
            throw new IOException("a load generator thread failed", workerFailure);
        }
        return report(seconds, resumed, resumeAll, latency, service);
    }

    private void startWorkers() throws UnknownHostException {
        InetAddress target = InetAddress.getByName(spec.host());
        int n = spec.connections();
        List<List<Conn>> shares = new ArrayList<>();
        for (int t = 0; t < spec.threads(); t++) {
            shares.add(new ArrayList<>());
        }
        byte[] request = spec.requestBytes();
        boolean spread = n > spec.perAddress() && target.isLoopbackAddress() && target.getAddress().length == 4;
        for (int i = 0; i < n; i++) {
            InetAddress source = null;
            if (spread) {
                int k = i / spec.perAddress();
                source = InetAddress.getByAddress(new byte[] {127, 0, (byte) (k / 250), (byte) (1 + k % 250)});
            }
            shares.get(i % spec.threads()).add(new Conn(i, source, spec.depth(), request.length, spec.expectBody()));
        }
        for (int t = 0; t < spec.threads(); t++) {
            double share = spec.rate() * shares.get(t).size() / n;
            Worker w = new Worker(this, t, shares.get(t), share);
            workers.add(w);
        }
        workers.forEach(Thread::start);
    }

    /** CLOSED/OPEN: warm-up, then the recorded window; returns its length in seconds. */
    private double loop(IntervalLog log, Histogram latency, Histogram service) throws InterruptedException {
        sleep(spec.warmup());
        for (Worker w : workers) { // drop what the warm-up recorded
            w.stats.latency.getIntervalHistogram();
            w.stats.service.getIntervalHistogram();
        }
        hooks.recording();
        recording = true;
        long t0 = System.nanoTime();
        long end = t0 + spec.duration().toNanos();
        long prev = 0;
        for (int second = 1; ; second++) {
            long next = Math.min(end, t0 + TimeUnit.SECONDS.toNanos(second));
            sleepUntil(next);
            long before = latency.getTotalCount();
            long from = System.nanoTime();
            boolean last = from >= end;
            if (last) {
                recording = false;
                sending = false;
            }
            Histogram[] interval = drain(latency, service);
            log.interval(interval[0], spec.mode() == Mode.OPEN ? interval[1] : null, prev == 0 ? t0 : prev);
            prev = from;
            hooks.tick(second, latency.getTotalCount() - before);
            if (last) {
                return (from - t0) / 1e9;
            }
            if (workerFailure != null) {
                recording = false;
                return (from - t0) / 1e9;
            }
        }
    }

    /** Adds every worker's interval histograms to the totals; returns the intervals {latency, service}. */
    private Histogram[] drain(Histogram latency, Histogram service) {
        Histogram l = new Histogram(3);
        Histogram s = new Histogram(3);
        for (Worker w : workers) {
            l.add(w.stats.latency.getIntervalHistogram());
            s.add(w.stats.service.getIntervalHistogram());
        }
        latency.add(l);
        service.add(s);
        return new Histogram[] {l, s};
    }

    /** One long-poll cycle; returns {count the broadcast reported, nanos from the broadcast to the last resume}. */
    private long[] pollCycle(int cycle, Histogram latency, Histogram service) throws IOException, InterruptedException {
        this.cycle = cycle; // the workers send this cycle's polls (the first ones go out as connections open)
        long deadline = openDeadline();
        while (server.waiting() < spec.connections() - failedConnections.get() && System.nanoTime() < deadline
                && workerFailure == null) {
            Thread.sleep(50);
        }
        int failedBefore = failedConnections.get();
        long expected = spec.connections() - failedBefore;
        hooks.ready(cycle, (int) expected);
        long before = answered.get();
        broadcastNanos = System.nanoTime();
        long count = server.resumePolls();
        long target = before + expected;
        awaitCount(() -> answered.get() + failedConnections.get() - failedBefore, target, System.nanoTime() + spec.timeout().toNanos());
        Histogram cycleLatency = drain(latency, service)[0];
        broadcastNanos = 0;
        return new long[] {count, cycleLatency.getTotalCount() == 0 ? 0 : cycleLatency.getMaxValue()};
    }

    /**
     * SSE: waits until the server counts every stream subscribed (or every stream's head arrived), then has it
     * broadcast the warm-up's and the window's events, one per interval, and waits for the last to arrive; returns
     * the measured window in seconds.
     */
    private double broadcasts(long subscribersBefore) throws IOException, InterruptedException {
        long deadline = openDeadline();
        int n = spec.connections();
        while (server.subscribers() - subscribersBefore < n - finished.get() && subscribed.get() < n - finished.get()
                && System.nanoTime() < deadline && workerFailure == null) {
            Thread.sleep(50);
        }
        hooks.ready(1, Math.max(subscribed.get(), (int) (server.subscribers() - subscribersBefore)));
        long warmup = spec.warmupTicks();
        long total = warmup + spec.ticks();
        long interval = spec.interval().toNanos();
        long t0 = System.nanoTime();
        long windowStart = t0;
        for (long k = 0; k < total && workerFailure == null; k++) {
            sleepUntil(t0 + k * interval);
            if (k == warmup) {
                hooks.recording();
                recording = true;
                windowStart = System.nanoTime();
            }
            server.broadcastEvent();
        }
        sleepUntil(t0 + total * interval); // the last broadcast's interval belongs to the window
        awaitCount(() -> delivered.get() + (long) finished.get() * total, (long) n * total,
                System.nanoTime() + spec.timeout().toNanos());
        double seconds = (System.nanoTime() - windowStart) / 1e9;
        recording = false;
        hooks.recorded();
        return seconds;
    }

    /** How long opening every connection may take: the timeout plus 10 ms per connection. */
    private long openDeadline() {
        return System.nanoTime() + spec.timeout().toNanos() + TimeUnit.MILLISECONDS.toNanos(10L * spec.connections());
    }

    private void awaitCount(LongSupplier count, long target, long deadlineNanos) throws InterruptedException {
        while (count.getAsLong() < target && System.nanoTime() < deadlineNanos && workerFailure == null) {
            Thread.sleep(5);
        }
    }

    private static void sleep(Duration d) throws InterruptedException {
        sleepUntil(System.nanoTime() + d.toNanos());
    }

    private static void sleepUntil(long nanos) throws InterruptedException {
        for (long left; (left = nanos - System.nanoTime()) > 0; ) {
            TimeUnit.NANOSECONDS.sleep(Math.min(left, TimeUnit.MILLISECONDS.toNanos(100)));
        }
    }

    private LoadReport report(double seconds, long resumed, double resumeAll, Histogram latency, Histogram service) {
        Stats s = new Stats();
        String firstError = null;
        for (Worker w : workers) {
            Stats t = w.stats;
            s.requests += t.requests;
            s.statusErrors += t.statusErrors;
            s.bodyErrors += t.bodyErrors;
            s.socketErrors += t.socketErrors;
            s.timeouts += t.timeouts;
            s.connectErrors += t.connectErrors;
            s.dropped += t.dropped;
            s.reconnects += t.reconnects;
            s.closedByServer += t.closedByServer;
            s.events += t.events;
            s.fullHandshakes += t.fullHandshakes;
            s.resumedHandshakes += t.resumedHandshakes;
            if (s.tlsSession == null) {
                s.tlsSession = t.tlsSession;
            }
            if (firstError == null) {
                firstError = t.firstError;
            }
        }
        int n = spec.connections();
        int opened = n - failedConnections.get();
        int stillOpen = 0;
        long incomplete = 0;
        switch (spec.mode()) {
            case IDLE -> {
                opened = (int) (s.requests - s.statusErrors - s.bodyErrors);
                stillOpen = (int) Math.max(0, opened - s.closedByServer);
            }
            case SSE -> incomplete = Math.max(0, (long) n * (spec.warmupTicks() + spec.ticks()) - delivered.get());
            case LONG_POLL -> incomplete = Math.max(0, (long) opened * spec.cycles() - s.requests);
            default -> { }
        }
        return new LoadReport(spec.describe(), spec.mode(), s.requests, seconds, s.statusErrors, s.bodyErrors,
                s.socketErrors, s.timeouts, s.connectErrors, s.dropped, s.reconnects, s.closedByServer, opened,
                stillOpen, s.events, incomplete, resumed, resumeAll, s.fullHandshakes, s.resumedHandshakes,
                s.tlsSession, latency, service, firstError);
    }
}
