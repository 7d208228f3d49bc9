package dev.fleche.perf.soak;

import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;

/**
 * The soak with faults: starts a {@link SoakServer} process, then
 *
 * <pre>
 *   WARM_UP (10 % of the time, 5..30 s: the mix, uncounted) -> quiesce -> BASELINE (fds, threads, timers, heap
 *   after a full GC) -> RUN (the mix at a fixed rate for the set time, faults included, broadcasts every 250 ms)
 *   -> DRAIN (clients finish) -> quiesce -> AFTER (same figures, awaited up to 30 s) -> PROMPT (20 hellos) -> verdict
 * </pre>
 *
 * The verdict fails on any problem (a response to the wrong request, a malformed or second response, a failed
 * checked exchange), a resource outside ±5 % of its baseline, a prompt check slower than 1 s, or no checked response.
 * Usage: {@code Soak [--seconds S] [--rate PER_SECOND] [--clients N] [--server-log FILE]}; exit 0 when it passes, 1 otherwise.
 */
public final class Soak {
    private static final long PROMPT_NANOS = TimeUnit.SECONDS.toNanos(1);

    private final int seconds;
    private final int rate;
    private final int clients;
    private final Path serverLog;

    private Soak(int seconds, int rate, int clients, Path serverLog) {
        this.seconds = seconds;
        this.rate = rate;
        this.clients = clients;
        this.serverLog = serverLog;
    }

    public static void main(String[] args) throws Exception {
        int seconds = 60;
        int rate = 100;
        int clients = 128;
        Path log = Path.of(System.getProperty("java.io.tmpdir"), "soak-server.log");
        for (int i = 0; i + 1 < args.length; i += 2) {
            switch (args[i]) {
                case "--seconds" -> seconds = Integer.parseInt(args[i + 1]);
                case "--rate" -> rate = Integer.parseInt(args[i + 1]);
                case "--clients" -> clients = Integer.parseInt(args[i + 1]);
                case "--server-log" -> log = Path.of(args[i + 1]);
                default -> throw new IllegalArgumentException("unknown option " + args[i]);
            }
        }
        if (seconds < 1 || rate < 1 || clients < 1) {
            throw new IllegalArgumentException("seconds, rate and clients must be positive");
        }
        System.exit(new Soak(seconds, rate, clients, log).run() ? 0 : 1);
    }

    private boolean run() throws Exception {
        Process server = startServer();
        try {
            int port = awaitReady(server);
            System.out.printf("soak: server pid %d port %d; %d s at %d/s, %d clients%n", server.pid(), port,
                    seconds, rate, clients);
            Traffic warmTraffic = new Traffic(port, new Tally());
            drive(warmTraffic, Math.max(5, Math.min(30, seconds / 10)));
            Baseline before = settle(server, warmTraffic, null);
            String threadsBefore = warmTraffic.control("stats", "GET", "/soak/threads");
            System.out.println("soak: baseline " + before);

            Tally tally = new Tally();
            Traffic traffic = new Traffic(port, tally);
            long started = System.nanoTime();
            drive(traffic, seconds);
            System.out.printf("soak: ran %.1f s%n", (System.nanoTime() - started) / 1e9);
            Baseline after = settle(server, traffic, before);
            System.out.println("soak: after    " + after);
            if (after.threads() != before.threads()) {
                System.out.println("soak: threads before " + threadsBefore);
                System.out.println("soak: threads after  " + traffic.control("stats", "GET", "/soak/threads"));
            }
            long slowest = prompt(traffic);
            return verdict(tally, before, after, slowest);
        } finally {
            server.destroy();
            if (!server.waitFor(10, TimeUnit.SECONDS)) {
                server.destroyForcibly();
            }
        }
    }

    /** The server JVM, its output (warnings of aborted exchanges, mostly) to {@code soak-server.log}. */
    private Process startServer() throws IOException {
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        List<String> command = List.of(java, "-Xms256m", "-Xmx256m", "-cp", System.getProperty("java.class.path"),
                SoakServer.class.getName(), "0");
        System.out.println("soak: server log " + serverLog.toAbsolutePath());
        return new ProcessBuilder(command).redirectErrorStream(true)
                .redirectOutput(ProcessBuilder.Redirect.to(serverLog.toFile())).start();
    }

    private int awaitReady(Process server) throws IOException, InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        while (System.nanoTime() < deadline && server.isAlive()) {
            for (String line : java.nio.file.Files.readAllLines(serverLog, StandardCharsets.UTF_8)) {
                if (line.startsWith("READY ")) {
                    return Integer.parseInt(line.substring(6).trim());
                }
            }
            TimeUnit.MILLISECONDS.sleep(100);
        }
        throw new IOException("the soak server printed no READY line within 60 s; see " + serverLog);
    }

    /**
     * Runs the mix at {@link #rate} per second for {@code runSeconds}, plus broadcasts (long-poll and SSE) every
     * 250 ms; then lets every client finish (broadcasting until then, so no long-poll is left waiting).
     */
    private void drive(Traffic traffic, int runSeconds) throws InterruptedException {
        ThreadPoolExecutor pool = new ThreadPoolExecutor(clients, clients, 30, TimeUnit.SECONDS,
                new ArrayBlockingQueue<>(clients), new ThreadPoolExecutor.AbortPolicy());
        ScheduledExecutorService ticker = Executors.newScheduledThreadPool(2);
        int total = Traffic.Kind.totalWeight();
        java.util.concurrent.ScheduledFuture<?> ticks = ticker.scheduleAtFixedRate(() -> {
            Traffic.Kind kind = Traffic.Kind.pick(ThreadLocalRandom.current().nextInt(total));
            try {
                pool.execute(() -> traffic.run(kind));
            } catch (java.util.concurrent.RejectedExecutionException e) {
                traffic.tally().skipped();
            }
        }, 0, TimeUnit.SECONDS.toNanos(1) / rate, TimeUnit.NANOSECONDS);
        ticker.scheduleWithFixedDelay(() -> broadcast(traffic), 250, 250, TimeUnit.MILLISECONDS);
        ticker.schedule(() -> {
            ticks.cancel(false);
            pool.shutdown();
        }, runSeconds, TimeUnit.SECONDS);
        if (!pool.awaitTermination(runSeconds + 120L, TimeUnit.SECONDS)) {
            traffic.tally().problem("drain", "clients still busy 120 s after the end");
            pool.shutdownNow();
        }
        ticker.shutdownNow();
        ticker.awaitTermination(10, TimeUnit.SECONDS);
        broadcast(traffic);
    }

    private static void broadcast(Traffic traffic) {
        try {
            traffic.control("broadcast", "POST", "/broadcast");
            traffic.control("broadcast", "POST", "/sse/broadcast");
        } catch (IOException | RuntimeException e) {
            traffic.tally().problem("broadcast", "failed: " + e);
        }
    }

    /**
     * Waits for the server to settle: no connection of ours left (fds and timers stop falling), then a full GC.
     * With a baseline, waits up to 30 s for the figures to return to it; without one, for two equal readings.
     */
    private static Baseline settle(Process server, Traffic traffic, Baseline baseline) throws Exception {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        Baseline last = null;
        while (true) {
            Baseline now = Baseline.of(fds(server.pid()), traffic.control("stats", "POST", "/soak/gc"));
            boolean settled = baseline != null ? baseline.departures(now).isEmpty()
                    : last != null && last.fds() == now.fds() && last.timers() == now.timers()
                            && last.threads() == now.threads();
            if (settled || System.nanoTime() > deadline) {
                return now;
            }
            last = now;
            TimeUnit.MILLISECONDS.sleep(1000);
        }
    }

    private static long fds(long pid) throws IOException {
        File dir = new File("/proc/" + pid + "/fd");
        String[] names = dir.list();
        if (names == null) {
            throw new IOException("cannot list " + dir);
        }
        return names.length;
    }

    /** The slowest of 20 hellos, in nanoseconds; each is a checked request too. */
    private static long prompt(Traffic traffic) {
        long slowest = 0;
        for (int i = 0; i < 20; i++) {
            long start = System.nanoTime();
            traffic.run(Traffic.Kind.HELLO);
            slowest = Math.max(slowest, System.nanoTime() - start);
        }
        return slowest;
    }

    private static boolean verdict(Tally tally, Baseline before, Baseline after, long slowest) {
        System.out.println(tally.summary());
        System.out.printf("prompt: slowest of 20 hellos after the run %.1f ms%n", slowest / 1e6);
        List<String> failures = new ArrayList<>();
        tally.problems().forEach(p -> failures.add("problem: " + p));
        if (tally.problemTotal() > tally.problems().size()) {
            failures.add("... " + (tally.problemTotal() - tally.problems().size()) + " more problems");
        }
        before.departures(after).forEach(d -> failures.add("not back to baseline: " + d));
        if (slowest > PROMPT_NANOS) {
            failures.add("not prompt: a hello took " + slowest / 1_000_000 + " ms after the run");
        }
        if (tally.checkedTotal() == 0) {
            failures.add("no response checked");
        }
        failures.forEach(f -> System.out.println("SOAK FAILED: " + f));
        if (failures.isEmpty()) {
            System.out.println("SOAK PASSED");
        }
        return failures.isEmpty();
    }
}
