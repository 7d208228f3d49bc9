package dev.fleche.transport;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.IOException;
import java.io.OutputStream;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.time.Duration;
import java.time.Instant;
import java.util.jar.JarEntry;
import java.util.jar.JarOutputStream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Static content over HTTP/1.1, exchange by exchange, compared byte for byte ({@code Date} normalised): the file,
 * {@code HEAD}, validators and {@code 304}, ranges ({@code 206}, {@code 416}, {@code If-Range}), {@code 405}, the
 * precompressed choice, a directory's index and its redirect, the fallback, fall-through, dot-files, class path
 * (directory and jar). Every file has the time {@link #TIME}, so entity tags are known here.
 */
class StaticContentTest {
    /** 2026-01-02T03:04:05Z: {@code Last-Modified: Fri, 02 Jan 2026 03:04:05 GMT}, tags start {@code 1886caf21c963200}. */
    static final FileTime TIME = FileTime.from(Instant.parse("2026-01-02T03:04:05Z"));
    static final String HELLO = "Hello, static world!\n"; // 21 bytes: 0x15

    @TempDir
    Path root;
    private HttpServer server;

    @BeforeEach
    void files() throws IOException {
        write("hello.txt", HELLO);
        write("docs/index.html", "<h1>docs</h1>\n");
        Files.createDirectories(root.resolve("empty"));
        write(".env", "SECRET=1\n");
        write("app.js", "console.log('plain');\n");
        write("app.js.gz", "GZ");
        write("app.js.br", "BR");
        write("app.0123abcd.css", "body{}\n");
        write("spa/index.html", "<p>spa</p>\n");
    }

    private void write(String name, String text) throws IOException {
        Path file = root.resolve(name);
        Files.createDirectories(file.getParent());
        Files.writeString(file, text, UTF_8);
        Files.setLastModifiedTime(file, TIME);
    }

    @AfterEach
    void stop() throws Exception {
        if (server != null) {
            server.stop(Duration.ZERO);
        }
    }

    private void start(StaticContent... contents) throws IOException {
        start(exchange -> exchange.respond(200, new HttpFields().add("Content-Type", "text/plain"),
                ("app " + exchange.method() + " " + exchange.path() + "\n").getBytes(UTF_8)), contents);
    }

    private void start(HttpHandler next, StaticContent... contents) throws IOException {
        ServerOptions.Builder options = RawClient.loopback();
        for (StaticContent content : contents) {
            options.staticContent(content);
        }
        server = HttpServer.create(options.build(), next).start();
    }

    private String exchange(String request) throws IOException {
        try (RawClient client = RawClient.connect(server)) {
            client.send(request);
            return request.startsWith("HEAD") ? client.readHeadResponse() : client.readResponse();
        }
    }

    private static String get(String target, String... fields) {
        return "GET " + target + " HTTP/1.1\r\nHost: test\r\n" + String.join("", fields) + "\r\n";
    }

    private static final String HELLO_HEAD = """
            Content-Type: text/plain; charset=utf-8\r
            Last-Modified: Fri, 02 Jan 2026 03:04:05 GMT\r
            ETag: "1886caf21c963200-15"\r
            Cache-Control: no-cache\r
            Accept-Ranges: bytes\r
            X-Content-Type-Options: nosniff\r
            Date: <date>\r
            """;

    @Test
    void getServesTheFileWithItsValidators() throws Exception {
        start(StaticContent.directory("/static/", root).build());
        assertEquals("HTTP/1.1 200 OK\r\n" + HELLO_HEAD + "Content-Length: 21\r\n\r\n" + HELLO,
                exchange(get("/static/hello.txt")));
        assertEquals(0, server.metrics().refusalsByRule().size());
    }

    @Test
    void aSmallFileKeptInMemoryIsReadAgainWhenItChanges() throws Exception {
        start(StaticContent.directory("/static/", root).build());
        assertEquals(HELLO, body(exchange(get("/static/hello.txt"))));
        assertEquals(HELLO, body(exchange(get("/static/hello.txt"))), "from memory");
        String changed = "Hello, STATIC world!\n"; // the same size: only the time tells
        Files.writeString(root.resolve("hello.txt"), changed, UTF_8);
        Files.setLastModifiedTime(root.resolve("hello.txt"), FileTime.from(Instant.parse("2026-01-02T03:04:06Z")));
        String response = exchange(get("/static/hello.txt"));
        assertEquals(changed, body(response));
        assertEquals(true, response.contains("ETag: \"1886caf25830fc00-15\""), response);
    }

    @Test
    void headHasTheHeadAndLengthWithoutTheBody() throws Exception {
        start(StaticContent.directory("/static/", root).build());
        try (RawClient client = RawClient.connect(server)) {
            client.send("HEAD /static/hello.txt HTTP/1.1\r\nHost: test\r\n\r\n");
            assertEquals("HTTP/1.1 200 OK\r\n" + HELLO_HEAD + "Content-Length: 21\r\n\r\n", client.readHeadResponse());
            client.send(get("/static/hello.txt")); // nothing of a body was left on the connection
            assertEquals("HTTP/1.1 200 OK\r\n" + HELLO_HEAD + "Content-Length: 21\r\n\r\n" + HELLO,
                    client.readResponse());
        }
    }

    @Test
    void ifNoneMatchAndIfModifiedSinceAnswer304() throws Exception {
        start(StaticContent.directory("/static/", root).build());
        String notModified = """
                HTTP/1.1 304 Not Modified\r
                Last-Modified: Fri, 02 Jan 2026 03:04:05 GMT\r
                ETag: "1886caf21c963200-15"\r
                Cache-Control: no-cache\r
                Date: <date>\r
                \r
                """;
        assertEquals(notModified, exchange(get("/static/hello.txt", "If-None-Match: \"x\", \"1886caf21c963200-15\"\r\n")));
        assertEquals(notModified, exchange(get("/static/hello.txt", "If-None-Match: W/\"1886caf21c963200-15\"\r\n")));
        assertEquals(notModified, exchange(get("/static/hello.txt", "If-None-Match: *\r\n")));
        assertEquals(notModified, exchange(get("/static/hello.txt",
                "If-Modified-Since: Fri, 02 Jan 2026 03:04:05 GMT\r\n")));
        assertEquals(notModified, exchange(get("/static/hello.txt",
                "If-Modified-Since: Friday, 02-Jan-26 03:04:06 GMT\r\n"))); // RFC 850, a second later
        assertEquals(notModified, exchange(get("/static/hello.txt",
                "If-Modified-Since: Fri Jan  2 03:04:05 2026\r\n"))); // asctime
        String whole = "HTTP/1.1 200 OK\r\n" + HELLO_HEAD + "Content-Length: 21\r\n\r\n" + HELLO;
        assertEquals(whole, exchange(get("/static/hello.txt", "If-None-Match: \"other\"\r\n")));
        assertEquals(whole, exchange(get("/static/hello.txt", "If-Modified-Since: Fri, 02 Jan 2026 03:04:04 GMT\r\n")));
        assertEquals(whole, exchange(get("/static/hello.txt", "If-Modified-Since: yesterday\r\n")));
        // If-None-Match wins over If-Modified-Since (RFC 9110 13.1.3)
        assertEquals(whole, exchange(get("/static/hello.txt", "If-None-Match: \"other\"\r\n",
                "If-Modified-Since: Fri, 02 Jan 2026 03:04:05 GMT\r\n")));
    }

    @Test
    void ifMatchAndIfUnmodifiedSinceAnswer412WhenTheFileIsNotTheOneMeant() throws Exception {
        start(StaticContent.directory("/static/", root).build());
        String failed = """
                HTTP/1.1 412 Precondition Failed\r
                Content-Type: text/plain; charset=utf-8\r
                Date: <date>\r
                Content-Length: 20\r
                \r
                precondition failed
                """;
        assertEquals(failed, exchange(get("/static/hello.txt", "If-Match: \"other\"\r\n")));
        assertEquals(failed, exchange(get("/static/hello.txt", "If-Match: W/\"1886caf21c963200-15\"\r\n")),
                "If-Match compares strongly: a weak tag never matches");
        assertEquals(failed, exchange(get("/static/hello.txt", "If-Match: \"1886caf21c963200-15\r\n")),
                "malformed: matches nothing");
        assertEquals(failed, exchange(get("/static/hello.txt",
                "If-Unmodified-Since: Fri, 02 Jan 2026 03:04:04 GMT\r\n")), "changed a second after the date");
        // If-Match comes before If-None-Match and Range (RFC 9110 13.2.2): a 412 even where they would answer
        assertEquals(failed, exchange(get("/static/hello.txt", "If-Match: \"other\"\r\n",
                "If-None-Match: *\r\n")));
        assertEquals(failed, exchange(get("/static/hello.txt", "If-Match: \"other\"\r\n", "Range: bytes=0-4\r\n")));
        String whole = "HTTP/1.1 200 OK\r\n" + HELLO_HEAD + "Content-Length: 21\r\n\r\n" + HELLO;
        assertEquals(whole, exchange(get("/static/hello.txt", "If-Match: \"x\", \"1886caf21c963200-15\"\r\n")));
        assertEquals(whole, exchange(get("/static/hello.txt", "If-Match: *\r\n")));
        assertEquals(whole, exchange(get("/static/hello.txt",
                "If-Unmodified-Since: Fri, 02 Jan 2026 03:04:05 GMT\r\n")));
        assertEquals(whole, exchange(get("/static/hello.txt", "If-Unmodified-Since: yesterday\r\n")),
                "a date that does not parse is ignored");
        // If-Unmodified-Since is ignored when If-Match is present (RFC 9110 13.1.4)
        assertEquals(whole, exchange(get("/static/hello.txt", "If-Match: \"1886caf21c963200-15\"\r\n",
                "If-Unmodified-Since: Fri, 02 Jan 2026 03:04:04 GMT\r\n")));
        // a resumed download of the same file: If-Match with Range
        assertEquals("HTTP/1.1 206 Partial Content\r\n" + HELLO_HEAD.replace("Date:",
                "Content-Range: bytes 0-4/21\r\nDate:") + "Content-Length: 5\r\n\r\nHello",
                exchange(get("/static/hello.txt", "If-Match: \"1886caf21c963200-15\"\r\n", "Range: bytes=0-4\r\n")));
        assertEquals(6, server.metrics().refusals("STATIC_PRECONDITION_FAILED"));
    }

    @Test
    void rangesAnswer206Or416() throws Exception {
        start(StaticContent.directory("/static/", root).build());
        assertEquals("HTTP/1.1 206 Partial Content\r\n" + HELLO_HEAD.replace("Date:", "Content-Range: bytes 0-4/21\r\nDate:")
                + "Content-Length: 5\r\n\r\nHello", exchange(get("/static/hello.txt", "Range: bytes=0-4\r\n")));
        assertEquals("HTTP/1.1 206 Partial Content\r\n" + HELLO_HEAD.replace("Date:", "Content-Range: bytes 14-20/21\r\nDate:")
                + "Content-Length: 7\r\n\r\nworld!\n", exchange(get("/static/hello.txt", "Range: bytes=-7\r\n")));
        assertEquals("HTTP/1.1 206 Partial Content\r\n" + HELLO_HEAD.replace("Date:", "Content-Range: bytes 7-20/21\r\nDate:")
                + "Content-Length: 14\r\n\r\nstatic world!\n", exchange(get("/static/hello.txt", "Range: bytes=7-99\r\n")));
        assertEquals("""
                HTTP/1.1 416 Range Not Satisfiable\r
                Content-Type: text/plain; charset=utf-8\r
                Content-Range: bytes */21\r
                Date: <date>\r
                Content-Length: 22\r
                \r
                range not satisfiable
                """, exchange(get("/static/hello.txt", "Range: bytes=21-\r\n")));
        String whole = "HTTP/1.1 200 OK\r\n" + HELLO_HEAD + "Content-Length: 21\r\n\r\n" + HELLO;
        assertEquals(whole, exchange(get("/static/hello.txt", "Range: bytes=0-1,4-5\r\n")), "several ranges: ignored");
        assertEquals(whole, exchange(get("/static/hello.txt", "Range: bytes=5-1\r\n")), "malformed: ignored");
        assertEquals(whole, exchange(get("/static/hello.txt", "Range: lines=1-2\r\n")), "another unit: ignored");
        assertEquals(whole, exchange(get("/static/hello.txt", "Range: bytes=0-4\r\n", "If-Range: \"other\"\r\n")));
        assertEquals(whole, exchange(get("/static/hello.txt", "Range: bytes=0-4\r\n",
                "If-Range: W/\"1886caf21c963200-15\"\r\n")), "a weak tag never matches If-Range");
        String first5 = "HTTP/1.1 206 Partial Content\r\n" + HELLO_HEAD.replace("Date:",
                "Content-Range: bytes 0-4/21\r\nDate:") + "Content-Length: 5\r\n\r\nHello";
        assertEquals(first5, exchange(get("/static/hello.txt", "Range: bytes=0-4\r\n",
                "If-Range: \"1886caf21c963200-15\"\r\n")));
        assertEquals(first5, exchange(get("/static/hello.txt", "Range: bytes=0-4\r\n",
                "If-Range: Fri, 02 Jan 2026 03:04:05 GMT\r\n")));
        assertEquals(1, server.metrics().refusals("STATIC_RANGE_NOT_SATISFIABLE"));
    }

    @Test
    void otherMethodsAre405WithAllow() throws Exception {
        start(StaticContent.directory("/static/", root).build());
        assertEquals("""
                HTTP/1.1 405 Method Not Allowed\r
                Content-Type: text/plain; charset=utf-8\r
                Allow: GET, HEAD\r
                Date: <date>\r
                Content-Length: 19\r
                \r
                method not allowed
                """, exchange("POST /static/hello.txt HTTP/1.1\r\nHost: test\r\nContent-Length: 2\r\n\r\nhi"));
        assertEquals(1, server.metrics().refusals("STATIC_METHOD_NOT_ALLOWED"));
    }

    @Test
    void precompressedSiblingsByAcceptEncodingWithVary() throws Exception {
        start(StaticContent.directory("/static/", root).precompressed(true).build());
        String head = """
                HTTP/1.1 200 OK\r
                Content-Type: text/javascript; charset=utf-8\r
                %sVary: Accept-Encoding\r
                Last-Modified: Fri, 02 Jan 2026 03:04:05 GMT\r
                ETag: "1886caf21c963200-%s"\r
                Cache-Control: no-cache\r
                Accept-Ranges: bytes\r
                X-Content-Type-Options: nosniff\r
                Date: <date>\r
                Content-Length: %d\r
                \r
                """;
        assertEquals(head.formatted("Content-Encoding: br\r\n", "2-br", 2) + "BR",
                exchange(get("/static/app.js", "Accept-Encoding: gzip, deflate, br\r\n")));
        assertEquals(head.formatted("Content-Encoding: gzip\r\n", "2-gzip", 2) + "GZ",
                exchange(get("/static/app.js", "Accept-Encoding: gzip, br;q=0\r\n")));
        assertEquals(head.formatted("Content-Encoding: gzip\r\n", "2-gzip", 2) + "GZ",
                exchange(get("/static/app.js", "Accept-Encoding: *;q=0.5, br;q=0\r\n")));
        assertEquals(head.formatted("", "16", 22) + "console.log('plain');\n",
                exchange(get("/static/app.js", "Accept-Encoding: identity\r\n")));
        assertEquals(head.formatted("", "16", 22) + "console.log('plain');\n", exchange(get("/static/app.js")));
        assertEquals("""
                HTTP/1.1 304 Not Modified\r
                Vary: Accept-Encoding\r
                Last-Modified: Fri, 02 Jan 2026 03:04:05 GMT\r
                ETag: "1886caf21c963200-2-br"\r
                Cache-Control: no-cache\r
                Date: <date>\r
                \r
                """, exchange(get("/static/app.js", "Accept-Encoding: br\r\n",
                "If-None-Match: \"1886caf21c963200-2-br\"\r\n")));
    }

    @Test
    void fingerprintedNamesAreImmutable() throws Exception {
        start(StaticContent.directory("/static/", root).build());
        assertEquals("""
                HTTP/1.1 200 OK\r
                Content-Type: text/css; charset=utf-8\r
                Last-Modified: Fri, 02 Jan 2026 03:04:05 GMT\r
                ETag: "1886caf21c963200-7"\r
                Cache-Control: public, max-age=31536000, immutable\r
                Accept-Ranges: bytes\r
                X-Content-Type-Options: nosniff\r
                Date: <date>\r
                Content-Length: 7\r
                \r
                body{}
                """, exchange(get("/static/app.0123abcd.css")));
    }

    @Test
    void aDirectoryServesItsIndexAndIsRedirectedToItsSlash() throws Exception {
        start(StaticContent.directory("/static/", root).build());
        assertEquals("""
                HTTP/1.1 200 OK\r
                Content-Type: text/html; charset=utf-8\r
                Last-Modified: Fri, 02 Jan 2026 03:04:05 GMT\r
                ETag: "1886caf21c963200-e"\r
                Cache-Control: no-cache\r
                Accept-Ranges: bytes\r
                X-Content-Type-Options: nosniff\r
                Date: <date>\r
                Content-Length: 14\r
                \r
                <h1>docs</h1>
                """, exchange(get("/static/docs/")));
        String redirect = """
                HTTP/1.1 301 Moved Permanently\r
                Location: %s\r
                Date: <date>\r
                Content-Length: 0\r
                \r
                """;
        assertEquals(redirect.formatted("/static/docs/?v=1"), exchange(get("/static/docs?v=1")));
        assertEquals(redirect.formatted("/static/"), exchange(get("/static")));
        String missing = """
                HTTP/1.1 404 Not Found\r
                Content-Type: text/plain; charset=utf-8\r
                Date: <date>\r
                Content-Length: 10\r
                \r
                not found
                """;
        assertEquals(missing, exchange(get("/static/empty/")), "no listing");
        assertEquals(missing, exchange(get("/static/hello.txt/")), "a file is no directory");
        assertEquals(missing, exchange(get("/static/nothing.txt")));
        assertEquals(3, server.metrics().refusals("STATIC_NOT_FOUND"));
    }

    @Test
    void refusalsAreAccessLoggedWithTheirRuleAndTheFileWithItsBytes() throws Exception {
        try (CapturedLines log = new CapturedLines()) {
            ServerOptions.Builder options = RawClient.loopback().accessLog(AccessLog.builder().logger(log.name())
                    .build()).staticContent(StaticContent.directory("/static/", root).build());
            server = HttpServer.create(options.build(), exchange -> exchange.respond(200, new HttpFields(0),
                    new byte[0])).start();
            exchange(get("/static/%2e%2e/secret"));
            exchange(get("/static/hello.txt"));
            java.util.List<String> lines = log.await(2);
            assertEquals(true, lines.get(0).contains("\"status\":400") && lines.get(0).contains(
                    "\"rule\":\"STATIC_BAD_PATH\""), lines.get(0));
            assertEquals(true, lines.get(1).contains("\"status\":200") && lines.get(1).contains("\"bytesOut\":")
                    && !lines.get(1).contains("\"rule\""), lines.get(1));
            assertEquals(1, server.metrics().refusals("STATIC_BAD_PATH"));
        }
    }

    @Test
    void dotFilesAreHiddenUnlessServed() throws Exception {
        start(StaticContent.directory("/static/", root).build(),
                StaticContent.directory("/all/", root).hidden(true).build());
        assertEquals(404, status(exchange(get("/static/.env"))));
        assertEquals(404, status(exchange(get("/static/%2eenv"))));
        assertEquals(200, status(exchange(get("/all/.env"))));
        assertEquals(2, server.metrics().refusals("STATIC_HIDDEN"));
    }

    @Test
    void theFallbackServesTheRoutesOfASinglePageApplication() throws Exception {
        start(StaticContent.directory("/spa/", root.resolve("spa")).fallback("index.html").build());
        String page = """
                HTTP/1.1 200 OK\r
                Content-Type: text/html; charset=utf-8\r
                Last-Modified: Fri, 02 Jan 2026 03:04:05 GMT\r
                ETag: "1886caf21c963200-b"\r
                Cache-Control: no-cache\r
                Accept-Ranges: bytes\r
                X-Content-Type-Options: nosniff\r
                Date: <date>\r
                Content-Length: 11\r
                \r
                <p>spa</p>
                """;
        assertEquals(page, exchange(get("/spa/orders/42")));
        assertEquals(page, exchange(get("/spa/")));
        assertEquals(400, status(exchange(get("/spa/%2e%2e/hello.txt"))), "a refused path gets no fallback");
    }

    @Test
    void fallThroughLeavesWhatItCannotServeToTheApplication() throws Exception {
        start(StaticContent.directory("/", root).fallThrough(true).build());
        assertEquals(200, status(exchange(get("/hello.txt"))));
        assertEquals("""
                HTTP/1.1 200 OK\r
                Content-Type: text/plain\r
                Date: <date>\r
                Content-Length: 20\r
                \r
                app GET /todos/17/x
                """, exchange(get("/todos/17/x")));
        assertEquals("""
                HTTP/1.1 200 OK\r
                Content-Type: text/plain\r
                Date: <date>\r
                Content-Length: 20\r
                \r
                app POST /hello.txt
                """, exchange("POST /hello.txt HTTP/1.1\r\nHost: test\r\nContent-Length: 0\r\n\r\n"));
        assertEquals("app GET /%2e%2e/x\n", body(exchange(get("/%2e%2e/x"))), "a refused path: the application's");
        assertEquals(0, server.metrics().refusalsByRule().size());
    }

    @Test
    void withoutANextHandlerWhatNoPrefixClaimsIs404() throws Exception {
        server = HttpServer.create(RawClient.loopback().build(),
                StaticHandler.of(null, StaticContent.directory("/static/", root).build())).start();
        assertEquals(404, status(exchange(get("/other"))));
        assertEquals(200, status(exchange(get("/static/hello.txt"))));
    }

    @Test
    void classPathResourcesFromADirectoryAndAJar(@TempDir Path jars) throws Exception {
        Path classes = jars.resolve("classes");
        Files.createDirectories(classes.resolve("web/sub"));
        Files.writeString(classes.resolve("web/hello.txt"), HELLO);
        Files.setLastModifiedTime(classes.resolve("web/hello.txt"), TIME);
        Path jar = jars.resolve("site.jar");
        try (JarOutputStream out = new JarOutputStream(Files.newOutputStream(jar))) {
            out.putNextEntry(new JarEntry("site/"));
            out.putNextEntry(new JarEntry("site/docs/"));
            JarEntry index = new JarEntry("site/docs/index.html");
            index.setTime(TIME.toMillis());
            out.putNextEntry(index);
            out.write("<h1>jar</h1>\n".getBytes(UTF_8));
            JarEntry big = new JarEntry("site/big.bin");
            big.setTime(TIME.toMillis());
            out.putNextEntry(big);
            out.write(new byte[100_000]);
        }
        try (URLClassLoader loader = new URLClassLoader(new URL[] {classes.toUri().toURL(), jar.toUri().toURL()}, null)) {
            start(StaticContent.classPath("/c/", "web", loader).build(),
                    StaticContent.classPath("/j/", "site", loader).build());
            String hello = """
                    HTTP/1.1 200 OK\r
                    Content-Type: text/plain; charset=utf-8\r
                    Last-Modified: Fri, 02 Jan 2026 03:04:05 GMT\r
                    ETag: "c6d31839d17c2eb4ef956f99"\r
                    Cache-Control: no-cache\r
                    Accept-Ranges: bytes\r
                    X-Content-Type-Options: nosniff\r
                    Date: <date>\r
                    Content-Length: 21\r
                    \r
                    """ + HELLO;
            assertEquals(hello, exchange(get("/c/hello.txt")), "learnt off the reactor");
            assertEquals(hello, exchange(get("/c/hello.txt")), "from the cache");
            assertEquals(301, status(exchange(get("/c/sub"))));
            assertEquals(404, status(exchange(get("/c/sub/"))), "a folder without index");
            assertEquals(404, status(exchange(get("/c/missing.txt"))));
            assertEquals(301, status(exchange(get("/j/docs"))));
            assertEquals("<h1>jar</h1>\n", body(exchange(get("/j/docs/"))));
            String big = exchange(get("/j/big.bin"));
            assertEquals(200, status(big));
            assertEquals(100_000, body(big).length(), "larger than the cache takes: read each time");
            String part = exchange(get("/j/big.bin", "Range: bytes=99990-\r\n"));
            assertEquals(206, status(part));
            assertEquals(10, body(part).length());
        }
    }

    static int status(String response) {
        return Integer.parseInt(response.substring(9, 12));
    }

    static String body(String response) {
        return response.substring(response.indexOf("\r\n\r\n") + 4);
    }
}
