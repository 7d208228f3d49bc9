package dev.fleche.examples.service;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

/**
 * The image's launcher run as a child process with an environment holding only {@code env} (what
 * {@code env -i VAR=value target/image/bin/todo-service 0} does): waits for its {@code READY <port>} line.
 * The image directory comes from the system property {@code image.dir} (set by the {@code image} profile).
 */
final class ImageProcess implements AutoCloseable {
    final Process process;
    final int port;
    final StringBuilder output = new StringBuilder();
    private Thread reader;

    private ImageProcess(Process process, int port) {
        this.process = process;
        this.port = port;
    }

    static Path launcher() {
        Path image = Path.of(System.getProperty("image.dir", "target/image"));
        Path launcher = image.resolve("bin").resolve(System.getProperty("service.name", "todo-service"));
        if (!Files.isExecutable(launcher)) {
            throw new IllegalStateException("no image launcher at " + launcher + ": build with -Pimage");
        }
        return launcher;
    }

    static ImageProcess start(Map<String, String> env) throws IOException, InterruptedException {
        ProcessBuilder builder = new ProcessBuilder(launcher().toAbsolutePath().toString(), "0")
                .redirectErrorStream(true);
        builder.environment().clear();
        builder.environment().putAll(env);
        Process process = builder.start();
        BufferedReader lines = new BufferedReader(new InputStreamReader(process.getInputStream(),
                StandardCharsets.UTF_8));
        StringBuilder seen = new StringBuilder();
        CompletableFuture<Integer> ready = CompletableFuture.supplyAsync(() -> {
            try {
                for (String line; (line = lines.readLine()) != null; ) {
                    seen.append(line).append('\n');
                    if (line.startsWith("READY ")) {
                        return Integer.parseInt(line.substring(6).trim());
                    }
                }
                throw new IllegalStateException("the image ended before READY:\n" + seen);
            } catch (IOException e) {
                throw new IllegalStateException(e);
            }
        });
        int port;
        try {
            port = ready.get(60, TimeUnit.SECONDS);
        } catch (Exception e) {
            process.destroyForcibly();
            throw new IllegalStateException("no READY within 60 s:\n" + seen, e);
        }
        ImageProcess started = new ImageProcess(process, port);
        started.output.append(seen);
        Thread drain = new Thread(() -> {
            try {
                for (String line; (line = lines.readLine()) != null; ) {
                    synchronized (started.output) {
                        started.output.append(line).append('\n');
                    }
                }
            } catch (IOException ignored) {
                // the process ended
            }
        }, "image-output");
        drain.setDaemon(true);
        drain.start();
        started.reader = drain;
        return started;
    }

    /**
     * SIGTERM, through the process handle: {@link Process#destroy()} sends the same signal but also closes the
     * pipes, and the drain's output would be lost.
     */
    void terminate() {
        process.toHandle().destroy();
    }

    /** Waits for the process to end and its output to be read; false when it is still running. */
    boolean awaitExit(long seconds) throws InterruptedException {
        if (!process.waitFor(seconds, TimeUnit.SECONDS)) {
            return false;
        }
        reader.join(TimeUnit.SECONDS.toMillis(5));
        return true;
    }

    String output() {
        synchronized (output) {
            return output.toString();
        }
    }

    @Override
    public void close() throws InterruptedException {
        if (process.isAlive()) {
            process.destroyForcibly();
            process.waitFor(10, TimeUnit.SECONDS);
        }
    }
}
