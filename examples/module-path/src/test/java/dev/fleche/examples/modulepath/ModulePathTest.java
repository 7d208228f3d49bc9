package dev.fleche.examples.modulepath;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.io.BufferedReader;
import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The Fleche modules as named modules under a modular Jersey application: {@link ModularServer} runs in a JVM of
 * its own with everything on the module path (no class path at all), and each test sends it one raw HTTP/1.1
 * request. A package that a Fleche module fails to export or open to Jersey, HK2 or Hibernate Validator shows up
 * here as a failed start, a 500 or a logged exception; the other tests run the same code on the class path.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class ModulePathTest {
    private static final String MAIN = "dev.fleche.examples.modulepath/" + ModularServer.class.getName();

    private Process server;
    private int port;
    /** Everything the server printed, standard error included, read on a thread of its own. */
    private final List<String> output = Collections.synchronizedList(new ArrayList<>());

    @BeforeEach
    void start() throws IOException {
        String modulePath = System.getProperty("example.classes") + File.pathSeparator
                + System.getProperty("example.runtimePath");
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        // Hibernate Validator 8 is an automatic module: nothing requires the explicit modules it uses
        // (org.jboss.logging, com.fasterxml.classmate), so they are not resolved unless added, and JBoss Logging
        // does not read it, so it cannot make its loggers. Any modular application with Bean Validation needs
        // these two options (see validation/README.md); they open and export nothing of Fleche's.
        server = new ProcessBuilder(java, "--module-path", modulePath, "--add-modules", "ALL-MODULE-PATH",
                "--add-reads", "org.jboss.logging=org.hibernate.validator", "--module", MAIN, "0")
                .redirectErrorStream(true).start();
        BufferedReader out = new BufferedReader(new InputStreamReader(server.getInputStream(),
                StandardCharsets.UTF_8));
        String line;
        while ((line = out.readLine()) != null && !line.startsWith("READY ")) {
            output.add(line);
        }
        assertTrue(line != null, "the server ended before READY: " + String.join("\n", output));
        port = Integer.parseInt(line.substring("READY ".length()).trim());
        Thread drain = new Thread(() -> out.lines().forEach(output::add), "server-output");
        drain.setDaemon(true);
        drain.start();
    }

    @AfterEach
    void stop() throws InterruptedException {
        server.destroy(); // SIGTERM: the shutdown hook closes the server
        if (!server.waitFor(30, TimeUnit.SECONDS)) {
            server.destroyForcibly();
        }
        assertEquals(143, server.exitValue(), "ended by SIGTERM after a clean stop");
        assertTrue(output.stream().noneMatch(l -> l.contains("Exception") || l.contains("SEVERE")),
                "the server logged a failure:\n" + String.join("\n", output));
    }

    @Test
    void servesAResource() throws IOException {
        String response = get("/hello");
        assertTrue(response.startsWith("HTTP/1.1 200 OK\r\n"), response);
        assertEquals("Hello from the module path", body(response));
    }

    @Test
    void validatesThroughTheValidationModule() throws IOException {
        assertEquals("xxx", body(get("/times/3")));
        String response = get("/times/0");
        assertTrue(response.startsWith("HTTP/1.1 400 Bad Request\r\n"), response);
        assertTrue(response.contains("\r\nContent-Type: application/problem+json"), response);
        assertTrue(body(response).contains("\"status\":400"), response);
    }

    @Test
    void resumesThroughTheAsyncModule() throws IOException {
        String response = get("/poll");
        assertTrue(response.startsWith("HTTP/1.1 200 OK\r\n"), response);
        assertEquals("polled", body(response));
    }

    /** {@code GET path} on a connection of its own that the server closes after answering; the raw response. */
    private String get(String path) throws IOException {
        try (Socket socket = new Socket(InetAddress.getLoopbackAddress(), port)) {
            socket.setSoTimeout(30_000);
            OutputStream request = socket.getOutputStream();
            request.write(("GET " + path + " HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n")
                    .getBytes(StandardCharsets.US_ASCII));
            request.flush();
            InputStream response = socket.getInputStream();
            return new String(response.readAllBytes(), StandardCharsets.UTF_8);
        }
    }

    private static String body(String response) {
        return response.substring(response.indexOf("\r\n\r\n") + 4);
    }
}
