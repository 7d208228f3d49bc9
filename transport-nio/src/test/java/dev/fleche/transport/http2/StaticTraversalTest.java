package dev.fleche.transport.http2;

import static java.nio.charset.StandardCharsets.ISO_8859_1;
import static java.nio.charset.StandardCharsets.UTF_8;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.fleche.transport.HttpFields;
import dev.fleche.transport.HttpServer;
import dev.fleche.transport.ServerOptions;
import dev.fleche.transport.StaticContent;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.Socket;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A traversal corpus against static content, over HTTP/1.1 (raw bytes on a socket) and HTTP/2 (raw frames, the
 * {@code :path} as given): dot segments raw and percent-encoded (either case, mixed, double-encoded), encoded
 * separators and backslashes, NUL, overlong and malformed UTF-8, IIS {@code %u}, Tomcat {@code ..;}, empty segments,
 * absolute-form targets, symbolic links to a file and a directory out of the root, a sibling directory whose name
 * starts like the root's. Served from a directory and from the class path (a directory on a class loader). No
 * response may carry a byte of a file outside the root ({@code SECRET} and {@code EVIL} are in every such file);
 * each must be a refusal (4xx), and the two links that stay inside the root are served.
 */
class StaticTraversalTest {
    private static final String SECRET = "TOP-SECRET-7f3a";
    private static final String EVIL = "EVIL-SIBLING-91c2";

    /** Every target, for both prefixes ({@code P} is the prefix's name). */
    static final List<String> CORPUS = List.of(
            "/P/../secret.txt",
            "/P/%2e%2e/secret.txt",
            "/P/%2E%2E/secret.txt",
            "/P/.%2e/secret.txt",
            "/P/%2e./secret.txt",
            "/P/a/../../secret.txt",
            "/P/a/%2e%2e/%2e%2e/secret.txt",
            "/P/..%2fsecret.txt",
            "/P/%2e%2e%2fsecret.txt",
            "/P/%2e%2e%2Fsecret.txt",
            "/P/..%5csecret.txt",
            "/P/%2e%2e%5Csecret.txt",
            "/P/..\\secret.txt",
            "/P/%252e%252e/secret.txt",
            "/P/.%252e/secret.txt",
            "/P/%c0%ae%c0%ae/secret.txt",
            "/P/%c0%af..%c0%afsecret.txt",
            "/P/%e0%80%ae%e0%80%ae/secret.txt",
            "/P/%c0%2e%c0%2e/secret.txt",
            "/P/%u002e%u002e/secret.txt",
            "/P/ok.txt%00.html",
            "/P/%00",
            "/P/ok.txt%0a",
            "/P/link-out",
            "/P/dir-out/secret.txt",
            "/P/dir-out/www/ok.txt",
            "/P//etc/passwd",
            "/P/%2fetc%2fpasswd",
            "/P/./ok.txt",
            "/P/%2e/ok.txt",
            "/P/a/./b.txt",
            "/P/..",
            "/P/%2e%2e",
            "/P/../www-evil/x.txt",
            "/P/%2e%2e/www-evil/x.txt",
            "/P/a%2f..%2f..%2fsecret.txt",
            "/P/..;/secret.txt",
            "/P/....//secret.txt",
            "/P/.../secret.txt",
            "/P/ok.txt/../../secret.txt",
            "/P/a/b.txt/..%2f..%2f..%2fsecret.txt",
            "/P/%2e%2e/%2e%2e/%2e%2e/%2e%2e/%2e%2e/%2e%2e/etc/passwd",
            "/P/%5c..%5c..%5csecret.txt");

    /** Paths that stay inside the root through a link, served as the file they name. */
    static final List<String> INSIDE = List.of("/P/link-in", "/P/dir-in/b.txt", "/P/ok.txt");

    @TempDir
    static Path top;
    private static HttpServer server;
    private static URLClassLoader loader;

    @BeforeAll
    static void start() throws IOException {
        Path www = Files.createDirectories(top.resolve("www"));
        Files.writeString(top.resolve("secret.txt"), SECRET + "\n", UTF_8);
        Files.createDirectories(top.resolve("www-evil"));
        Files.writeString(top.resolve("www-evil/x.txt"), EVIL + "\n", UTF_8);
        Files.writeString(www.resolve("ok.txt"), "ok\n", UTF_8);
        Files.createDirectories(www.resolve("a"));
        Files.writeString(www.resolve("a/b.txt"), "b\n", UTF_8);
        Files.writeString(www.resolve("...txt"), SECRET + " hidden\n", UTF_8); // a dot-file: never served
        Files.createSymbolicLink(www.resolve("link-out"), top.resolve("secret.txt"));
        Files.createSymbolicLink(www.resolve("dir-out"), top);
        Files.createSymbolicLink(www.resolve("link-in"), www.resolve("ok.txt"));
        Files.createSymbolicLink(www.resolve("dir-in"), www.resolve("a"));
        loader = new URLClassLoader(new URL[] {top.toUri().toURL()}, null);
        server = HttpServer.create(ServerOptions.builder().address("127.0.0.1", 0).reactors(1)
                .staticContent(StaticContent.directory("/dir/", www).build())
                .staticContent(StaticContent.classPath("/cp/", "www", loader).build())
                .build(), exchange -> exchange.respond(200, new HttpFields(0), "app\n".getBytes(UTF_8))).start();
    }

    @AfterAll
    static void stop() throws Exception {
        server.stop(Duration.ZERO);
        loader.close();
    }

    @Test
    void theCorpusIsLargeEnough() {
        assertTrue(CORPUS.size() * 2 >= 30, "at least 30 requests per protocol");
    }

    @Test
    void http11NeverServesAByteFromOutsideTheRoot() throws IOException {
        List<String> seen = new ArrayList<>();
        for (String prefix : List.of("dir", "cp")) {
            for (String path : CORPUS) {
                String target = path.replace("/P/", "/" + prefix + "/");
                String response = http11(target);
                seen.add(target + " -> " + response.lines().findFirst().orElse("(nothing)"));
                assertFalse(response.contains(SECRET) || response.contains(EVIL), target + " leaked: " + response);
                int status = Integer.parseInt(response.substring(9, 12));
                assertTrue(status >= 400 && status < 500, target + " answered " + response);
            }
            String absolute = http11Raw("GET http://test/" + prefix + "/../secret.txt HTTP/1.1\r\nHost: test\r\n\r\n");
            assertFalse(absolute.contains(SECRET), absolute);
            assertTrue(absolute.startsWith("HTTP/1.1 4"), absolute);
            for (String path : INSIDE) {
                String response = http11(path.replace("/P/", "/" + prefix + "/"));
                assertTrue(response.startsWith("HTTP/1.1 200 "), path + ": " + response);
            }
        }
        assertTrue(seen.size() >= 30, seen.toString());
    }

    @Test
    void http2NeverServesAByteFromOutsideTheRoot() throws IOException {
        for (String prefix : List.of("dir", "cp")) {
            for (String path : CORPUS) {
                String target = path.replace("/P/", "/" + prefix + "/");
                H2Answer answer = http2(target);
                assertFalse(answer.body.contains(SECRET) || answer.body.contains(EVIL), target + " leaked: " + answer);
                assertTrue(answer.status == 0 || (answer.status >= 400 && answer.status < 500),
                        target + " answered " + answer); // 0: the stream was reset (a :path the parser refuses)
            }
            for (String path : INSIDE) {
                H2Answer answer = http2(path.replace("/P/", "/" + prefix + "/"));
                assertEquals(200, answer.status, path + ": " + answer);
            }
        }
    }

    private static String http11(String target) throws IOException {
        return http11Raw("GET " + target + " HTTP/1.1\r\nHost: test\r\nConnection: close\r\n\r\n");
    }

    private static String http11Raw(String request) throws IOException {
        try (Socket socket = new Socket(InetAddress.getLoopbackAddress(), server.port())) {
            socket.setSoTimeout(10_000);
            OutputStream out = socket.getOutputStream();
            out.write(request.getBytes(ISO_8859_1));
            out.flush();
            socket.shutdownOutput();
            InputStream in = socket.getInputStream();
            ByteArrayOutputStream all = new ByteArrayOutputStream();
            in.transferTo(all);
            return all.toString(ISO_8859_1);
        }
    }

    record H2Answer(int status, String body, String frames) {
    }

    private static H2Answer http2(String path) throws IOException {
        try (H2Client client = new H2Client(server.port()).handshake()) {
            client.get(1, path);
            int status = 0;
            ByteArrayOutputStream body = new ByteArrayOutputStream();
            StringBuilder frames = new StringBuilder();
            while (true) {
                H2Client.Frame frame = client.next();
                frames.append(frame).append(' ');
                if (frame.type() == H2Client.HEADERS && frame.stream() == 1) {
                    status = Integer.parseInt(frame.fields().get(0).substring(":status: ".length()));
                } else if (frame.type() == H2Client.DATA && frame.stream() == 1) {
                    body.write(frame.payload());
                } else if (frame.type() == H2Client.RST_STREAM || frame.type() == H2Client.GOAWAY) {
                    return new H2Answer(status, body.toString(ISO_8859_1), frames.toString());
                }
                if (frame.stream() == 1 && frame.has(H2Client.END_STREAM)) {
                    return new H2Answer(status, body.toString(ISO_8859_1), frames.toString());
                }
            }
        }
    }
}
