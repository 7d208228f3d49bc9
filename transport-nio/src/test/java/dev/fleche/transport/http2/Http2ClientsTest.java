package dev.fleche.transport.http2;

import dev.fleche.transport.HttpExchange;
import dev.fleche.transport.HttpFields;
import dev.fleche.transport.HttpServer;
import dev.fleche.transport.ServerOptions;
import dev.fleche.transport.TlsOptions;
import dev.fleche.transport.testing.TestCertificates;
import dev.fleche.transport.testing.TestCertificates.ServerKey;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * HTTP/2 end to end with real clients: the JDK {@code HttpClient} over TLS (ALPN {@code h2}) and over clear text
 * ({@code Upgrade: h2c}), {@code curl --http2-prior-knowledge} and {@code nghttp} (prior knowledge and upgrade;
 * each skipped when not on the PATH).
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class Http2ClientsTest {
    private static final byte[] BIG = bytes(1024 * 1024 + 7);

    private final ExecutorService workers = Executors.newCachedThreadPool();
    private HttpServer server;

    @AfterEach
    void stop() throws Exception {
        if (server != null) {
            server.stop(Duration.ZERO);
        }
        workers.shutdownNow();
    }

    private static byte[] bytes(int n) {
        byte[] b = new byte[n];
        for (int i = 0; i < n; i++) {
            b[i] = (byte) ('a' + i % 26);
        }
        return b;
    }

    /** /hello answered on the reactor; /echo and /big on a worker (a streamed body in, a streamed 1 MiB out). */
    private void handle(HttpExchange exchange) {
        switch (exchange.path()) {
            case "/hello" -> exchange.respond(200, new HttpFields().add("Content-Type", "text/plain"),
                    ("hello " + exchange.version() + " " + exchange.method()).getBytes(UTF_8));
            case "/echo" -> workers.execute(() -> {
                try (InputStream in = exchange.requestBody()) {
                    byte[] body = in.readAllBytes();
                    exchange.respond(200, new HttpFields().add("X-Length", Integer.toString(body.length)), body);
                } catch (IOException e) {
                    exchange.abort();
                }
            });
            case "/big" -> workers.execute(() -> {
                try (OutputStream out = exchange.startResponse(200, new HttpFields(), -1)) {
                    for (int at = 0; at < BIG.length; at += 10_000) {
                        out.write(BIG, at, Math.min(10_000, BIG.length - at));
                    }
                } catch (IOException e) {
                    exchange.abort();
                }
            });
            default -> exchange.respond(404, new HttpFields(), new byte[0]);
        }
    }

    private void start(ServerOptions.Builder options) throws IOException {
        server = HttpServer.create(options.address("127.0.0.1", 0).reactors(2).build(), this::handle).start();
    }

    private static HttpRequest.Builder request(String url) {
        return HttpRequest.newBuilder(URI.create(url)).timeout(Duration.ofSeconds(30));
    }

    private void exercise(HttpClient client, String base) throws Exception {
        HttpResponse<String> hello = client.send(request(base + "/hello").build(), HttpResponse.BodyHandlers.ofString());
        assertEquals(200, hello.statusCode());
        assertEquals(HttpClient.Version.HTTP_2, hello.version());
        assertEquals("hello HTTP/2 GET", hello.body());

        byte[] upload = bytes(300_000);
        HttpResponse<byte[]> echo = client.send(request(base + "/echo")
                .POST(HttpRequest.BodyPublishers.ofByteArray(upload)).build(), HttpResponse.BodyHandlers.ofByteArray());
        assertEquals(200, echo.statusCode());
        assertEquals(HttpClient.Version.HTTP_2, echo.version());
        assertArrayEquals(upload, echo.body());

        HttpResponse<byte[]> big = client.send(request(base + "/big").build(), HttpResponse.BodyHandlers.ofByteArray());
        assertEquals(200, big.statusCode());
        assertArrayEquals(BIG, big.body());

        List<CompletableFuture<HttpResponse<String>>> many = new ArrayList<>();
        for (int i = 0; i < 50; i++) {
            many.add(client.sendAsync(request(base + "/hello").build(), HttpResponse.BodyHandlers.ofString()));
        }
        for (CompletableFuture<HttpResponse<String>> response : many) {
            assertEquals(200, response.get(30, TimeUnit.SECONDS).statusCode());
            assertEquals(HttpClient.Version.HTTP_2, response.get().version());
        }
    }

    @Test
    void jdkClientOverTlsWithAlpn() throws Exception {
        TestCertificates certificates = TestCertificates.get();
        start(ServerOptions.builder().tls(TlsOptions.builder(certificates.serverContext(ServerKey.EC_P256)).build()));
        HttpClient client = HttpClient.newBuilder().sslContext(certificates.clientContext())
                .version(HttpClient.Version.HTTP_2).build();
        exercise(client, "https://localhost:" + server.port());
    }

    @Test
    void jdkClientOverCleartextUpgrade() throws Exception {
        start(ServerOptions.builder());
        HttpClient client = HttpClient.newBuilder().version(HttpClient.Version.HTTP_2).build();
        HttpResponse<String> first = client.send(request("http://127.0.0.1:" + server.port() + "/hello").build(),
                HttpResponse.BodyHandlers.ofString());
        assertEquals(HttpClient.Version.HTTP_2, first.version());
        assertEquals("hello HTTP/2 GET", first.body()); // the upgraded request is stream 1
        exercise(client, "http://127.0.0.1:" + server.port());
    }

    @Test
    void alpnOffWithTlsServesHttp11() throws Exception {
        TestCertificates certificates = TestCertificates.get();
        start(ServerOptions.builder().http2Alpn(false)
                .tls(TlsOptions.builder(certificates.serverContext(ServerKey.EC_P256)).build()));
        HttpClient client = HttpClient.newBuilder().sslContext(certificates.clientContext())
                .version(HttpClient.Version.HTTP_2).build();
        HttpResponse<String> hello = client.send(request("https://localhost:" + server.port() + "/hello").build(),
                HttpResponse.BodyHandlers.ofString());
        assertEquals(HttpClient.Version.HTTP_1_1, hello.version());
    }

    @Test
    void upgradeOffServesHttp11() throws Exception {
        start(ServerOptions.builder().http2Upgrade(false));
        HttpClient client = HttpClient.newBuilder().version(HttpClient.Version.HTTP_2).build();
        HttpResponse<String> hello = client.send(request("http://127.0.0.1:" + server.port() + "/hello").build(),
                HttpResponse.BodyHandlers.ofString());
        assertEquals(HttpClient.Version.HTTP_1_1, hello.version());
        assertEquals("hello HTTP/1.1 GET", hello.body());
    }

    @Test
    void curlWithPriorKnowledge() throws Exception {
        Assumptions.assumeTrue(onPath("curl"), "curl is not installed");
        start(ServerOptions.builder());
        String base = "http://127.0.0.1:" + server.port();
        assertEquals("200 2 hello HTTP/2 GET", curl("-s", "--http2-prior-knowledge", "-w", "%{http_code} %{http_version} ",
                "-o", "/dev/null", base + "/hello") + curl("-s", "--http2-prior-knowledge", base + "/hello"));
        Path upload = Files.createTempFile("h2-upload", ".bin");
        try {
            Files.write(upload, bytes(200_000));
            String lengthHeader = curl("-s", "--http2-prior-knowledge", "-D", "-", "-o", "/dev/null",
                    "--data-binary", "@" + upload, base + "/echo");
            assertEquals(true, lengthHeader.contains("x-length: 200000"), lengthHeader);
        } finally {
            Files.delete(upload);
        }
    }

    @Test
    void nghttpWithPriorKnowledgeAndUpgrade() throws Exception {
        Assumptions.assumeTrue(onPath("nghttp"), "nghttp (nghttp2-client) is not installed");
        start(ServerOptions.builder());
        String base = "http://127.0.0.1:" + server.port();
        for (String upgrade : List.of("-n", "-nu")) {
            Process process = new ProcessBuilder("nghttp", upgrade, "-s", "-t", "20", base + "/hello", base + "/big")
                    .redirectErrorStream(true).start();
            String out = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            process.waitFor(30, TimeUnit.SECONDS);
            assertEquals(0, process.exitValue(), out);
            long answered = out.lines().filter(line -> line.matches(".*\\s200\\s.*/(hello|big)$")).count();
            assertEquals(2, answered, out);
        }
    }

    private static boolean onPath(String program) {
        for (String dir : System.getenv("PATH").split(":")) {
            if (Files.isExecutable(Path.of(dir, program))) {
                return true;
            }
        }
        return false;
    }

    private static String curl(String... args) throws Exception {
        List<String> command = new ArrayList<>();
        command.add("curl");
        command.add("--max-time");
        command.add("20");
        command.addAll(List.of(args));
        Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
        byte[] out = process.getInputStream().readAllBytes();
        process.waitFor(30, TimeUnit.SECONDS);
        return new String(out, StandardCharsets.UTF_8);
    }
}
