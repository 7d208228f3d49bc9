package dev.fleche.conformance.tck.h2c;

import jakarta.ws.rs.ProcessingException;
import org.glassfish.jersey.client.ClientRequest;
import org.glassfish.jersey.client.ClientResponse;
import org.glassfish.jersey.client.spi.AsyncConnectorCallback;
import org.glassfish.jersey.client.spi.Connector;
import org.glassfish.jersey.jnh.connector.JavaNetHttpConnector;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * Jersey's JDK connector, with the connection opened first so that every request of the test goes as an HTTP/2
 * stream: a client reaches h2c by putting {@code Upgrade: h2c} on an HTTP/1.1 request (RFC 7540 3.2), and that
 * first request is framed as HTTP/1.1 — a server need not upgrade one with a body (Fleche serves it as HTTP/1.1),
 * and the JDK client adds {@code Content-Length: 0} to a body-less one, which a resource sees
 * ({@code getLength()} 0 instead of -1). So before the first request to an authority this connector sends
 * {@code OPTIONS /} (no body; its answer is dropped) on the same JDK client, which upgrades the connection; the
 * request itself then goes on as a stream of that HTTP/2 connection.
 *
 * <p>It also passes an asynchronous request's failure on to Jersey: {@code JavaNetHttpConnector} 3.1.11 chains
 * only the success of {@code sendAsync} to the callback ({@code thenApply(...).thenAccept(callback::response)}), so
 * a request that fails (an unknown host, a refused connection) would leave the caller's future never completed
 * (the TCK's {@code rxinvoker} tests expect a {@code ProcessingException}); the HTTP/1.1 leg's connector reports
 * it.
 *
 * <p>And it drops the pseudo-header {@code :status} that {@code JavaNetHttpConnector} copies from the JDK
 * client's response headers into Jersey's: pseudo-header fields are not header fields (RFC 9113 8.3), and the
 * status is the response's status already.
 */
final class H2cConnector implements Connector {
    private static final Duration OPEN_TIMEOUT = Duration.ofSeconds(30);

    private final JavaNetHttpConnector connector;
    private final Set<String> opened = ConcurrentHashMap.newKeySet();

    H2cConnector(JavaNetHttpConnector connector) {
        this.connector = connector;
    }

    @Override
    public ClientResponse apply(ClientRequest request) {
        open(request);
        return withoutPseudoHeaders(connector.apply(request));
    }

    @Override
    public Future<?> apply(ClientRequest request, AsyncConnectorCallback callback) {
        open(request);
        AtomicBoolean answered = new AtomicBoolean();
        Future<?> sent = connector.apply(request, new AsyncConnectorCallback() {
            @Override
            public void response(ClientResponse response) {
                if (answered.compareAndSet(false, true)) {
                    callback.response(withoutPseudoHeaders(response));
                }
            }

            @Override
            public void failure(Throwable failure) {
                if (answered.compareAndSet(false, true)) {
                    callback.failure(failure);
                }
            }
        });
        if (sent instanceof CompletableFuture<?> future) {
            future.whenComplete((done, failure) -> {
                if (failure != null && answered.compareAndSet(false, true)) {
                    callback.failure(processingException(failure));
                }
            });
        }
        return sent;
    }

    private static ClientResponse withoutPseudoHeaders(ClientResponse response) {
        response.getHeaders().keySet().removeIf(name -> name.startsWith(":"));
        return response;
    }

    private static Throwable processingException(Throwable failure) {
        Throwable cause = failure instanceof CompletionException && failure.getCause() != null
                ? failure.getCause() : failure;
        return cause instanceof ProcessingException ? cause : new ProcessingException(cause);
    }

    /** Upgrades a connection to the request's authority first when none is open yet. */
    private void open(ClientRequest request) {
        URI uri = request.getUri();
        String authority = uri.getScheme() + "://" + uri.getRawAuthority();
        if (!"http".equalsIgnoreCase(uri.getScheme()) || !opened.add(authority)) {
            return;
        }
        HttpClient client = connector.getHttpClient();
        HttpRequest options = HttpRequest.newBuilder(URI.create(authority + "/"))
                .method("OPTIONS", HttpRequest.BodyPublishers.noBody()).timeout(OPEN_TIMEOUT).build();
        try {
            client.send(options, HttpResponse.BodyHandlers.discarding());
        } catch (IOException e) {
            opened.remove(authority); // the request itself will say what is wrong with the server
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    @Override
    public String getName() {
        return connector.getName() + " (HTTP/2, h2c)";
    }

    @Override
    public void close() {
        connector.close();
    }
}
