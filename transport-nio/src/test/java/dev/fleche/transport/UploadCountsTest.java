package dev.fleche.transport;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.File;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * {@link UploadCounts} in a JVM of its own (its thread counts must see no other server), 32 MiB per mode after
 * a warm-up: an
 * upload costs the reactor no array per read any more. Before the body went into pooled chunks (read straight into
 * them for a {@code Content-Length} body) the reactor allocated about 1 MiB per MiB received; now a few KiB (the
 * rest on TLS and HTTP/2 is the JDK's cipher and the HTTP/2 connection's frame handling, bounded loosely here).
 * Counts, not times: it holds on a busy machine.
 */
class UploadCountsTest {
    @Test
    @Timeout(120)
    void anUploadCostsTheReactorNoArrayPerRead() throws Exception {
        String java = System.getProperty("java.home") + File.separator + "bin" + File.separator + "java";
        String classPath = System.getProperty("surefire.test.class.path", System.getProperty("java.class.path"));
        Process process = new ProcessBuilder(java, "-cp", classPath, UploadCounts.class.getName(), "32", "8")
                .redirectErrorStream(true).start();
        String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(process.waitFor(100, TimeUnit.SECONDS), output);
        assertEquals(0, process.exitValue(), output);
        List<String[]> rows = new ArrayList<>();
        for (String line : output.lines().toList()) {
            if (line.startsWith("| HTTP")) {
                String[] cells = line.substring(1, line.length() - 1).split("\\|");
                rows.add(cells);
            }
        }
        assertEquals(4, rows.size(), output);
        for (String[] row : rows) {
            String mode = row[0].trim();
            double reactor = Double.parseDouble(row[2].trim());
            double reader = Double.parseDouble(row[3].trim());
            double bound = mode.startsWith("HTTP/1.1 TLS") ? 256 * 1024 : mode.startsWith("HTTP/2") ? 768 * 1024
                    : 64 * 1024; // bytes per MiB; was about 1 MiB per MiB in every mode
            assertTrue(reactor < bound, mode + ": the reactor allocated " + reactor + " B/MiB\n" + output);
            assertTrue(reader < 16 * 1024, mode + ": the reader allocated " + reader + " B/MiB\n" + output);
        }
    }
}
