package dev.fleche.conformance.tck;

import org.junit.jupiter.api.extension.ConditionEvaluationResult;
import org.junit.jupiter.api.extension.ExecutionCondition;
import org.junit.jupiter.api.extension.ExtensionContext;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.reflect.Method;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Skips the TCK tests listed in the exclusions file ({@code conformance/tck/tck-exclusions.txt}, named by the
 * system property {@code fleche.tck.exclusions}; several files separated by commas: the h2c leg adds
 * {@code tck-exclusions-h2c.txt}), each with its reason. Registered through JUnit's extension
 * auto-detection. An excluded test is reported as skipped with a message starting with {@link #PREFIX}, which
 * is how the summary tells exclusions from the TCK's own {@code @Disabled} tests.
 *
 * <p>File format: one {@code class#method | reason} per line (the class as reported, i.e. the concrete test
 * class); {@code #} starts a comment line. Every entry needs a reason.
 */
public final class TckExclusions implements ExecutionCondition {
    /** Start of the skip message of an excluded test. */
    public static final String PREFIX = dev.fleche.conformance.tck.report.TckSummary.EXCLUDED_PREFIX;

    private static final Map<String, String> ENTRIES = load();

    private static Map<String, String> load() {
        String files = System.getProperty("fleche.tck.exclusions");
        if (files == null) {
            return Map.of();
        }
        Map<String, String> entries = new LinkedHashMap<>();
        for (String file : files.split(",")) {
            if (!file.isBlank()) {
                load(Path.of(file.strip()), entries);
            }
        }
        return Map.copyOf(entries);
    }

    private static void load(Path file, Map<String, String> entries) {
        try {
            List<String> lines = Files.readAllLines(file);
            for (int i = 0; i < lines.size(); i++) {
                String line = lines.get(i).strip();
                if (line.isEmpty() || line.startsWith("#")) {
                    continue;
                }
                int bar = line.indexOf('|');
                String selector = bar < 0 ? line : line.substring(0, bar).strip();
                String reason = bar < 0 ? "" : line.substring(bar + 1).strip();
                if (!selector.contains("#") || reason.isEmpty()) {
                    throw new IllegalArgumentException(file + ":" + (i + 1)
                            + ": expected 'fully.qualified.Class#method | reason', got: " + line);
                }
                entries.put(selector, reason);
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read the TCK exclusions " + file, e);
        }
    }

    @Override
    public ConditionEvaluationResult evaluateExecutionCondition(ExtensionContext context) {
        Optional<Method> method = context.getTestMethod();
        Optional<Class<?>> type = context.getTestClass();
        if (method.isEmpty() || type.isEmpty()) {
            return ConditionEvaluationResult.enabled("not a test method");
        }
        String reason = ENTRIES.get(type.get().getName() + "#" + method.get().getName());
        return reason == null ? ConditionEvaluationResult.enabled("not excluded")
                : ConditionEvaluationResult.disabled(PREFIX + reason);
    }
}
