package dev.fleche.perf.harness;

import dev.fleche.perf.loadgen.BlockingHttp;

import java.io.IOException;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * One running target process: started with its command, stdout and stderr to a log file. {@link #start} returns
 * once the server printed {@code READY <port>} and answered {@code GET /hello} with 200; the time from the spawn
 * to that first 200 is the start-up time. {@link #close} stops it (SIGTERM, SIGKILL after 10 s).
 */
final class Server implements AutoCloseable {
    private final Process process;
    final int port;
    final Path log;
    final double startupMillis;

    private Server(Process process, int port, Path log, double startupMillis) {
        this.process = process;
        this.port = port;
        this.log = log;
        this.startupMillis = startupMillis;
    }

    long pid() {
        return process.pid();
    }

    boolean alive() {
        return process.isAlive();
    }

    /**
     * Starts {@code command}; waits up to {@code timeout} for READY and a first 200 on {@code /hello} (over HTTPS
     * when {@code tls}).
     *
     * @throws IOException when it does not come up (the log's tail is in the message)
     */
    static Server start(List<String> command, Path root, int port, Path log, Duration timeout, boolean tls)
            throws IOException, InterruptedException {
        Files.createDirectories(log.getParent());
        Files.writeString(log, "$ " + String.join(" ", command) + "\n");
        long t0 = System.nanoTime();
        Process p = new ProcessBuilder(command).directory(root.toFile()).redirectErrorStream(true)
                .redirectOutput(ProcessBuilder.Redirect.appendTo(log.toFile())).start();
        long deadline = t0 + timeout.toNanos();
        while (System.nanoTime() < deadline && p.isAlive()) {
            try { // probed even before READY: start-up is the time from the spawn to the first 200
                BlockingHttp.Response r = BlockingHttp.get("127.0.0.1", port, "/hello", Duration.ofSeconds(2),
                        tls);
                if (r.status() == 200) {
                    double ms = (System.nanoTime() - t0) / 1e6;
                    waitReady(p, log, deadline);
                    return new Server(p, port, log, ms);
                }
            } catch (IOException notYet) {
                // not listening yet
            }
            Thread.sleep(10);
        }
        stop(p);
        throw new IOException("did not start within " + timeout.toSeconds() + " s: " + tail(log));
    }

    private static void waitReady(Process p, Path log, long deadline) throws IOException, InterruptedException {
        while (!Files.readString(log, StandardCharsets.ISO_8859_1).contains("READY") && System.nanoTime() < deadline
                && p.isAlive()) {
            Thread.sleep(10);
        }
    }

    /** A free port on 127.0.0.1 at or above {@code from}. */
    static int freePort(int from) {
        for (int port = from; port < 65535; port++) {
            try (ServerSocket s = new ServerSocket()) {
                s.setReuseAddress(true);
                s.bind(new java.net.InetSocketAddress("127.0.0.1", port));
                return port;
            } catch (IOException taken) {
                // next
            }
        }
        throw new IllegalStateException("no free port above " + from);
    }

    static String tail(Path log) {
        try {
            List<String> lines = Files.readAllLines(log, StandardCharsets.ISO_8859_1);
            return String.join("\n    ", lines.subList(Math.max(0, lines.size() - 12), lines.size()));
        } catch (IOException e) {
            return "(no log)";
        }
    }

    @Override
    public void close() {
        try {
            stop(process);
        } catch (InterruptedException e) {
            process.destroyForcibly();
            Thread.currentThread().interrupt();
        }
    }

    private static void stop(Process p) throws InterruptedException {
        p.destroy();
        if (!p.waitFor(10, TimeUnit.SECONDS)) {
            p.destroyForcibly();
            p.waitFor(10, TimeUnit.SECONDS);
        }
    }
}
