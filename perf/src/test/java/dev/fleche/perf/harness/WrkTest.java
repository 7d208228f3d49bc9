package dev.fleche.perf.harness;

import org.junit.jupiter.api.Test;

import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

class WrkTest {
    @Test
    void parsesTheScriptLineAndNon2xx() {
        String out = """
                Running 1s test @ http://127.0.0.1:18080/hello
                  2 threads and 100 connections
                  12000 requests in 1.00s, 1.2MB read
                  Non-2xx or 3xx responses: 7
                Requests/sec:  12000.00
                FLECHE_WRK 12000 1000000 0 1 2 7 3 500.0 900.0 2500.0 4000.5 9000.0
                """;
        Wrk.Result r = Wrk.parse(out);
        assertEquals(12000, r.requests());
        assertEquals(12000, r.throughput(), 0.01);
        assertEquals(3, r.socketErrors());
        assertEquals(7, r.statusErrors());
        assertEquals(3, r.timeouts());
        assertEquals(2.5, r.p99(), 1e-9);
        assertEquals(9.0, r.max(), 1e-9);
        assertNull(Wrk.parse("wrk: connection refused"));
        assertTrue(Double.isNaN(Wrk.parse("FLECHE_WRK 100 1000000 0 0 0 0 0 0.0 0.0 0.0 0.0 0.0").p99()));
    }

    @Test
    void scriptsCarryBodyAndPipelining() {
        Map<String, Scenario> all = Scenario.all(Options.parse(new String[0]));
        String echo = Wrk.script(all.get("echo"));
        assertTrue(echo.contains("wrk.method = \"POST\"") && echo.contains("{\"name\":\"wrk\",\"amount\":12.34}"), echo);
        String pipe = Wrk.script(all.get("pipeline"));
        assertTrue(pipe.contains("for i = 1, 16 do"), pipe);
        assertTrue(pipe.contains("latency:percentile(99.9)"), pipe);
    }
}
