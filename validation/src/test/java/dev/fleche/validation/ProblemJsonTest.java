package dev.fleche.validation;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

/** The dependency-free renderer, as the transport's error renderer would call it. */
class ProblemJsonTest {
    private static String render(int status, String title, String detail) {
        return new String(ProblemJson.render(status, title, detail), StandardCharsets.UTF_8);
    }

    @Test
    void transportRejectionsExactBytes() {
        assertEquals("{\"type\":\"about:blank\",\"title\":\"Request Header Fields Too Large\",\"status\":431,"
                        + "\"detail\":\"Request header fields too large\"}",
                render(431, ProblemJson.title(431), "Request header fields too large"));
        assertEquals("{\"type\":\"about:blank\",\"title\":\"URI Too Long\",\"status\":414}", render(414, null, null));
        assertEquals("{\"type\":\"about:blank\",\"title\":\"HTTP Version Not Supported\",\"status\":505,"
                + "\"detail\":\"HTTP/2.0 is not supported\"}", render(505, null, "HTTP/2.0 is not supported"));
    }

    @Test
    void titlesOfTheTransportsStatuses() {
        Map<Integer, String> expected = Map.of(400, "Bad Request", 408, "Request Timeout", 413, "Content Too Large",
                414, "URI Too Long", 417, "Expectation Failed", 431, "Request Header Fields Too Large",
                500, "Internal Server Error", 501, "Not Implemented", 503, "Service Unavailable",
                505, "HTTP Version Not Supported");
        expected.forEach((status, title) -> assertEquals(title, ProblemJson.title(status)));
        assertEquals("HTTP 499", ProblemJson.title(499));
    }

    @Test
    void escapesEverythingJsonRequires() throws IOException {
        String nasty = "quote \" backslash \\ newline \n tab \t nul \u0000 del \u007f ls \u2028 é 😀 lone \ud800 end";
        String text = render(400, "t", nasty);
        JsonNode parsed = new ObjectMapper().readTree(text);
        assertEquals(nasty.replace('\ud800', '\ufffd'), parsed.get("detail").asText());
        for (char c : text.toCharArray()) {
            assertEquals(false, c < 0x20, "raw control character in " + text);
        }
    }

    @Test
    void rejectsImpossibleStatuses() {
        assertThrows(IllegalArgumentException.class, () -> ProblemJson.render(99, "x", null));
        assertThrows(IllegalArgumentException.class, () -> ProblemJson.render(600, "x", null));
    }

    @Test
    void mapsWithNestedValuesInOrder() {
        Map<String, Object> problem = new LinkedHashMap<>();
        problem.put("type", "about:blank");
        problem.put("status", 400);
        problem.put("errors", List.of(Map.of("in", "query"), new int[] {1, 2}));
        problem.put("ratio", 0.5);
        problem.put("big", new BigDecimal("12345678901234567890.5"));
        problem.put("nan", Double.NaN);
        problem.put("flag", true);
        problem.put("none", null);
        problem.put("kind", Thread.State.NEW);
        assertEquals("{\"type\":\"about:blank\",\"status\":400,\"errors\":[{\"in\":\"query\"},[1,2]],"
                        + "\"ratio\":0.5,\"big\":12345678901234567890.5,\"nan\":\"NaN\",\"flag\":true,\"none\":null,"
                        + "\"kind\":\"NEW\"}",
                new String(ProblemJson.render(problem), StandardCharsets.UTF_8));
    }

    @Test
    void cyclesAreCutInsteadOfOverflowing() throws IOException {
        List<Object> cycle = new ArrayList<>();
        cycle.add(cycle);
        Map<String, Object> problem = new LinkedHashMap<>();
        problem.put("cycle", cycle);
        JsonNode parsed = new ObjectMapper().readTree(ProblemJson.render(problem));
        assertEquals(true, parsed.get("cycle").isArray());
    }
}
