package dev.fleche.validation.internal;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Jackson's read limits, met while parsing or while binding, are the client's problems: 400 or 413, never null. */
class JacksonLimitsMappingTest {
    private final ObjectMapper mapper = new ObjectMapper();

    public record Named(String name) {
    }

    @Test
    void nestingDeeperThanTheLimitIs400() {
        String deep = "[".repeat(2_000) + "]".repeat(2_000);
        JsonProcessingException e = assertThrows(JsonProcessingException.class, () -> mapper.readTree(deep));
        Problem problem = JacksonMappers.problem(e);
        assertEquals(400, problem.status());
        assertEquals(Problem.TYPE_MALFORMED_JSON, problem.toMap(null).get("type"));
        assertMessageNamesTheLimit(problem);
    }

    @Test
    void aStringLongerThanTheLimitWhileBindingIs413() {
        String json = "{\"name\":\"" + "n".repeat(20_000_001) + "\"}";
        JsonProcessingException e = assertThrows(JsonProcessingException.class, () -> mapper.readValue(json, Named.class));
        Problem problem = JacksonMappers.problem(e);
        assertEquals(413, problem.status());
        assertEquals(Problem.TYPE_JSON_TOO_LARGE, problem.toMap(null).get("type"));
        assertMessageNamesTheLimit(problem);
    }

    @SuppressWarnings("unchecked")
    private static void assertMessageNamesTheLimit(Problem problem) {
        List<Map<String, Object>> errors = (List<Map<String, Object>>) problem.toMap(null).get("errors");
        String message = String.valueOf(errors.get(0).get("message"));
        assertTrue(message.startsWith("exceeds the limits of this server: "), message);
    }
}
