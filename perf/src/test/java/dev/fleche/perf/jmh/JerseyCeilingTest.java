package dev.fleche.perf.jmh;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;

/** The Jersey ceiling serves the shared application correctly (its setup checks every body). */
class JerseyCeilingTest {
    @Test
    void everyResourceAnswers() throws Exception {
        JerseyCeiling bench = new JerseyCeiling();
        bench.setup();
        assertEquals(200 + "Hello, World!".length(), bench.hello());
        assertEquals(200 + "{\"message\":\"Hello, World!\"}".length(), bench.json());
    }
}
