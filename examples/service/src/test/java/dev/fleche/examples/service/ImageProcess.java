package dev.fleche.examples.service;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;

/**
 * The service run as a child process — the image's launcher with an environment holding only {@code env} (what
 * {@code env -i VAR=value target/image/bin/todo-service 0} does), or {@link TodoService}'s main on the test class
 * path — waiting for its {@code READY <port>} line. The image directory comes from the system property
 * {@code image.dir} (set by the {@code image} profile); {@code image.launcher} names an executable to run instead
 * (the {@code native} profile: the native executable). Its output is kept, and can be awaited.
 */
final class ImageProcess implements AutoCloseable {
    final Process process;
    final int port;
    private final StringBuilder output = new StringBuilder();
    private final ReentrantLock lock = new ReentrantLock();
    private final Condition grew = lock.newCondition();
    private Thread reader;

    private ImageProcess(Process process, int port) {
        this.process = process;
        this.port = port;
    }

    static Path launcher() {
        String executable = System.getProperty("image.launcher"); // the native profile: the native executable
        if (executable != null) {
            if (!Files.isExecutable(Path.of(executable))) {
                throw new IllegalStateException("no executable at " + executable + ": build with -Pnative");
            }
            return Path.of(executable);
        }
        Path image = Path.of(System.getProperty("image.dir", "target/image"));
        Path launcher = image.resolve("bin").resolve(System.getProperty("service.name", "todo-service"));
        if (!Files.isExecutable(launcher)) {
            throw new IllegalStateException("no image launcher at " + launcher + ": build with -Pimage");
        }
        return launcher;
    }

    /** The image's launcher on port 0, with only {@code env} as its environment. */
    static ImageProcess start(Map<String, String> env) throws IOException, InterruptedException {
        ProcessBuilder builder = new ProcessBuilder(launcher().toAbsolutePath().toString(), "0");
        builder.environment().clear();
        builder.environment().putAll(env);
        return start(builder);
    }

    /** {@link TodoService} on port 0 in a JVM on this test's class path, with {@code env} added to this one's. */
    static ImageProcess main(Map<String, String> env) throws IOException, InterruptedException {
        List<String> command = new ArrayList<>(List.of(
                Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-cp", System.getProperty("java.class.path"), TodoService.class.getName(), "0"));
        ProcessBuilder builder = new ProcessBuilder(command);
        builder.environment().putAll(env);
        return start(builder);
    }

    private static ImageProcess start(ProcessBuilder builder) throws IOException, InterruptedException {
        Process process = builder.redirectErrorStream(true).start();
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
                throw new IllegalStateException("the service ended before READY:\n" + seen);
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
        started.append(seen.toString());
        Thread drain = new Thread(() -> {
            try {
                for (String line; (line = lines.readLine()) != null; ) {
                    started.append(line + "\n");
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

    private void append(String text) {
        lock.lock();
        try {
            output.append(text);
            grew.signalAll();
        } finally {
            lock.unlock();
        }
    }

    /** Waits until the output contains {@code fragment}; false after {@code seconds}. */
    boolean awaitOutput(String fragment, long seconds) throws InterruptedException {
        long left = TimeUnit.SECONDS.toNanos(seconds);
        lock.lock();
        try {
            while (output.indexOf(fragment) < 0) {
                if (left <= 0) {
                    return false;
                }
                left = grew.awaitNanos(left);
            }
            return true;
        } finally {
            lock.unlock();
        }
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
        lock.lock();
        try {
            return output.toString();
        } finally {
            lock.unlock();
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
