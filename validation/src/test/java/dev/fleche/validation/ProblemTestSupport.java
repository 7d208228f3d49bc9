package dev.fleche.validation;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.fleche.jersey.test.FlecheTestContainerFactory;
import jakarta.ws.rs.core.Application;
import org.glassfish.jersey.server.ResourceConfig;
import org.glassfish.jersey.server.ServerProperties;
import org.glassfish.jersey.test.DeploymentContext;
import org.glassfish.jersey.test.JerseyTest;
import org.glassfish.jersey.test.TestProperties;
import org.glassfish.jersey.test.spi.TestContainerFactory;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Base of this module's JerseyTests: runs on Fleche ({@link FlecheTestContainerFactory}, selected explicitly)
 * on a free port, and sends requests with the JDK client so that every header (or its absence) is exact.
 */
abstract class ProblemTestSupport extends JerseyTest {
    static final ObjectMapper MAPPER = new ObjectMapper();
    private static final HttpClient CLIENT = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

    @Override
    protected final DeploymentContext configureDeployment() {
        forceSet(TestProperties.CONTAINER_PORT, "0");
        ResourceConfig config = (ResourceConfig) configure();
        config.property(ServerProperties.WADL_FEATURE_DISABLE, true);
        return DeploymentContext.builder(config).build();
    }

    @Override
    protected abstract Application configure();

    @Override
    protected final TestContainerFactory getTestContainerFactory() {
        return new FlecheTestContainerFactory();
    }

    /** Sends {@code method path} with {@code headers} (name, value, ...) and an optional body. */
    HttpResponse<String> send(String method, String path, String body, String... headers) {
        String base = getBaseUri().toString();
        URI uri = URI.create((base.endsWith("/") ? base : base + "/") + (path.startsWith("/") ? path.substring(1) : path));
        HttpRequest.Builder b = HttpRequest.newBuilder(uri).timeout(Duration.ofSeconds(10))
                .method(method, body == null ? HttpRequest.BodyPublishers.noBody()
                        : HttpRequest.BodyPublishers.ofString(body));
        for (int i = 0; i < headers.length; i += 2) {
            b.header(headers[i], headers[i + 1]);
        }
        try {
            return CLIENT.send(b.build(), HttpResponse.BodyHandlers.ofString());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    HttpResponse<String> get(String path, String... headers) {
        return send("GET", path, null, headers);
    }

    HttpResponse<String> postJson(String path, String json, String... headers) {
        String[] all = new String[headers.length + 2];
        all[0] = "Content-Type";
        all[1] = "application/json";
        System.arraycopy(headers, 0, all, 2, headers.length);
        return send("POST", path, json, all);
    }

    static JsonNode json(String text) {
        try {
            return MAPPER.readTree(text);
        } catch (IOException e) {
            throw new UncheckedIOException("not JSON: " + text, e);
        }
    }

    /** Asserts status, {@code application/problem+json} and the whole JSON tree (written with ' for "). */
    static JsonNode assertProblem(HttpResponse<String> response, int status, String expected) {
        assertEquals(status, response.statusCode(), response.body());
        assertEquals(ProblemJson.MEDIA_TYPE, response.headers().firstValue("Content-Type").orElse(null));
        JsonNode actual = json(response.body());
        assertEquals(json(expected.replace('\'', '"')), actual, response.body());
        return actual;
    }

    /** As {@link #assertProblem} with {@code expected} as plain JSON text. */
    static JsonNode assertProblemJson(HttpResponse<String> response, int status, String expected) {
        assertEquals(status, response.statusCode(), response.body());
        assertEquals(ProblemJson.MEDIA_TYPE, response.headers().firstValue("Content-Type").orElse(null));
        JsonNode actual = json(response.body());
        assertEquals(json(expected), actual, response.body());
        return actual;
    }

    /** As {@link #assertProblem} for a 500: checks the incident id's shape, then compares the rest. */
    static String assertIncident(HttpResponse<String> response, String path) {
        assertEquals(500, response.statusCode(), response.body());
        ObjectNode actual = (ObjectNode) json(response.body());
        String incident = actual.path("incident").asText();
        assertTrue(incident.matches("[0-9a-f-]{36}"), response.body());
        actual.remove("incident");
        assertEquals(json(("{'type':'about:blank','title':'Internal Server Error','status':500,"
                + "'detail':'The server could not complete the request. Quote the incident id when reporting it.',"
                + "'instance':'" + path + "'}").replace('\'', '"')), actual);
        return incident;
    }
}
