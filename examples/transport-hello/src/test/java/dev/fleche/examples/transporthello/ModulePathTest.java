package dev.fleche.examples.transporthello;

import dev.fleche.transport.HttpServer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.URISyntaxException;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The transport as a named module, the way a modular application uses it: this example and the transport on the
 * module path (no class path at all), and both linked by {@code jlink} into a runtime of their own. Each runs in a
 * JVM of its own, started here; the tests in the other modules run the same code on the class path.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class ModulePathTest {
    private static final String MODULE = "dev.fleche.examples.transporthello";
    private static final String MAIN = MODULE + "/" + TransportHelloServer.class.getName();
    private static final Path JAVA_HOME = Path.of(System.getProperty("java.home"));

    @Test
    void transportExportsOnlyItsApi() throws Exception {
        String description = output(List.of(tool("java"), "--module-path", modulePath(),
                "--describe-module", "dev.fleche.transport"));
        List<String> lines = description.lines().map(String::trim).collect(Collectors.toList());
        assertTrue(lines.get(0).startsWith("dev.fleche.transport"), description);
        assertTrue(lines.contains("exports dev.fleche.transport"), description);
        assertTrue(lines.contains("requires java.base mandated"), description);
        assertTrue(lines.contains("contains dev.fleche.transport.internal"), description);
        assertTrue(lines.contains("contains dev.fleche.transport.http1"), description);
        assertFalse(lines.stream().anyMatch(l -> l.startsWith("opens") || l.startsWith("exports dev.fleche.transport.")),
                description);
        assertEquals(1, lines.stream().filter(l -> l.startsWith("exports")).count(), description);
    }

    @Test
    void servesFromTheModulePath() throws Exception {
        served(List.of(tool("java"), "--module-path", modulePath(), "--module", MAIN, "0"));
    }

    @Test
    void servesFromItsOwnJlinkRuntime(@TempDir Path dir) throws Exception {
        Path image = dir.resolve("image");
        output(List.of(tool("jlink"), "--module-path", modulePath(), "--add-modules", MODULE, "--output",
                image.toString(), "--strip-debug", "--no-header-files", "--no-man-pages"));
        String modules = Files.readString(image.resolve("release"), StandardCharsets.UTF_8);
        assertTrue(modules.contains("dev.fleche.transport") && modules.contains(MODULE), modules);
        assertFalse(modules.contains("java.net.http"), "only what the modules require is linked: " + modules);
        served(List.of(image.resolve("bin").resolve("java").toString(), "--module", MAIN, "0"));
    }

    /** Starts {@code command} (the example on port 0), waits for {@code READY <port>}, asks {@code GET /hello}. */
    private static void served(List<String> command) throws Exception {
        Process server = new ProcessBuilder(command).redirectErrorStream(true).start();
        try {
            BufferedReader out = new BufferedReader(new InputStreamReader(server.getInputStream(),
                    StandardCharsets.UTF_8));
            String line;
            List<String> seen = new ArrayList<>();
            while ((line = out.readLine()) != null && !line.startsWith("READY ")) {
                seen.add(line);
            }
            assertTrue(line != null, "the server ended before READY: " + seen);
            int port = Integer.parseInt(line.substring("READY ".length()).trim());
            HttpClient client = HttpClient.newHttpClient();
            HttpResponse<String> hello = client.send(HttpRequest.newBuilder(
                    URI.create("http://127.0.0.1:" + port + "/hello")).build(), HttpResponse.BodyHandlers.ofString());
            assertEquals(200, hello.statusCode());
            assertEquals("Hello, World!", hello.body());
            assertEquals("text/plain", hello.headers().firstValue("Content-Type").orElse(null));
        } finally {
            server.destroy(); // SIGTERM: the example's shutdown hook stops the server
            if (!server.waitFor(30, TimeUnit.SECONDS)) {
                server.destroyForcibly();
            }
        }
        assertEquals(143, server.exitValue(), "ended by SIGTERM after a clean stop");
    }

    /** Runs {@code command} to its end; its output, or a failure with it when the exit status is not 0. */
    private static String output(List<String> command) throws Exception {
        Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
        String text = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(process.waitFor(90, TimeUnit.SECONDS), "still running: " + command);
        assertEquals(0, process.exitValue(), command + "\n" + text);
        return text;
    }

    /** The example's classes and the transport's jar (or classes), where the build put them. */
    private static String modulePath() {
        return location(TransportHelloServer.class) + java.io.File.pathSeparator + location(HttpServer.class);
    }

    private static String location(Class<?> type) {
        try {
            return Path.of(type.getProtectionDomain().getCodeSource().getLocation().toURI()).toString();
        } catch (URISyntaxException e) {
            throw new IllegalStateException(e);
        }
    }

    private static String tool(String name) {
        Path path = JAVA_HOME.resolve("bin").resolve(name);
        if (!Files.isExecutable(path)) {
            throw new UncheckedIOException(new IOException("no " + name + " in " + JAVA_HOME));
        }
        return path.toString();
    }
}
