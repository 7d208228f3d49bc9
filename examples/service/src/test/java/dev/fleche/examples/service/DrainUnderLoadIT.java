package dev.fleche.examples.service;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.net.ConnectException;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * SIGTERM to the image's process under steady keep-alive load from the project's generator
 * ({@code dev.fleche.perf.loadgen.LoadGen}, closed loop) with long-polls waiting: readiness goes 503 during the
 * delay, no request is lost (every one answered 200; connects refused after the listener closed are allowed), the
 * long-polls are answered, the exit status is 0, and the drain ends within delay + grace.
 */
@Timeout(120)
class DrainUnderLoadIT {
    static final int DELAY_SECONDS = 1;
    static final int GRACE_SECONDS = 3;
    static final int LONG_POLLS = 4;
    private static final Pattern TICK = Pattern.compile("^\\s*(\\d+) s\\s+([\\d,]+) responses");
    private final HttpClient http = HttpClient.newHttpClient();
    /** Blocking readers get threads of their own (the common pool has one thread on two cores). */
    private static final ExecutorService BLOCKING = Executors.newCachedThreadPool(task -> {
        Thread thread = new Thread(task, "drain-it-reader");
        thread.setDaemon(true);
        return thread;
    });

    @Test
    void sigtermUnderLoadLosesNothingAndAnswersLongPolls() throws Exception {
        try (ImageProcess image = ImageProcess.start(Map.of("DRAIN_DELAY_SECONDS", Integer.toString(DELAY_SECONDS),
                "DRAIN_GRACE_SECONDS", Integer.toString(GRACE_SECONDS)))) {
            URI base = URI.create("http://127.0.0.1:" + image.port + "/");
            List<CompletableFuture<String>> polls = new ArrayList<>();
            for (int i = 0; i < LONG_POLLS; i++) {
                polls.add(rawLongPoll(image.port));
            }
            awaitWaiting(base, LONG_POLLS);

            Process load = loadGen(base.resolve("todos?limit=1"));
            CountDownLatch loaded = new CountDownLatch(1);
            StringBuilder loadOutput = new StringBuilder();
            CompletableFuture<String> result = CompletableFuture.supplyAsync(() -> read(load, loaded, loadOutput),
                    BLOCKING);
            assertTrue(loaded.await(30, TimeUnit.SECONDS), "no load: " + loadOutput);

            long signalled = System.nanoTime();
            image.terminate();
            assertEquals(503, readinessDuringDelay(base), "readiness during the drain delay");
            assertTrue(image.awaitExit(DELAY_SECONDS + GRACE_SECONDS + 10), image.output());
            double tookSeconds = (System.nanoTime() - signalled) / 1e9;
            assertEquals(0, image.process.exitValue(), image.output());
            // delay + grace, plus the JVM's own exit (a few hundred ms at most)
            assertTrue(tookSeconds <= DELAY_SECONDS + GRACE_SECONDS + 1.0, "drain took " + tookSeconds + " s");

            for (CompletableFuture<String> poll : polls) {
                String answer = poll.completeOnTimeout("(no answer within 5 s)", 5, TimeUnit.SECONDS).join();
                assertTrue(answer.startsWith("HTTP/1.1 204 ") && answer.contains("\r\nConnection: close\r\n"),
                        "a long-poll ended by the drain: " + answer + "\nthe service said:\n" + image.output());
            }

            JsonNode report = new ObjectMapper().readTree(result.get(60, TimeUnit.SECONDS));
            String counts = report.toString() + "\n" + loadOutput;
            assertTrue(report.get("requests").asLong() > 0, counts);
            for (String lost : List.of("statusErrors", "bodyErrors", "socketErrors", "timeouts", "dropped")) {
                assertEquals(0, report.get(lost).asLong(), lost + ": " + counts);
            }
            System.out.printf("drain under load: %d requests answered 200, %d connects refused after close, "
                            + "%d long-polls answered 204, %.2f s from SIGTERM to exit%n",
                    report.get("requests").asLong(), report.get("connectErrors").asLong(), LONG_POLLS, tookSeconds);
        }
    }

    /** {@code GET /changes} on a socket of its own; completes with the response head (or what came). */
    private static CompletableFuture<String> rawLongPoll(int port) {
        return CompletableFuture.supplyAsync(() -> {
            try (Socket socket = new Socket("127.0.0.1", port)) {
                socket.getOutputStream().write("GET /changes HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n"
                        .getBytes(StandardCharsets.US_ASCII));
                InputStream in = socket.getInputStream();
                StringBuilder head = new StringBuilder();
                for (int b; head.indexOf("\r\n\r\n") < 0 && (b = in.read()) >= 0; ) {
                    head.append((char) b);
                }
                return head.toString();
            } catch (IOException e) {
                return "(" + e + ")";
            }
        }, BLOCKING);
    }

    private void awaitWaiting(URI base, int count) throws Exception {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
        String body = "";
        while (System.nanoTime() < deadline) {
            body = http.send(HttpRequest.newBuilder(base.resolve("changes/waiting")).build(),
                    HttpResponse.BodyHandlers.ofString()).body();
            if (body.equals("{\"waiting\":" + count + "}")) {
                return;
            }
            Thread.onSpinWait();
        }
        throw new AssertionError("long-polls not all waiting: " + body);
    }

    /** The first readiness status after SIGTERM that is not 200 (the signal takes a moment to arrive). */
    private int readinessDuringDelay(URI base) throws Exception {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(DELAY_SECONDS);
        while (System.nanoTime() < deadline) {
            try {
                int status = http.send(HttpRequest.newBuilder(base.resolve("health/ready")).build(),
                        HttpResponse.BodyHandlers.discarding()).statusCode();
                if (status != 200) {
                    return status;
                }
            } catch (ConnectException closed) {
                return -1;
            }
        }
        return 200;
    }

    /** The generator: closed loop, keep-alive, 8 connections, long enough to outlive the drain. */
    private static Process loadGen(URI target) throws IOException {
        String java = ProcessHandle.current().info().command().orElse("java");
        return new ProcessBuilder(java, "-cp", System.getProperty("java.class.path"),
                "dev.fleche.perf.loadgen.LoadGen", "-c", "8", "-t", "1", "-d",
                Integer.toString(DELAY_SECONDS + GRACE_SECONDS + 4), "--timeout", "5", "--json", target.toString())
                .redirectErrorStream(true).start();
    }

    /** Reads the generator's output; counts down {@code loaded} at the first tick with responses. */
    private static String read(Process load, CountDownLatch loaded, StringBuilder all) {
        try (BufferedReader lines = new BufferedReader(new InputStreamReader(load.getInputStream(),
                StandardCharsets.UTF_8))) {
            String result = null;
            for (String line; (line = lines.readLine()) != null; ) {
                synchronized (all) {
                    all.append(line).append('\n');
                }
                Matcher tick = TICK.matcher(line);
                if (tick.find() && Long.parseLong(tick.group(2).replace(",", "")) > 0) {
                    loaded.countDown();
                }
                if (line.startsWith("RESULT ")) {
                    result = line.substring(7);
                }
            }
            load.waitFor(30, TimeUnit.SECONDS);
            if (result == null) {
                throw new IllegalStateException("no RESULT line:\n" + all);
            }
            return result;
        } catch (IOException | InterruptedException e) {
            throw new IllegalStateException(e);
        }
    }
}
