package dev.fleche.jersey;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.fleche.transport.ServerOptions;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.container.ContainerRequestContext;
import jakarta.ws.rs.core.Context;
import jakarta.ws.rs.core.UriInfo;
import org.glassfish.jersey.server.ResourceConfig;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.Comparator;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import java.util.stream.Stream;

/**
 * nginx (Debian's package) as the reverse proxy in front of a Jersey application on a Unix domain socket
 * ({@code proxy_pass http://unix:...}, keep-alive upstream connections): requests and bodies go through, and the
 * base URI Jersey builds is the one the client asked nginx for. Skipped where nginx is not installed, unless
 * {@code -Dfleche.requireRealProxies=true}, which CI's stage ({@code .ci/real-proxies.sh}, which installs it) sets.
 */
@Timeout(120)
class NginxUnixSocketTest {
    private FlecheHttpServer server;
    private Process nginx;
    private java.nio.file.Path dir;

    @Path("echo")
    public static class Echo {
        @GET
        public String get(@Context UriInfo uri, @Context ContainerRequestContext request) {
            return "base=" + uri.getBaseUri() + " request=" + uri.getRequestUri() + " remote="
                    + request.getProperty(FlecheProperties.REMOTE_ADDRESS);
        }

        @POST
        @Consumes("text/plain")
        public String post(String body) {
            return "got " + body.length() + " characters";
        }
    }

    @AfterEach
    void stop() throws Exception {
        if (nginx != null) {
            nginx.destroy();
            if (!nginx.waitFor(10, TimeUnit.SECONDS)) {
                nginx.destroyForcibly();
            }
        }
        if (server != null) {
            server.stop(Duration.ZERO);
        }
        if (dir != null) {
            try (Stream<java.nio.file.Path> files = Files.walk(dir)) {
                files.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
            }
        }
    }

    @Test
    void nginxProxiesToTheSocket() throws Exception {
        boolean required = Boolean.getBoolean("fleche.requireRealProxies");
        boolean present = installed();
        if (required) {
            assertTrue(present, "nginx is required (-Dfleche.requireRealProxies=true) but not installed");
        }
        assumeTrue(present, "nginx is not installed");
        // nginx's workers may run as another user: a directory they can enter, a socket they can connect to
        dir = Files.createTempDirectory("fleche-nginx");
        Files.setPosixFilePermissions(dir, PosixFilePermissions.fromString("rwxr-xr-x"));
        java.nio.file.Path socket = dir.resolve("app.sock");
        server = FlecheHttpServerFactory.createServer(URI.create("http+unix://"
                + URLEncoder.encode(socket.toString(), StandardCharsets.UTF_8) + "/app/"),
                new ResourceConfig(Echo.class), ServerOptions.builder().unixSocketPermissions("rw-rw-rw-").build());
        int port;
        try (ServerSocket free = new ServerSocket(0, 1, InetAddress.getByName("127.0.0.1"))) {
            port = free.getLocalPort();
        }
        // as root, nginx's workers would be nobody, who may not write its temporary files here
        String user = "root".equals(System.getProperty("user.name")) ? "user root;" : "";
        Files.writeString(dir.resolve("nginx.conf"), String.join("\n",
                "daemon off;",
                user,
                "worker_processes 1;",
                "pid " + dir.resolve("nginx.pid") + ";",
                "error_log " + dir.resolve("error.log") + " warn;",
                "events { worker_connections 64; }",
                "http {",
                "    access_log off;",
                "    client_body_temp_path " + dir.resolve("body") + ";",
                "    proxy_temp_path " + dir.resolve("proxy") + ";",
                "    fastcgi_temp_path " + dir.resolve("fastcgi") + ";",
                "    uwsgi_temp_path " + dir.resolve("uwsgi") + ";",
                "    scgi_temp_path " + dir.resolve("scgi") + ";",
                "    upstream fleche {",
                "        server unix:" + socket + ";",
                "        keepalive 4;",
                "    }",
                "    server {",
                "        listen 127.0.0.1:" + port + ";",
                "        location / {",
                "            proxy_pass http://fleche;",
                "            proxy_http_version 1.1;",
                "            proxy_set_header Connection \"\";",
                "            proxy_set_header Host $http_host;",
                "        }",
                "    }",
                "}",
                ""));
        nginx = new ProcessBuilder("nginx", "-p", dir.toString(), "-c", dir.resolve("nginx.conf").toString(),
                "-e", dir.resolve("error.log").toString()).redirectErrorStream(true)
                .redirectOutput(dir.resolve("nginx.out").toFile()).start();
        awaitListening(port);

        HttpClient client = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
        for (int i = 0; i < 3; i++) { // one keep-alive upstream connection carries them
            HttpResponse<String> response = client.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port
                    + "/app/echo?n=" + i)).build(), HttpResponse.BodyHandlers.ofString());
            assertEquals(200, response.statusCode(), response.body() + log());
            assertEquals("base=http://127.0.0.1:" + port + "/app/ request=http://127.0.0.1:" + port
                    + "/app/echo?n=" + i + " remote=null", response.body());
        }
        String body = "x".repeat(100_000);
        HttpResponse<String> posted = client.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port
                + "/app/echo")).header("Content-Type", "text/plain").POST(HttpRequest.BodyPublishers.ofString(body))
                .build(), HttpResponse.BodyHandlers.ofString());
        assertEquals("got 100000 characters", posted.body());
        assertEquals(4, server.transport().metrics().requests());
        assertTrue(server.transport().metrics().acceptedConnections() <= 2,
                "nginx kept its upstream connection: " + server.transport().metrics().acceptedConnections());
    }

    private static boolean installed() {
        try {
            Process process = new ProcessBuilder("nginx", "-v").redirectErrorStream(true).start();
            process.getInputStream().readAllBytes();
            return process.waitFor(10, TimeUnit.SECONDS) && process.exitValue() == 0;
        } catch (IOException e) {
            return false;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }

    private String log() {
        try {
            return "\nnginx: " + Files.readString(dir.resolve("error.log")) + Files.readString(dir.resolve("nginx.out"));
        } catch (IOException e) {
            return "";
        }
    }

    private void awaitListening(int port) {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (true) {
            if (!nginx.isAlive()) {
                throw new AssertionError("nginx ended" + log());
            }
            try (Socket probe = new Socket(InetAddress.getByName("127.0.0.1"), port)) {
                return;
            } catch (IOException e) {
                if (System.nanoTime() > deadline) {
                    throw new AssertionError("nginx did not listen within 30 s" + log());
                }
                LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(20));
            }
        }
    }
}
