package dev.fleche.transport.testing;

import java.io.BufferedReader;
import java.io.File;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * A server's {@code main} class run in a child JVM on the test class path, for tests of the command line: it must
 * print {@code READY <port>} once listening. {@link #close} stops it and fails if it does not end in 10 s.
 */
public final class MainProcess implements AutoCloseable {
    private static final String READY = "READY ";

    private final Process process;
    private final int port;

    private MainProcess(Process process, int port) {
        this.process = process;
        this.port = port;
    }

    /** Starts {@code mainClass} with {@code args} and waits up to 60 s for its {@code READY <port>} line. */
    public static MainProcess start(Class<?> mainClass, String... args)
            throws IOException, InterruptedException, ExecutionException, TimeoutException {
        return startWithJvmOptions(List.of(), mainClass, args);
    }

    /** {@link #start} with {@code jvmOptions} (e.g. {@code -Xmx64m}) before the main class. */
    public static MainProcess startWithJvmOptions(List<String> jvmOptions, Class<?> mainClass, String... args)
            throws IOException, InterruptedException, ExecutionException, TimeoutException {
        String java = System.getProperty("java.home") + File.separator + "bin" + File.separator + "java";
        String classPath = System.getProperty("surefire.test.class.path", System.getProperty("java.class.path"));
        List<String> command = new ArrayList<>(List.of(java));
        command.addAll(jvmOptions);
        command.addAll(List.of("-cp", classPath, mainClass.getName()));
        command.addAll(List.of(args));
        Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
        try {
            String ready = CompletableFuture.supplyAsync(() -> readyLine(process)).get(60, TimeUnit.SECONDS);
            if (!ready.matches(READY + "\\d+")) {
                throw new AssertionError(mainClass.getName() + " did not print READY <port>: " + ready);
            }
            return new MainProcess(process, Integer.parseInt(ready.substring(READY.length())));
        } catch (RuntimeException | Error | ExecutionException | TimeoutException | InterruptedException e) {
            process.destroyForcibly();
            throw e;
        }
    }

    private static String readyLine(Process process) {
        BufferedReader output = new BufferedReader(new InputStreamReader(process.getInputStream(),
                StandardCharsets.UTF_8));
        try {
            for (String line = output.readLine(); line != null; line = output.readLine()) {
                if (line.startsWith(READY)) {
                    return line;
                }
            }
            return "ended without READY";
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** The port the server printed. */
    public int port() {
        return port;
    }

    /** Stops the server and waits up to 10 s for it to end. */
    @Override
    public void close() throws InterruptedException {
        process.destroy();
        if (!process.waitFor(10, TimeUnit.SECONDS)) {
            process.destroyForcibly();
            throw new AssertionError("the server did not stop within 10 s");
        }
    }
}
