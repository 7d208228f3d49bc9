package dev.fleche.jersey;

import org.glassfish.jersey.internal.MapPropertiesDelegate;
import org.glassfish.jersey.server.ApplicationHandler;
import org.glassfish.jersey.server.ContainerRequest;
import org.glassfish.jersey.server.ContainerResponse;
import org.glassfish.jersey.server.ResourceConfig;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.io.ByteArrayOutputStream;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * FlecheRequestIds outside the Fleche container (here Jersey's own in-memory handler): its filters give the same
 * ids, properties and echo as the container's own path ({@link RequestIdsTest}).
 */
@Timeout(30)
class RequestIdsFilterTest {
    private static final String TRACEPARENT = "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01";
    private final ApplicationHandler handler = new ApplicationHandler(
            new ResourceConfig(RequestIdsTest.Traced.class).register(FlecheRequestIds.class));

    private ContainerResponse get(String path, String... headers) throws Exception {
        ContainerRequest request = new ContainerRequest(URI.create("http://t/"), URI.create("http://t/" + path), "GET",
                null, new MapPropertiesDelegate(), handler.getConfiguration());
        for (int i = 0; i < headers.length; i += 2) {
            request.header(headers[i], headers[i + 1]);
        }
        ByteArrayOutputStream body = new ByteArrayOutputStream();
        ContainerResponse response = handler.apply(request, body).get(10, TimeUnit.SECONDS);
        response.setEntity(body.toString(StandardCharsets.UTF_8));
        return response;
    }

    @Test
    void keptIdAndTraceBecomePropertiesAndTheIdIsEchoed() throws Exception {
        ContainerResponse response = get("trace", "X-Request-Id", "r1", "traceparent", TRACEPARENT,
                "tracestate", "a=1");
        assertEquals(200, response.getStatus());
        assertEquals("r1", response.getHeaderString(FlecheRequestIds.HEADER));
        String body = (String) response.getEntity();
        assertTrue(body.startsWith("id=r1 trace=4bf92f3577b34da6a3ce929d0e0e4736 parent=00f067aa0ba902b7 flags=01 "
                + "state=a=1 "), body);
    }

    @Test
    void aMalformedIdIsReplaced() throws Exception {
        ContainerResponse response = get("trace", "X-Request-Id", "bad id");
        assertTrue(response.getHeaderString(FlecheRequestIds.HEADER).matches("[0-9a-f]{16}-[0-9a-f]+"),
                response.getHeaderString(FlecheRequestIds.HEADER));
    }

    @Test
    void theApplicationsOwnHeaderWins() throws Exception {
        assertEquals("set-by-app", get("trace/own").getHeaderString(FlecheRequestIds.HEADER));
    }
}
