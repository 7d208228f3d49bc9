package dev.fleche.examples.hello;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyStore;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import javax.net.ssl.SSLContext;
import javax.net.ssl.TrustManagerFactory;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The native executable of this example ({@code mvn -Pnative verify}: {@code target/hello}, path in the system
 * property {@code native.executable}) against the same requests as the JVM's tests: every endpoint, bad input,
 * HTTP/2 (clear text, {@code Upgrade: h2c}) and TLS with HTTP/2 by ALPN. A class, method, resource or proxy the
 * build left out shows up here as a wrong answer, not in a user's hands.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class NativeHelloIT {
    private static final HttpClient HTTP1 = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
            .connectTimeout(Duration.ofSeconds(10)).build();
    private static final HttpClient HTTP2 = HttpClient.newBuilder().version(HttpClient.Version.HTTP_2)
            .connectTimeout(Duration.ofSeconds(10)).build();
    private static Server server;

    /** The executable started with {@code args}, once it printed {@code READY <port>}; its output is kept. */
    record Server(Process process, int port, List<String> output) implements AutoCloseable {
        static Server start(String... args) throws Exception {
            String executable = System.getProperty("native.executable");
            assertTrue(executable != null && Files.isExecutable(Path.of(executable)),
                    "native.executable must name the built executable: " + executable);
            List<String> command = new ArrayList<>(List.of(executable));
            command.addAll(List.of(args));
            Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
            List<String> output = java.util.Collections.synchronizedList(new ArrayList<>());
            BufferedReader lines = new BufferedReader(new InputStreamReader(process.getInputStream(),
                    StandardCharsets.UTF_8));
            CompletableFuture<Integer> ready = CompletableFuture.supplyAsync(() -> {
                try {
                    for (String line = lines.readLine(); line != null; line = lines.readLine()) {
                        output.add(line);
                        if (line.startsWith("READY ")) {
                            int port = Integer.parseInt(line.substring("READY ".length()));
                            Thread drain = new Thread(() -> lines.lines().forEach(output::add), "native-output");
                            drain.setDaemon(true);
                            drain.start();
                            return port;
                        }
                    }
                    throw new AssertionError("ended without READY: " + output);
                } catch (IOException e) {
                    throw new AssertionError(e);
                }
            });
            try {
                return new Server(process, ready.get(30, TimeUnit.SECONDS), output);
            } catch (Exception e) {
                process.destroyForcibly();
                throw new AssertionError("no READY line within 30 s: " + output, e);
            }
        }

        /** SIGTERM; the shutdown hook stops the server and the process ends (143, the signal's status). */
        @Override
        public void close() throws InterruptedException {
            process.destroy();
            boolean ended = process.waitFor(15, TimeUnit.SECONDS);
            if (!ended) {
                process.destroyForcibly();
            }
            assertTrue(ended, "the executable did not end within 15 s of SIGTERM: " + output);
        }
    }

    @BeforeAll
    static void start() throws Exception {
        server = Server.start("0");
    }

    @AfterAll
    static void stop() throws InterruptedException {
        if (server != null) {
            server.close();
        }
    }

    private static HttpRequest.Builder request(String path) {
        return HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + server.port() + path))
                .timeout(Duration.ofSeconds(30));
    }

    private static HttpResponse<String> send(HttpClient client, HttpRequest.Builder request) throws Exception {
        return client.send(request.build(), HttpResponse.BodyHandlers.ofString());
    }

    private static HttpResponse<String> echo(String contentType, String body) throws Exception {
        return send(HTTP1, request("/echo").header("Content-Type", contentType)
                .POST(HttpRequest.BodyPublishers.ofString(body)));
    }

    @Test
    void everyEndpoint() throws Exception {
        HttpResponse<String> hello = send(HTTP1, request("/hello"));
        assertEquals(200, hello.statusCode());
        assertEquals("Hello, World!", hello.body());
        assertTrue(hello.headers().firstValue("Content-Type").orElse("").startsWith("text/plain"));

        HttpResponse<String> json = send(HTTP1, request("/json"));
        assertEquals(200, json.statusCode());
        assertEquals("{\"message\":\"Hello, World!\"}", json.body());
        assertEquals("application/json", json.headers().firstValue("Content-Type").orElse(""));

        String payment = "{\"name\":\"wrk\",\"amount\":12.34}";
        HttpResponse<String> echoed = echo("application/json", payment);
        assertEquals(200, echoed.statusCode(), echoed.body());
        assertEquals(payment, echoed.body());

        long start = System.nanoTime();
        HttpResponse<String> async = send(HTTP1, request("/async?delayMs=50"));
        assertEquals(200, async.statusCode());
        assertEquals("Hello, World!", async.body());
        assertTrue(System.nanoTime() - start >= 50_000_000L, "resumed after the delay");
    }

    @Test
    void badInput() throws Exception {
        HttpResponse<String> malformed = echo("application/json", "{\"name\":\"wrk\",");
        assertEquals(400, malformed.statusCode(), malformed.body());
        assertTrue(malformed.body().startsWith("{\"error\":\"malformed JSON\",\"detail\":\"Unexpected end-of-input"),
                malformed.body());

        HttpResponse<String> wrongType = echo("application/json", "{\"name\":\"wrk\",\"amount\":\"lots\"}");
        assertEquals(400, wrongType.statusCode(), wrongType.body());
        assertTrue(wrongType.body().startsWith("{\"error\":\"JSON does not match the expected body\","),
                wrongType.body());

        HttpResponse<String> unknownField = echo("application/json", "{\"name\":\"wrk\",\"amont\":1}");
        assertEquals(400, unknownField.statusCode(), unknownField.body());
        assertTrue(unknownField.body().contains("amont"), unknownField.body());

        HttpResponse<String> empty = echo("application/json", "");
        assertEquals(400, empty.statusCode(), empty.body());
        assertEquals("{\"error\":\"a JSON body is required\",\"detail\":null}", empty.body());

        assertEquals(415, echo("text/plain", "name=wrk").statusCode());
        assertEquals(404, send(HTTP1, request("/nope")).statusCode());
        assertEquals(404, send(HTTP1, request("/application.wadl")).statusCode(), "WADL is off");
        assertEquals(404, send(HTTP1, request("/async?delayMs=soon")).statusCode(),
                "a query parameter that is not a long (Jakarta REST: 404)");
    }

    @Test
    void aMalformedRequestLineIsRefusedByTheTransport() throws Exception {
        try (Socket socket = new Socket("127.0.0.1", server.port())) {
            socket.setSoTimeout(10_000);
            OutputStream out = socket.getOutputStream();
            out.write("GET /hello HTTP/1.1 extra\r\nHost: x\r\n\r\n".getBytes(StandardCharsets.US_ASCII));
            out.flush();
            InputStream in = socket.getInputStream();
            String answer = new String(in.readAllBytes(), StandardCharsets.US_ASCII);
            assertTrue(answer.startsWith("HTTP/1.1 400 "), answer);
        }
    }

    @Test
    void http2OverUpgradeH2c() throws Exception {
        HttpResponse<String> upgraded = send(HTTP2, request("/json"));
        assertEquals(HttpClient.Version.HTTP_2, upgraded.version());
        assertEquals("{\"message\":\"Hello, World!\"}", upgraded.body());
        String payment = "{\"name\":\"h2\",\"amount\":1.5}";
        HttpResponse<String> echoed = send(HTTP2, request("/echo").header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(payment)));
        assertEquals(200, echoed.statusCode(), echoed.body());
        assertEquals(payment, echoed.body());
        HttpResponse<String> async = send(HTTP2, request("/async?delayMs=10"));
        assertEquals(HttpClient.Version.HTTP_2, async.version());
        assertEquals("Hello, World!", async.body());
    }

    @Test
    void tlsWithHttp2ByAlpn(@TempDir Path dir) throws Exception {
        char[] password = "native-test".toCharArray();
        KeyStore keys = HelloServer.selfSigned(password);
        Path file = dir.resolve("hello.p12");
        try (OutputStream out = Files.newOutputStream(file)) {
            keys.store(out, password);
        }
        try (Server https = Server.start("0", "--https", "--keystore", file.toString(), "--password",
                new String(password))) {
            KeyStore trust = KeyStore.getInstance("PKCS12");
            trust.load(null, null);
            trust.setCertificateEntry("hello", keys.getCertificate("hello"));
            TrustManagerFactory trustManagers =
                    TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
            trustManagers.init(trust);
            SSLContext context = SSLContext.getInstance("TLS");
            context.init(null, trustManagers.getTrustManagers(), null);
            HttpClient client = HttpClient.newBuilder().sslContext(context).version(HttpClient.Version.HTTP_2)
                    .connectTimeout(Duration.ofSeconds(10)).build();
            HttpResponse<String> response = client.send(HttpRequest.newBuilder(
                    URI.create("https://localhost:" + https.port() + "/hello")).timeout(Duration.ofSeconds(30)).build(),
                    HttpResponse.BodyHandlers.ofString());
            assertEquals(200, response.statusCode());
            assertEquals(HttpClient.Version.HTTP_2, response.version());
            assertEquals("Hello, World!", response.body());
            HttpClient http1 = HttpClient.newBuilder().sslContext(context).version(HttpClient.Version.HTTP_1_1)
                    .connectTimeout(Duration.ofSeconds(10)).build();
            HttpResponse<String> json = http1.send(HttpRequest.newBuilder(
                    URI.create("https://localhost:" + https.port() + "/json")).timeout(Duration.ofSeconds(30)).build(),
                    HttpResponse.BodyHandlers.ofString());
            assertEquals(HttpClient.Version.HTTP_1_1, json.version());
            assertEquals("{\"message\":\"Hello, World!\"}", json.body());
        }
    }
}
