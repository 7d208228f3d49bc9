package dev.fleche.conformance.h2;

import dev.fleche.transport.HttpExchange;
import dev.fleche.transport.HttpFields;
import dev.fleche.transport.HttpServer;
import dev.fleche.transport.ServerOptions;
import dev.fleche.transport.TlsOptions;
import dev.fleche.transport.testing.TestCertificates;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import javax.net.ssl.SSLContext;

/**
 * The two servers every conformance test talks to, started once for the whole run and stopped at its end: the
 * transport's {@link HttpServer} with its default options (what users get), one on clear text (HTTP/2 by prior
 * knowledge, RFC 9113 3.3) and one on TLS (ALPN {@code h2}, RFC 9113 3.2) with a self-signed key made by the JDK's
 * keytool ({@link TestCertificates}).
 *
 * <p>The handler answers every request with {@code 200} and a text body that tells what it received, so that a test
 * can check what the server decoded, not only that it answered:
 *
 * <pre>
 * GET /path            the method and the target
 * user-agent: x        each header field, in order, as the handler saw it
 * body: 4 octets       the request content's length
 * trailer x-test: ok   each trailer field
 * </pre>
 *
 * A request with content is read to its end on a worker thread first (the transport's body stream blocks).
 */
public final class Servers implements BeforeAllCallback {
    private static volatile Running running;

    @Override
    public void beforeAll(ExtensionContext context) {
        running = context.getRoot().getStore(ExtensionContext.Namespace.GLOBAL)
                .getOrComputeIfAbsent(Running.class, key -> Running.start(), Running.class);
    }

    /** The address of the server for {@code transport}. */
    static InetSocketAddress address(Transport transport) {
        Running servers = running;
        if (servers == null) {
            throw new IllegalStateException("no servers: the test class lacks @ExtendWith(Servers.class)");
        }
        HttpServer server = transport == Transport.TLS ? servers.tls : servers.plain;
        return new InetSocketAddress("127.0.0.1", server.port());
    }

    /** A client context that trusts the test server's certificate. */
    static SSLContext clientContext() {
        return TestCertificates.get().clientContext();
    }

    /** The servers and their workers; closed by JUnit when the run ends. */
    static final class Running implements ExtensionContext.Store.CloseableResource {
        private final ExecutorService workers = Executors.newCachedThreadPool(task -> {
            Thread thread = new Thread(task, "conformance-worker");
            thread.setDaemon(true);
            return thread;
        });
        private final HttpServer plain;
        private final HttpServer tls;

        private Running() throws IOException {
            plain = HttpServer.create(options().build(), this::handle).start();
            SSLContext context = TestCertificates.get().serverContext(TestCertificates.ServerKey.EC_P256);
            tls = HttpServer.create(options().tls(TlsOptions.builder(context).build()).build(), this::handle).start();
        }

        static Running start() {
            try {
                return new Running();
            } catch (IOException e) {
                throw new UncheckedIOException("could not start the servers under test", e);
            }
        }

        private static ServerOptions.Builder options() {
            return ServerOptions.builder().address("127.0.0.1", 0);
        }

        private void handle(HttpExchange exchange) {
            if (exchange.isBodyReceived()) {
                answer(exchange);
            } else {
                workers.execute(() -> answer(exchange));
            }
        }

        private static void answer(HttpExchange exchange) {
            long length;
            try (InputStream body = exchange.requestBody()) {
                length = body.transferTo(OutputStream.nullOutputStream());
            } catch (IOException | RuntimeException e) {
                return; // the transport refused the body or the stream was reset: it answers, not us
            }
            StringBuilder text = new StringBuilder(exchange.method()).append(' ').append(exchange.target())
                    .append('\n');
            exchange.headers().forEach((name, value) -> text.append(name).append(": ").append(value).append('\n'));
            text.append("body: ").append(length).append(" octets\n");
            exchange.trailers().forEach((name, value) -> text.append("trailer ").append(name).append(": ")
                    .append(value).append('\n'));
            try {
                exchange.respond(200, new HttpFields().add("content-type", "text/plain; charset=utf-8"),
                        text.toString().getBytes(StandardCharsets.UTF_8));
            } catch (RuntimeException e) {
                // the stream ended meanwhile (a test reset it): nobody to answer
            }
        }

        @Override
        public void close() throws InterruptedException {
            try {
                plain.stop(Duration.ofSeconds(1));
                tls.stop(Duration.ofSeconds(1));
            } finally {
                workers.shutdownNow();
            }
        }
    }
}
