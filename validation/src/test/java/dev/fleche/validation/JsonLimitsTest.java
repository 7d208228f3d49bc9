package dev.fleche.validation;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.jakarta.rs.json.JacksonJsonProvider;
import dev.fleche.jersey.FlecheProperties;
import jakarta.ws.rs.core.Application;
import org.glassfish.jersey.server.ResourceConfig;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.net.Socket;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.net.http.HttpResponse;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Jackson's read limits are the client's mistake: a string longer than {@code StreamReadConstraints} allows is
 * {@code 413} as problem+json, never {@code 500} (nesting deeper than allowed is {@code 400}: JacksonMappersTest); and a body
 * over Fleche's buffered-entity limit is {@code 413} from the transport, as problem+json too.
 */
@Timeout(60)
class JsonLimitsTest extends ProblemTestSupport {

    @Override
    protected Application configure() {
        return new ResourceConfig(Orders.Resource.class).register(JacksonJsonProvider.class)
                .register(FlecheValidationFeature.class)
                .property(FlecheProperties.MAX_BUFFERED_ENTITY_BYTES, 30_000_000);
    }

    @Test
    void aStringOverJacksonsLimitIs413() {
        String name = "n".repeat(20_000_001); // Jackson's default maximum string length is 20,000,000
        HttpResponse<String> response = postJson("orders", "{\"customer\": {\"name\": \"" + name + "\"}}");
        JsonNode problem = assertProblemJson413(response);
        assertEquals("urn:fleche:problem:json-too-large", problem.path("type").asText());
        assertTrue(problem.path("errors").path(0).path("message").asText()
                .startsWith("exceeds the limits of this server: String value length (20000001) exceeds the maximum"),
                problem.toString());
    }

    @Test
    void aBodyOverTheBufferedLimitIs413FromTheTransport() throws Exception {
        URI uri = target("orders").getUri();
        try (Socket socket = new Socket(uri.getHost(), uri.getPort())) {
            socket.setSoTimeout(10_000);
            socket.getOutputStream().write(("POST /orders HTTP/1.1\r\nHost: h\r\nContent-Type: application/json\r\n"
                    + "Content-Length: 30000001\r\n\r\n{").getBytes(StandardCharsets.US_ASCII));
            String response = new String(socket.getInputStream().readAllBytes(), StandardCharsets.US_ASCII);
            String body = "{\"type\":\"about:blank\",\"title\":\"Content Too Large\",\"status\":413,"
                    + "\"detail\":\"request body larger than 30000000 bytes\"}";
            assertEquals("HTTP/1.1 413 Content Too Large\r\nContent-Type: application/problem+json\r\nDate: *\r\n"
                    + "Content-Length: " + body.length() + "\r\nConnection: close\r\n\r\n" + body,
                    response.replaceFirst("Date: [^\r]*\r\n", "Date: *\r\n"));
        }
    }

    private JsonNode assertProblemJson413(HttpResponse<String> response) {
        assertEquals(413, response.statusCode(), response.body().length() > 300 ? response.body().substring(0, 300)
                : response.body());
        assertEquals("application/problem+json", response.headers().firstValue("Content-Type").orElse(""));
        return json(response.body());
    }
}
