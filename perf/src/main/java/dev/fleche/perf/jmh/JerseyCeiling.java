package dev.fleche.perf.jmh;

import dev.fleche.perf.app.BenchApplication;
import jakarta.ws.rs.core.SecurityContext;
import org.glassfish.jersey.internal.MapPropertiesDelegate;
import org.glassfish.jersey.server.ApplicationHandler;
import org.glassfish.jersey.server.ContainerRequest;
import org.glassfish.jersey.server.ContainerResponse;
import org.glassfish.jersey.server.ResourceConfig;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.security.Principal;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;

/**
 * The Jersey ceiling: what Jersey itself costs per request, with no network and no container. Each operation
 * builds a {@link ContainerRequest} as a container would (base and request URI, method, headers, entity stream)
 * and runs {@link ApplicationHandler#apply(ContainerRequest, java.io.OutputStream)} on the shared
 * {@link BenchApplication}, entity written to a reused in-memory stream. A container's overhead is its cost per
 * request minus this. The resources are synchronous, so the future is complete when {@code apply} returns.
 *
 * <pre>
 * java -jar perf/target/fleche-perf.jar JerseyCeiling -prof dev.fleche.perf.jmh.CpuProfiler
 * </pre>
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(value = 1, jvmArgs = {"-Xms512m", "-Xmx512m"})
public class JerseyCeiling {
    private static final URI BASE = URI.create("http://127.0.0.1:8080/");
    private static final URI HELLO = URI.create("http://127.0.0.1:8080/hello");
    private static final URI JSON = URI.create("http://127.0.0.1:8080/json");
    private static final URI ECHO = URI.create("http://127.0.0.1:8080/echo");
    private static final byte[] ECHO_BODY = "{\"name\":\"wrk\",\"amount\":12.34}".getBytes(StandardCharsets.UTF_8);

    private ApplicationHandler handler;
    private final ByteArrayOutputStream out = new ByteArrayOutputStream(256);
    private int lastStatus;

    @Setup
    public void setup() throws Exception {
        handler = new ApplicationHandler(ResourceConfig.forApplication(new BenchApplication()));
        hello();
        check("Hello, World!");
        json();
        check("{\"message\":\"Hello, World!\"}");
        echo();
        check(new String(ECHO_BODY, StandardCharsets.UTF_8));
    }

    private void check(String body) {
        String got = out.toString(StandardCharsets.UTF_8);
        if (lastStatus != 200 || !got.equals(body)) {
            throw new IllegalStateException("expected 200 '" + body + "', got " + lastStatus + " '" + got + "'");
        }
    }

    @Benchmark
    public int hello() throws InterruptedException, ExecutionException {
        return run(request(HELLO, "GET"));
    }

    @Benchmark
    public int json() throws InterruptedException, ExecutionException {
        return run(request(JSON, "GET"));
    }

    @Benchmark
    public int echo() throws InterruptedException, ExecutionException {
        ContainerRequest request = request(ECHO, "POST");
        request.header("Content-Type", "application/json");
        request.header("Content-Length", Integer.toString(ECHO_BODY.length));
        request.setEntityStream(new ByteArrayInputStream(ECHO_BODY));
        return run(request);
    }

    private ContainerRequest request(URI uri, String method) {
        ContainerRequest request = new ContainerRequest(BASE, uri, method, Insecure.INSTANCE,
                new MapPropertiesDelegate(), handler.getConfiguration());
        request.header("Host", "127.0.0.1:8080");
        return request;
    }

    private int run(ContainerRequest request) throws InterruptedException, ExecutionException {
        out.reset();
        ContainerResponse response = handler.apply(request, out).get();
        lastStatus = response.getStatus();
        return lastStatus + out.size();
    }

    /** A plain-HTTP, anonymous security context. */
    private enum Insecure implements SecurityContext {
        INSTANCE;

        @Override
        public Principal getUserPrincipal() {
            return null;
        }

        @Override
        public boolean isUserInRole(String role) {
            return false;
        }

        @Override
        public boolean isSecure() {
            return false;
        }

        @Override
        public String getAuthenticationScheme() {
            return null;
        }
    }
}
